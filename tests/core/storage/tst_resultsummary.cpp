// result_summary.json shape: latencies in whole ns, percentile keys as strings ("90.0", "99.9"), MLPerf's
// sample std_dev, counters; reading it back gives the point's values to within half a nanosecond and writing
// that again is byte-identical; bad documents fail naming the file and the field.
#include "core/storage/resultsummary.h"

#include <QTest>

#include <cmath>
#include <random>

using namespace Throughline;
using namespace Throughline::Mlperf;

namespace {

// A seeded point with realistic, non-round values (lognormal latencies).
PointResult samplePoint(unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::lognormal_distribution<double> ttft(std::log(180.0), 0.4), tpot(std::log(21.0), 0.2),
        e2e(std::log(25000.0), 0.3);
    std::vector<double> a, b, c;
    for (int i = 0; i < 4386; ++i) {
        a.push_back(ttft(rng));
        b.push_back(tpot(rng));
        c.push_back(e2e(rng));
    }
    b.resize(4380); // a few requests without a TPOT (single-token answers)
    PointResult p;
    p.load.concurrency = 64;
    p.windowS = 1234.567891234;
    p.nSent = 4388;
    p.nOk = 4386;
    p.metrics.ttftMs = summarize(a);
    p.metrics.tpotMlperfMs = summarize(b);
    p.metrics.e2eMs = summarize(c);
    p.metrics.outputTpsMlperf = 3552.123456789;
    return p;
}

const SummaryProvenance kProv{
    "0.1.0", "abc123def456", "3f0c5b1e-8d1a-4c3e-9b7a-2f6d5e4c3b2a", "gpt-oss-120b/vllm/H200×1/Chat", 3,
    0.01};

void near(const StatSummary &got, const StatSummary &want)
{
    const double halfNsMs = 0.5e-6 + 1e-12;
    QCOMPARE(got.n, want.n);
    for (std::size_t i = 0; i < kPercentiles.size(); ++i) {
        if (want.reported(i))
            QVERIFY2(std::fabs(got.p[i] - want.p[i]) <= halfNsMs, kPercentiles[i].key.data());
        else // the minimum-n rule: neither written nor read
            QVERIFY2(std::isnan(got.p[i]), kPercentiles[i].key.data());
    }
    QVERIFY(std::fabs(got.min - want.min) <= halfNsMs);
    QVERIFY(std::fabs(got.max - want.max) <= halfNsMs);
    QVERIFY(std::fabs(got.mean - want.mean) <= halfNsMs);
    QVERIFY(std::fabs(got.std - want.std) <= halfNsMs);
}

} // namespace

class TestResultSummary : public QObject
{
    Q_OBJECT
private slots:
    void percentileKeys()
    {
        QCOMPARE(percentileKey(900), std::string("90.0"));
        QCOMPARE(percentileKey(999), std::string("99.9"));
        QCOMPARE(percentileKey(500), std::string("50.0"));
        QCOMPARE(percentileKey(990), std::string("99.0"));
    }

    void shape()
    {
        const PointResult p = samplePoint(1);
        const auto j = resultSummaryOf(p, kProv);
        QCOMPARE(j["n_samples_issued"].get<int>(), 4388);
        QCOMPARE(j["n_samples_completed"].get<int>(), 4386);
        QCOMPARE(j["n_samples_failed"].get<int>(), 2); // VAL-01: completed + failed = issued
        QCOMPARE(j["duration_ns"].get<long long>(), 1234567891234LL);
        QCOMPARE(j["git_sha"].get<std::string>(), std::string("abc123def456"));
        const auto &tpot = j["tpot"];
        QVERIFY(tpot["percentiles"].contains("90.0"));
        QVERIFY(tpot["percentiles"].contains("99.0"));  // n = 4380 ≥ 1,000
        QVERIFY(!tpot["percentiles"].contains("99.9")); // n < 10,000: not reportable, not written
        QVERIFY(!tpot["percentiles"].contains("p90"));
        QVERIFY(tpot["percentiles"]["90.0"].is_number_integer()); // whole nanoseconds
        QCOMPARE(tpot["percentiles"]["90.0"].get<long long>(),
                 std::llround(p.metrics.tpotMlperfMs.p[1] * 1e6));
        QCOMPARE(tpot["median"].get<long long>(), std::llround(p.metrics.tpotMlperfMs.p[0] * 1e6));
        // MLPerf's std_dev is the sample one (n − 1); ours is the population one.
        const double n = 4380;
        QCOMPARE(tpot["std_dev"].get<long long>(),
                 std::llround(p.metrics.tpotMlperfMs.std * std::sqrt(n / (n - 1)) * 1e6));
        QCOMPARE(tpot["avg"].get<double>(), tpot["total"].get<double>() / n);
        QCOMPARE(j["tps"].get<double>(), 3552.123456789);
        QCOMPARE(j["qps"].get<double>(), 4386 / 1234.567891234);
        QCOMPARE(j["run_config"]["load_pattern"]["target_concurrency"].get<int>(), 64);
        QCOMPARE(j["throughline"]["time_scale"].get<double>(), 0.01);
        QCOMPARE(j["throughline"]["n"]["tpot"].get<int>(), 4380);
        QVERIFY(j["ttft"]["percentiles"]["90.0"].get<long long>() > 100'000'000); // ≈ 180 ms in ns
        QVERIFY(looksLikeResultSummary(j));
    }

    void roundTrip_data()
    {
        QTest::addColumn<unsigned>("seed");
        for (unsigned s : {1u, 2u, 3u, 42u})
            QTest::newRow(qPrintable(QString::number(s))) << s;
    }

    void roundTrip()
    {
        QFETCH(unsigned, seed);
        const PointResult p = samplePoint(seed);
        const auto first = resultSummaryOf(p, kProv);
        // Through text, as a file would be.
        const auto back =
            pointFromResultSummary(nlohmann::json::parse(first.dump(2)), "r64/result_summary.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->load.concurrency, 64);
        QCOMPARE(back->nSent, 4388);
        QCOMPARE(back->nOk, 4386);
        QCOMPARE(back->windowS, p.windowS);
        QCOMPARE(back->metrics.outputTpsMlperf, p.metrics.outputTpsMlperf);
        near(back->metrics.ttftMs, p.metrics.ttftMs);
        near(back->metrics.tpotMlperfMs, p.metrics.tpotMlperfMs);
        near(back->metrics.e2eMs, p.metrics.e2eMs);
        // Written again: identical.
        QCOMPARE(resultSummaryOf(*back, kProv).dump(2), first.dump(2));
    }

    void badDocuments_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value"); // JSON text
        QTest::addColumn<QString>("expected");
        QTest::newRow("issued") << QStringLiteral("/n_samples_issued") << QStringLiteral("\"many\"")
                                << QStringLiteral("f.json: n_samples_issued: expected a number");
        QTest::newRow("percentile value")
            << QStringLiteral("/tpot/percentiles/90.0") << QStringLiteral("\"x\"")
            << QStringLiteral("f.json: tpot.percentiles.90.0: expected a number");
        QTest::newRow("percentile key")
            << QStringLiteral("/ttft/percentiles/p90") << QStringLiteral("1")
            << QStringLiteral("f.json: ttft.percentiles.p90: not a percentile key");
        QTest::newRow("total") << QStringLiteral("/latency/total") << QStringLiteral("null")
                               << QStringLiteral("f.json: latency.total: missing");
    }

    void badDocuments()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        auto j = resultSummaryOf(samplePoint(1), kProv);
        j[nlohmann::json::json_pointer(pointer.toStdString())] = nlohmann::json::parse(value.toStdString());
        const auto r = pointFromResultSummary(j, "f.json");
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().message), expected);
        QVERIFY(!pointFromResultSummary(nlohmann::json{{"metrics", 1}}, "f.json").ok());
    }

    void emptySeriesStayEmpty()
    {
        PointResult p = samplePoint(1);
        p.metrics.tpotMlperfMs = summarize({});
        const auto j = resultSummaryOf(p, kProv);
        QVERIFY(j["tpot"].is_object() && j["tpot"].empty()); // the client writes {} for an empty series
        const auto back = pointFromResultSummary(j, "f.json");
        QVERIFY(back.ok());
        QCOMPARE(back->metrics.tpotMlperfMs.n, std::size_t(0));
        QCOMPARE(resultSummaryOf(*back, kProv).dump(), j.dump());
    }
};

QTEST_GUILESS_MAIN(TestResultSummary)
#include "tst_resultsummary.moc"
