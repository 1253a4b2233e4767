// End to end against the in-process simulated endpoint (core/sim): the scraper reads the simulator's
// vLLM-named /metrics during closed-loop load. Above the model's batch limit B the queue grows and the KV
// cache fills; below it nothing waits. Llama-3.3-70B BF16 on 2×H100 leaves little KV room: B = 7 at
// ISL 1024 / OSL 64 (predictedCapacity), so a small closed loop crosses it.

#include "core/sim/simserver.h"
#include "core/telemetry/commonseries.h"
#include "core/telemetry/pointtelemetry.h"
#include "core/telemetry/telemetryscraper.h"
#include "tests/core/sim/simtestclient.h"

#include <QTest>

#include <algorithm>
#include <chrono>

using namespace Throughline;
using namespace Throughline::CommonSeries;

namespace {

constexpr int kIsl = 1024;
constexpr int kOsl = 64;

std::string body()
{
    std::string ids;
    for (int i = 0; i < kIsl; ++i)
        ids += (i ? "," : "") + std::to_string(100 + i % 1000);
    return R"({"model":"m","prompt":[)" + ids + R"(],"max_tokens":)" + std::to_string(kOsl) +
           R"(,"ignore_eos":true,"stream":true})";
}

double peak(const TelemetrySnapshot &s, const char *name)
{
    double p = 0;
    for (const TelemetrySeries *series : s.findAll(name))
        for (const TelemetrySample &x : series->samples)
            p = std::max(p, x.value);
    return p;
}

} // namespace

class TestSimTelemetry : public QObject
{
    Q_OBJECT

private slots:
    void queueAndKvFollowTheModel_data();
    void queueAndKvFollowTheModel();
};

void TestSimTelemetry::queueAndKvFollowTheModel_data()
{
    QTest::addColumn<double>("concurrencyOverB");
    QTest::newRow("above capacity") << 3.0;
    QTest::newRow("below capacity") << 0.5;
}

void TestSimTelemetry::queueAndKvFollowTheModel()
{
    QFETCH(double, concurrencyOverB);
    auto opts = SimServer::optionsFromCatalog("Llama-3.3-70B-Instruct", "H100", 2, "BF16");
    QVERIFY2(opts.ok(), opts.ok() ? "" : opts.error().message.c_str());
    opts->timeScale = 20;
    opts->servedModelName = "m";
    SimServer sim(*opts);
    auto port = sim.start();
    QVERIFY(port.ok());
    const int b = sim.predictedCapacity(kIsl, kOsl).batch;
    QVERIFY2(b >= 2 && b <= 64, qPrintable(QString::number(b)));
    const int concurrency = std::max(1, int(b * concurrencyOverB));

    ScraperOptions so;
    so.interval = std::chrono::milliseconds(50);
    const std::string base = "http://127.0.0.1:" + std::to_string(*port);
    TelemetryScraper scraper({ScrapeTarget{base + "/metrics", TelemetrySource::Format::Prometheus, "vllm"}},
                             so);
    const auto t0 = std::chrono::steady_clock::now();
    const double t0S =
        std::chrono::duration<double>(t0.time_since_epoch()).count(); // SimTest::nowS() reference
    scraper.start(t0);
    QTRY_VERIFY_WITH_TIMEOUT(scraper.roundsCompleted() >= 2, 5000); // idle baseline first
    const SimTest::Reply probe = SimTest::request(base + "/v1/completions", body());
    QVERIFY2(probe.status == 200, (std::to_string(probe.status) + " " + probe.body.substr(0, 200)).c_str());
    const SimTest::LoopResult load = SimTest::closedLoop(base + "/v1/completions", body, concurrency, 2.0);
    QTest::qWait(200); // a few more scrapes after the load
    scraper.stop();
    sim.stop();
    QVERIFY(load.completed > 0);
    QCOMPARE(load.failed, 0);

    const TelemetrySnapshot snap = scraper.snapshot();
    QCOMPARE(snap.sources[0].scrapesFailed, 0);
    QCOMPARE(snap.sources[0].malformedLines, 0);
    const double peakRunning = peak(snap, kRunning);
    const double peakWaiting = peak(snap, kWaiting);
    const double peakKv = peak(snap, kKvCacheUsage);
    qInfo("B=%d C=%d completed=%d peak running=%.0f waiting=%.0f kv=%.3f", b, concurrency, load.completed,
          peakRunning, peakWaiting, peakKv);
    // Mean queue over the loop's steady part (first to last send, client clock → run clock).
    const auto [minSend, maxSend] = std::minmax_element(load.sendTimes.begin(), load.sendTimes.end());
    const PointTelemetrySummary window = PointTelemetry::summarise(snap, std::int64_t((*minSend - t0S) * 1e9),
                                                                   std::int64_t((*maxSend - t0S) * 1e9), 0);
    QVERIFY(window.meanWaiting);
    qInfo("mean waiting over the loop %.2f", *window.meanWaiting);
    QVERIFY(peakRunning <= b);
    if (concurrency > b) {
        QVERIFY(peakRunning >= b - 1);
        QVERIFY(peakWaiting >= concurrency - b - 1);
        QVERIFY(*window.meanWaiting >= 0.5 * (concurrency - b));
        QVERIFY(peakKv > 0.5);
    } else {
        // Arrivals may wait for the next scheduler step (peaks of 1–2 seen); on average nothing queues.
        QVERIFY(*window.meanWaiting < 0.5);
        QVERIFY(peakRunning >= 1);
        QVERIFY(peakKv < 0.9);
    }
    QVERIFY(peak(snap, kGenerationTps) > 0);

    // Alignment with the client clock: the first non-zero "running" sample comes after the first request
    // was sent and no later than one scrape interval (+ slack) after it was admitted / its first token.
    const double firstSendNs = (std::min(probe.tSend, *minSend) - t0S) * 1e9; // the probe request came first
    double firstTokenNs = (*std::min_element(load.eventTimes.begin(), load.eventTimes.end()) - t0S) * 1e9;
    for (const auto &[t, bytes] : probe.reads)
        firstTokenNs = std::min(firstTokenNs, (t - t0S) * 1e9);
    const TelemetrySeries *running = snap.find(kRunning);
    QVERIFY(running);
    std::int64_t firstBusy = -1;
    for (const TelemetrySample &s : running->samples)
        if (s.value > 0) {
            firstBusy = s.tNs;
            break;
        }
    QVERIFY(firstBusy > 0);
    QVERIFY2(double(firstBusy) >= firstSendNs - 5e6, "telemetry time before the load started");
    // Slack of 100 ms on top of the 50 ms interval for a loaded 2-core CI machine.
    QVERIFY2(double(firstBusy) <= std::max(firstSendNs, firstTokenNs) + 50e6 + 100e6,
             "telemetry lags more than one interval");

    // The server's TTFT histogram over the run agrees in count with the client's completed requests
    // (+1: the probe request before the loop).
    const std::int64_t endNs =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    const PointTelemetrySummary sum = PointTelemetry::summarise(snap, 0, endNs, 0);
    QVERIFY(sum.serverTtftCount);
    QCOMPARE(*sum.serverTtftCount, double(load.completed + 1));
}

QTEST_GUILESS_MAIN(TestSimTelemetry)
#include "tst_simtelemetry.moc"
