// Per-point telemetry summary: peak/mean KV usage, queue, GPU power → energy per token, server TTFT from
// histogram snapshots — fed through the real parser and store so the whole path is exercised.

#include "core/telemetry/commonseries.h"
#include "core/telemetry/pointtelemetry.h"
#include "core/telemetry/prometheusparser.h"
#include "core/telemetry/telemetrystore.h"

#include <QTest>

#include <cmath>

using namespace Throughline;

namespace {

constexpr std::int64_t kS = 1'000'000'000;

std::string vllmExposition(double kv, double waiting, double ttftFast, double ttftSlow, double ttftSum)
{
    const std::string total = std::to_string(ttftFast + ttftSlow);
    return "# TYPE vllm:kv_cache_usage_perc gauge\nvllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} " +
           std::to_string(kv) +
           "\n# TYPE vllm:num_requests_waiting "
           "gauge\nvllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} " +
           std::to_string(waiting) +
           "\n# TYPE vllm:time_to_first_token_seconds histogram\n"
           "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"0.5\",model_name=\"m\"} " +
           std::to_string(ttftFast) +
           "\n"
           "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"2.0\",model_name=\"m\"} " +
           total +
           "\n"
           "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"+Inf\",model_name=\"m\"} " +
           total +
           "\n"
           "vllm:time_to_first_token_seconds_sum{engine=\"0\",model_name=\"m\"} " +
           std::to_string(ttftSum) +
           "\n"
           "vllm:time_to_first_token_seconds_count{engine=\"0\",model_name=\"m\"} " +
           total + "\n";
}

std::string dcgm(double power0, double power1, double temp0)
{
    return "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
           "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\"} " +
           std::to_string(power0) +
           "\n"
           "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\",UUID=\"GPU-b\"} " +
           std::to_string(power1) +
           "\n"
           "# TYPE DCGM_FI_DEV_GPU_TEMP gauge\nDCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-a\"} " +
           std::to_string(temp0) +
           "\n"
           "DCGM_FI_DEV_GPU_TEMP{gpu=\"1\",UUID=\"GPU-b\"} 40\n";
}

} // namespace

class TestPointTelemetry : public QObject
{
    Q_OBJECT

private slots:
    void summary();
    void emptyWindow();
};

void TestPointTelemetry::summary()
{
    TelemetryStore store;
    const int engine = store.addSource("http://e/metrics", "vllm", MetricNameMap::forBackend("vllm"));
    const int gpus = store.addSource("http://dcgm/metrics", "", MetricNameMap::forBackend(""));
    // Scrapes at 0…10 s. Point window [2 s, 8 s]. KV rises 0.1 → 1.0, queue 0 → 10.
    // TTFT: cumulative histogram grows by 4 fast (≤0.5 s) and 1 slow (≤2 s) request per second.
    for (int i = 0; i <= 10; ++i) {
        const std::int64_t t = i * kS;
        store.recordScrape(engine, t, true, 1.0, {});
        store.ingest(engine, t,
                     PrometheusParser::parse(vllmExposition(0.1 + 0.09 * i, i, 4.0 * i, 1.0 * i, 1.5 * i)));
        store.recordScrape(gpus, t, i != 5, 1.0, i == 5 ? "HTTP 500" : "");
        if (i != 5) // one failed DCGM scrape: the integral bridges it
            store.ingest(gpus, t, PrometheusParser::parse(dcgm(300, 200 + 10 * i, 60 + i)));
    }
    const TelemetrySnapshot snap = store.snapshot();
    const PointTelemetrySummary s = PointTelemetry::summarise(snap, 2 * kS, 8 * kS, 12000.0);

    QCOMPARE(s.scrapes, 14); // 7 per source in [2, 8]
    QCOMPARE(s.scrapeFailures, 1);
    QVERIFY(s.peakKvCacheUsage && std::abs(*s.peakKvCacheUsage - (0.1 + 0.09 * 8)) < 1e-9);
    QVERIFY(s.meanKvCacheUsage && std::abs(*s.meanKvCacheUsage - (0.1 + 0.09 * 5)) < 1e-9);
    QVERIFY(s.meanWaiting && std::abs(*s.meanWaiting - 5.0) < 1e-9);
    QVERIFY(s.peakWaiting && *s.peakWaiting == 8.0);
    QVERIFY(!s.meanGpuUtilPct); // not exposed
    QVERIFY(s.peakGpuTempC && *s.peakGpuTempC == 68.0);

    // Energy over 6 s: GPU 0 at 300 W = 1800 J; GPU 1 ramps 220 → 280 W linearly = 1500 J.
    QVERIFY(s.energyJ);
    QVERIFY2(std::abs(*s.energyJ - 3300.0) < 1e-6, qPrintable(QString::number(*s.energyJ)));
    QVERIFY(s.energyPerOutputTokenJ && std::abs(*s.energyPerOutputTokenJ - 3300.0 / 12000.0) < 1e-12);
    QVERIFY(s.meanGpuPowerW && *s.meanGpuPowerW > 540 && *s.meanGpuPowerW < 560);

    // Server TTFT over the window: 30 observations, 24 ≤ 0.5 s, 6 in (0.5, 2]; mean 9/30 s.
    QVERIFY(s.serverTtftCount && *s.serverTtftCount == 30.0);
    QVERIFY(s.serverTtftMeanS && std::abs(*s.serverTtftMeanS - 0.3) < 1e-9);
    QVERIFY(s.serverTtftP50S && std::abs(*s.serverTtftP50S - 0.5 * 15.0 / 24.0) < 1e-9);
    QVERIFY(s.serverTtftP90S && std::abs(*s.serverTtftP90S - (0.5 + 1.5 * 3.0 / 6.0)) < 1e-9);
}

void TestPointTelemetry::emptyWindow()
{
    TelemetryStore store;
    const int src = store.addSource("u", "vllm", MetricNameMap::forBackend("vllm"));
    store.ingest(src, 100 * kS, PrometheusParser::parse("vllm:kv_cache_usage_perc 0.5\n"));
    const PointTelemetrySummary s = PointTelemetry::summarise(store.snapshot(), 0, 10 * kS, 100.0);
    QVERIFY(!s.peakKvCacheUsage && !s.energyJ && !s.energyPerOutputTokenJ && !s.serverTtftCount);
    QCOMPARE(s.scrapes, 0);
}

QTEST_GUILESS_MAIN(TestPointTelemetry)
#include "tst_pointtelemetry.moc"
