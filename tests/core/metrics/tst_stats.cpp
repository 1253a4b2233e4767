// Statistics: NumPy-default percentiles (values computed by hand from h = (n − 1)·p), population
// stddev, the minimum-n rule and the error-adjusted variant.
#include "core/metrics/stats.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

using namespace Throughline;

Q_DECLARE_METATYPE(std::vector<double>)

class TestStats : public QObject
{
    Q_OBJECT
private slots:
    void percentile_data();
    void percentile();
    void reportable_data();
    void reportable();
    void summaryBlock();
    void emptySample();
    void smallSampleReportsNa();
    void errorAdjusted();
    void jsonRoundTrip();
};

void TestStats::percentile_data()
{
    QTest::addColumn<std::vector<double>>("values");
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("expected");
    // numpy.percentile(x, q) with the default method="linear".
    QTest::newRow("single") << std::vector<double>{5} << 0.9 << 5.0;
    QTest::newRow("two p90") << std::vector<double>{10, 20} << 0.9 << 19.0;       // h=0.9
    QTest::newRow("four p50") << std::vector<double>{4, 1, 3, 2} << 0.5 << 2.5;   // h=1.5
    QTest::newRow("four p90") << std::vector<double>{1, 2, 3, 4} << 0.9 << 3.7;   // h=2.7
    QTest::newRow("four p95") << std::vector<double>{1, 2, 3, 4} << 0.95 << 3.85; // h=2.85
    QTest::newRow("four p99") << std::vector<double>{1, 2, 3, 4} << 0.99 << 3.97; // h=2.97
    QTest::newRow("odd p50 exact rank") << std::vector<double>{3, 1, 2} << 0.5 << 2.0;
    QTest::newRow("p0 is min") << std::vector<double>{7, 3, 9} << 0.0 << 3.0;
    QTest::newRow("p100 is max") << std::vector<double>{7, 3, 9} << 1.0 << 9.0;
    std::vector<double> hundred;
    for (int i = 1; i <= 100; ++i)
        hundred.push_back(i);
    QTest::newRow("1..100 p90") << hundred << 0.9 << 90.1;      // h=89.1 → 90 + 0.1
    QTest::newRow("1..100 p99") << hundred << 0.99 << 99.01;    // h=98.01
    QTest::newRow("1..100 p999") << hundred << 0.999 << 99.901; // h=98.901
    QTest::newRow("duplicates") << std::vector<double>{5, 5, 5, 10} << 0.5 << 5.0;
}

void TestStats::percentile()
{
    QFETCH(std::vector<double>, values);
    QFETCH(double, p);
    QFETCH(double, expected);
    std::sort(values.begin(), values.end());
    QVERIFY2(std::abs(percentileSorted(values, p) - expected) < 1e-9,
             qPrintable(QString::number(percentileSorted(values, p), 'g', 17)));
}

void TestStats::reportable_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("permille");
    QTest::addColumn<bool>("expected");
    QTest::newRow("p50 n=19") << 19 << 500 << false;
    QTest::newRow("p50 n=20") << 20 << 500 << true;
    QTest::newRow("p90 n=99") << 99 << 900 << false;
    QTest::newRow("p90 n=100") << 100 << 900 << true;
    QTest::newRow("p95 n=199") << 199 << 950 << false;
    QTest::newRow("p95 n=200") << 200 << 950 << true;
    QTest::newRow("p99 n=999") << 999 << 990 << false;
    QTest::newRow("p99 n=1000") << 1000 << 990 << true;
    QTest::newRow("p999 n=9999") << 9999 << 999 << false;
    QTest::newRow("p999 n=10000") << 10000 << 999 << true;
    QTest::newRow("n=0") << 0 << 500 << false;
}

void TestStats::reportable()
{
    QFETCH(int, n);
    QFETCH(int, permille);
    QFETCH(bool, expected);
    QCOMPARE(percentileReportable(static_cast<std::size_t>(n), permille), expected);
}

void TestStats::summaryBlock()
{
    // Population stddev of the classic sample is exactly 2 (mean 5).
    std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
    std::vector<double> big;
    for (int i = 0; i < 25; ++i)
        big.insert(big.end(), v.begin(), v.end()); // n = 200: p50/p90/p95 reportable
    const StatSummary s = summarize(big);
    QCOMPARE(s.n, std::size_t(200));
    QCOMPARE(s.mean, 5.0);
    QVERIFY(std::abs(s.std - 2.0) < 1e-12);
    QCOMPARE(s.min, 2.0);
    QCOMPARE(s.max, 9.0);
    QCOMPARE(*s.stat("p50"), 4.5); // sorted: 25×2, 75×4, 50×5, …; h = 99.5 between idx 99 (4) and 100 (5)
    QVERIFY(s.stat("p90").has_value());
    QVERIFY(s.stat("p95").has_value());
    QVERIFY(!s.stat("p99").has_value());
    QVERIFY(!s.stat("p999").has_value());
    QCOMPARE(s.format("p99"), std::string("n/a (n=200)"));
    QCOMPARE(s.format("mean", 2), std::string("5.00"));
    QVERIFY(!s.stat("bogus").has_value());
}

void TestStats::emptySample()
{
    const StatSummary s = summarize({});
    QCOMPARE(s.n, std::size_t(0));
    QVERIFY(!s.stat("mean").has_value());
    QCOMPARE(*s.stat("n"), 0.0);
    const nlohmann::json j = s.toJson();
    QVERIFY(j["mean"].is_null());
    QVERIFY(j["p50"].is_null());
    QCOMPARE(j["n"].get<int>(), 0);
}

void TestStats::smallSampleReportsNa()
{
    const StatSummary s = summarize({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    QCOMPARE(s.format("p90"), std::string("n/a (n=12)"));
    QCOMPARE(s.format("p50"), std::string("n/a (n=12)"));
    QCOMPARE(s.format("max", 0), std::string("12"));
    // The raw value is still computed (UI may show it greyed): h = 11·0.9 = 9.9 → 10.9.
    QVERIFY(std::abs(s.p[1] - 10.9) < 1e-12);
    QVERIFY(s.toJson()["p90"].is_null());
}

void TestStats::errorAdjusted()
{
    // ok [1, 2, 3] + one failure → [1, 2, 3, +∞].
    const StatSummary s = summarizeErrorAdjusted({3, 1, 2}, 1);
    QCOMPARE(s.n, std::size_t(4));
    QCOMPARE(s.p[0], 2.5);       // p50: h=1.5 between 2 and 3
    QVERIFY(std::isinf(s.p[1])); // p90: h=2.7 touches +∞
    QVERIFY(std::isinf(s.mean));
    QCOMPARE(s.min, 1.0);
    const StatSummary none = summarizeErrorAdjusted({3, 1, 2}, 0);
    QCOMPARE(none.mean, 2.0);
}

void TestStats::jsonRoundTrip()
{
    std::vector<double> v;
    for (int i = 0; i < 150; ++i)
        v.push_back(i * 0.5);
    const StatSummary s = summarize(v);
    const nlohmann::json j = s.toJson();
    QCOMPARE(j.size(), std::size_t(10));
    for (const char *k : {"p50", "p90", "p95", "p99", "p999", "mean", "min", "max", "std", "n"})
        QVERIFY2(j.contains(k), k);
    std::string err;
    const auto back = StatSummary::fromJson(j, &err);
    QVERIFY2(back.has_value(), err.c_str());
    QVERIFY2(back->toJson() == j, back->toJson().dump().c_str());
    QVERIFY(!StatSummary::fromJson(nlohmann::json{{"p50", "x"}, {"n", 1}}, &err).has_value());
    QVERIFY(!StatSummary::fromJson(nlohmann::json{{"mean", 1}}, &err).has_value());
    QVERIFY(err.find("'n'") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestStats)
#include "tst_stats.moc"
