// The simulator's fixed-latency mode (FixedLatencyScheduler, the vllm-bench overhead protocol's mock
// server): a real SimServer on loopback, a closed loop of streaming requests, and the ground-truth log's
// actual write times. A token is never written before it is due (hard bounds); how late it is written is the
// machine's (loose bounds that hold on a loaded 2-core machine).
#include "core/sim/simserver.h"
#include "simtestclient.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

using namespace Throughline;

namespace {

struct Truth {
    std::int64_t acceptNs = 0;
    std::vector<std::int64_t> writes;
};

std::vector<Truth> readTruth(const QString &path)
{
    std::vector<Truth> out;
    std::ifstream in(path.toStdString());
    std::string line;
    while (std::getline(in, line)) {
        const auto j = nlohmann::json::parse(line);
        out.push_back({j.at("t_accept_ns").get<std::int64_t>(),
                       j.at("t_token_write_ns").get<std::vector<std::int64_t>>()});
    }
    return out;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return -1;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

class TestFixedLatencyScheduler : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { curl_global_init(CURL_GLOBAL_ALL); }

    // First token TTFT after arrival, each next one ITL after it, at C = 1 as at C = 64 (model ms / scale).
    void timesFromArrival_data()
    {
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<double>("timeScale");
        QTest::newRow("C=1") << 1 << 1.0;
        QTest::newRow("C=64") << 64 << 1.0;
        QTest::newRow("C=16, time scale 4") << 16 << 4.0; // 200 / 40 model ms = 50 / 10 wall ms
    }
    void timesFromArrival()
    {
        QFETCH(int, concurrency);
        QFETCH(double, timeScale);
        constexpr int kTokens = 20;
        const double ttftMs = 50, itlMs = 10; // wall
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString truth = dir.filePath(u"truth.jsonl"_qs);
        auto o = SimServer::optionsFromCatalog("gpt-oss-20b", "H200", 1, "FP8");
        QVERIFY(o.ok());
        o->timeScale = timeScale;
        o->fixedTtftMs = ttftMs * timeScale;
        o->fixedItlMs = itlMs * timeScale;
        o->groundTruthPath = truth.toStdString();
        SimServer server(*o);
        auto port = server.start("127.0.0.1", 0);
        QVERIFY2(port.ok(), port.ok() ? "" : port.error().message.c_str());
        QVERIFY(server.capacitySummary().find("fixed latency: first token") != std::string::npos);
        const std::string body = R"({"model":"gpt-oss-20b","prompt":"abcd abcd abcd","max_tokens":)" +
                                 std::to_string(kTokens) + R"(,"ignore_eos":true,"stream":true})";
        const auto loop = SimTest::closedLoop(
            "http://127.0.0.1:" + std::to_string(*port) + "/v1/completions", [&] { return body; },
            concurrency, 0.35);
        server.stop();
        QCOMPARE(loop.failed, 0);
        QVERIFY(loop.completed >= concurrency);

        const auto gt = readTruth(truth);
        QCOMPARE(int(gt.size()), loop.completed);
        std::vector<double> firstMs, gapMs;
        for (const Truth &t : gt) {
            QCOMPARE(int(t.writes.size()), kTokens);
            // Never early: token k (0-based) is due TTFT + k × ITL after the arrival.
            for (int k = 0; k < kTokens; ++k)
                QVERIFY2(double(t.writes[size_t(k)] - t.acceptNs) / 1e6 >= ttftMs + k * itlMs - 1e-3,
                         qPrintable(u"token %1 written %2 ms after arrival"_qs.arg(k).arg(
                             double(t.writes[size_t(k)] - t.acceptNs) / 1e6)));
            firstMs.push_back(double(t.writes.front() - t.acceptNs) / 1e6);
            for (size_t k = 1; k < t.writes.size(); ++k)
                gapMs.push_back(double(t.writes[k] - t.writes[k - 1]) / 1e6);
        }
        const double firstMedian = median(firstMs), gapMedian = median(gapMs);
        qInfo("C=%d, time scale %g: %zu requests, first token after arrival median %.3f ms, max %.3f ms; "
              "gap median %.3f ms",
              concurrency, timeScale, gt.size(), firstMedian,
              *std::max_element(firstMs.begin(), firstMs.end()), gapMedian);
        // Late by the machine only: a wake-up and a write, a few ms at most on a busy shared machine.
        QVERIFY2(firstMedian <= ttftMs + 5, qPrintable(QString::number(firstMedian)));
        QVERIFY2(gapMedian >= itlMs - 1 && gapMedian <= itlMs + 1, qPrintable(QString::number(gapMedian)));
    }
};

QTEST_GUILESS_MAIN(TestFixedLatencyScheduler)
#include "tst_fixedlatencyscheduler.moc"
