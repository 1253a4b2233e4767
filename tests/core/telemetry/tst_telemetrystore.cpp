// TelemetryStore and MetricNameMap: counters → rates (reset-aware), gauges, old/new names, per-backend maps,
// DCGM exporter names (from dcgm-exporter's default-counters.csv), TRT-LLM JSON iteration stats, histograms,
// bounded memory.

#include "telemetrytestutil.h"

#include "core/telemetry/commonseries.h"
#include "core/telemetry/histogramquantile.h"
#include "core/telemetry/metricnamemap.h"
#include "core/telemetry/prometheusparser.h"
#include "core/telemetry/telemetrystore.h"
#include "core/telemetry/trtllmstatsparser.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace Throughline;
using namespace Throughline::CommonSeries;
using namespace Throughline::TelemetryTest;

namespace {

constexpr std::int64_t kS = 1'000'000'000;

void ingestText(TelemetryStore &store, int source, std::int64_t tNs, const std::string &text)
{
    store.ingest(source, tNs, PrometheusParser::parse(text));
}

std::vector<double> values(const TelemetrySeries *s)
{
    std::vector<double> out;
    if (s)
        for (const TelemetrySample &p : s->samples)
            out.push_back(p.value);
    return out;
}

// Non-comment rows of dcgm-exporter's default-counters.csv: (field, type).
std::vector<std::pair<std::string, std::string>> dcgmCsvFields()
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string &line :
         dataLines(readFile(samplesDir() + u"/dcgm-exporter_etc_default-counters.csv"))) {
        const auto c1 = line.find(',');
        const auto c2 = line.find(',', c1 + 1);
        auto trim = [](std::string s) {
            const auto b = s.find_first_not_of(" \t");
            const auto e = s.find_last_not_of(" \t\r");
            return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
        };
        out.emplace_back(trim(line.substr(0, c1)), trim(line.substr(c1 + 1, c2 - c1 - 1)));
    }
    return out;
}

} // namespace

class TestTelemetryStore : public QObject
{
    Q_OBJECT

private slots:
    void counterToRate_data();
    void counterToRate();
    void gaugeAndOldNames();
    void priorityWhenBothNamesPresent();
    void sglangV03AndCurrent();
    void unknownMetricsKeptUnderOwnNames();
    void perBackendMaps();
    void aiperfVllmNamesMap();
    void dcgmExporter();
    void trtllmJson();
    void trtllmJsonErrors();
    void histogramDerivedSeries();
    void histogramQuantile_data();
    void histogramQuantile();
    void boundedMemory();
    void scrapeStatus();
};

void TestTelemetryStore::counterToRate_data()
{
    QTest::addColumn<QList<double>>("counter");
    QTest::addColumn<QList<double>>("timesS");
    QTest::addColumn<QList<double>>("rates");
    QTest::newRow("steady") << QList<double>{100, 200, 400} << QList<double>{0, 1, 2}
                            << QList<double>{100, 200};
    QTest::newRow("uneven interval") << QList<double>{0, 50, 50} << QList<double>{0, 0.5, 2.5}
                                     << QList<double>{100, 0};
    QTest::newRow("reset") << QList<double>{1000, 1100, 30, 90} << QList<double>{0, 1, 2, 3}
                           << QList<double>{100, 30, 60}; // restart: counted from 0
    QTest::newRow("reset to zero") << QList<double>{500, 0, 10} << QList<double>{0, 2, 3}
                                   << QList<double>{0, 10};
    QTest::newRow("NaN sample skipped") << QList<double>{100, std::numeric_limits<double>::quiet_NaN(), 300}
                                        << QList<double>{0, 1, 2} << QList<double>{100};
    QTest::newRow("first scrape only") << QList<double>{42} << QList<double>{5} << QList<double>{};
}

void TestTelemetryStore::counterToRate()
{
    QFETCH(QList<double>, counter);
    QFETCH(QList<double>, timesS);
    QFETCH(QList<double>, rates);
    TelemetryStore store;
    const int src = store.addSource("http://x/metrics", "vllm", MetricNameMap::forBackend("vllm"));
    for (int i = 0; i < counter.size(); ++i)
        ingestText(
            store, src, std::llround(timesS[i] * kS),
            "# TYPE vllm:generation_tokens_total counter\nvllm:generation_tokens_total{model_name=\"m\"} " +
                std::to_string(counter[i]) + "\n");
    const TelemetrySnapshot snap = store.snapshot();
    const TelemetrySeries *s = snap.find(kGenerationTps);
    QVERIFY(s);
    QCOMPARE(s->unit, std::string("tokens/s"));
    QVERIFY(s->labels.empty()); // model_name is not an identifying label of a common series
    const std::vector<double> got = values(s);
    QCOMPARE(static_cast<int>(got.size()), rates.size());
    for (int i = 0; i < rates.size(); ++i) {
        QVERIFY2(std::abs(got[static_cast<std::size_t>(i)] - rates[i]) < 1e-9,
                 qPrintable(QString::number(got[static_cast<std::size_t>(i)])));
        const bool anyNan =
            std::any_of(counter.begin(), counter.end(), [](double v) { return std::isnan(v); });
        if (!anyNan) // each rate is stamped with the later scrape's time
            QCOMPARE(s->samples[static_cast<std::size_t>(i)].tNs, std::llround(timesS[i + 1] * kS));
    }
}

void TestTelemetryStore::gaugeAndOldNames()
{
    TelemetryStore store;
    const int src = store.addSource("u", "vllm", MetricNameMap::forBackend("vllm"));
    // vLLM before 0.10 exposed the KV usage as gpu_cache_usage_perc.
    ingestText(store, src, 1 * kS,
               "# TYPE vllm:gpu_cache_usage_perc gauge\nvllm:gpu_cache_usage_perc{model_name=\"m\"} 0.25\n"
               "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{model_name=\"m\"} 7\n");
    ingestText(store, src, 2 * kS,
               "# TYPE vllm:gpu_cache_usage_perc gauge\nvllm:gpu_cache_usage_perc{model_name=\"m\"} 0.5\n");
    const TelemetrySnapshot snap = store.snapshot();
    const TelemetrySeries *kv = snap.find(kKvCacheUsage);
    QVERIFY(kv);
    QCOMPARE(kv->sourceMetric, std::string("vllm:gpu_cache_usage_perc"));
    QCOMPARE(values(kv), (std::vector<double>{0.25, 0.5}));
    QCOMPARE(values(snap.find(kWaiting)), (std::vector<double>{7}));
}

void TestTelemetryStore::priorityWhenBothNamesPresent()
{
    TelemetryStore store;
    const int src = store.addSource("u", "vllm", MetricNameMap::forBackend("vllm"));
    // A transition release exposing both names: the new one wins regardless of order.
    ingestText(store, src, kS, "vllm:gpu_cache_usage_perc 0.9\nvllm:kv_cache_usage_perc 0.3\n");
    ingestText(store, src, 2 * kS, "vllm:kv_cache_usage_perc 0.4\nvllm:gpu_cache_usage_perc 0.8\n");
    const TelemetrySnapshot snap = store.snapshot();
    QCOMPARE(snap.findAll(kKvCacheUsage).size(), std::size_t(1));
    QCOMPARE(values(snap.find(kKvCacheUsage)), (std::vector<double>{0.3, 0.4}));
}

void TestTelemetryStore::sglangV03AndCurrent()
{
    const QString dir = QStringLiteral(THROUGHLINE_SHARED_DIR "/data/samples/metrics/");
    {
        TelemetryStore store;
        const int src = store.addSource("u", "sglang", MetricNameMap::forBackend("sglang"));
        ingestText(store, src, kS, readFile(dir + u"sglang_v0.3_docs_production_metrics_gemma2_9b.prom.txt"));
        const TelemetrySnapshot snap = store.snapshot();
        QCOMPARE(values(snap.find(kKvCacheUsage)), (std::vector<double>{0.01}));
        QCOMPARE(values(snap.find(kRunning)), (std::vector<double>{0.0}));
        // num_requests_waiting and queue_req both exist in v0.3: one series, from the preferred name.
        QCOMPARE(snap.findAll(kWaiting).size(), std::size_t(1));
        QCOMPARE(snap.find(kWaiting)->sourceMetric, std::string("sglang:num_requests_waiting"));
        QVERIFY(snap.find("sglang:max_total_num_tokens")); // unknown: kept under its own name
        QVERIFY(snap.find("sglang:cache_hit_rate"));       // percent in v0.3: deliberately not mapped
    }
    {
        TelemetryStore store;
        const int src = store.addSource("u", "sglang", MetricNameMap::forBackend("sglang"));
        ingestText(store, src, kS, readFile(dir + u"sglang_docs_production_metrics_llama31_8b.prom.txt"));
        const TelemetrySnapshot snap = store.snapshot();
        QCOMPARE(values(snap.find(kRunning)), (std::vector<double>{162}));
        QCOMPARE(values(snap.find(kWaiting)), (std::vector<double>{2826}));
        QCOMPARE(values(snap.find(kKvCacheUsage)), (std::vector<double>{0.28}));
        QVERIFY(snap.findHistogram(kServerTtftS));
        QCOMPARE(snap.findHistogram(kServerTtftS)->snapshots.back().count, 11008.0);
    }
}

void TestTelemetryStore::unknownMetricsKeptUnderOwnNames()
{
    TelemetryStore store;
    const int src = store.addSource("u", "llamacpp", MetricNameMap::forBackend("llamacpp"));
    const std::string text = readFile(
        QStringLiteral(THROUGHLINE_SHARED_DIR "/data/samples/metrics/llamacpp_80fb11a_metrics.prom.txt"));
    ingestText(store, src, kS, text);
    // Second scrape: 17 more prompt tokens and 40 more predicted tokens in 2 s.
    std::string later = text;
    later.replace(later.find("llamacpp:prompt_tokens_total 49"), 31, "llamacpp:prompt_tokens_total 66");
    later.replace(later.find("llamacpp:tokens_predicted_total 34"), 34, "llamacpp:tokens_predicted_total 74");
    ingestText(store, src, 3 * kS, later);
    const TelemetrySnapshot snap = store.snapshot();
    QCOMPARE(values(snap.find(kPromptTps)), (std::vector<double>{8.5}));
    QCOMPARE(values(snap.find(kGenerationTps)), (std::vector<double>{20}));
    QCOMPARE(values(snap.find(kRunning)), (std::vector<double>{0, 0}));
    const TelemetrySeries *own = snap.find("llamacpp:n_busy_slots_per_decode");
    QVERIFY(own);
    QVERIFY(!own->common);
    QCOMPARE(values(own), (std::vector<double>{1, 1}));
    const TelemetrySeries *ownCounter = snap.find("llamacpp:n_decode_total");
    QVERIFY(ownCounter);
    QCOMPARE(ownCounter->unit, std::string("1/s"));
    QCOMPARE(values(ownCounter), (std::vector<double>{0})); // unchanged counter → rate 0
}

void TestTelemetryStore::perBackendMaps()
{
    const MetricNameMap vllm = MetricNameMap::forBackend("vllm");
    QVERIFY(vllm.find("vllm:num_requests_running"));
    QVERIFY(!vllm.find("sglang:num_running_reqs"));
    QVERIFY(vllm.find("DCGM_FI_DEV_GPU_TEMP")); // DCGM is part of every map
    const MetricNameMap sg = MetricNameMap::forBackend("sglang");
    QVERIFY(sg.find("sglang:num_running_reqs"));
    QVERIFY(!sg.find("vllm:num_requests_running"));
    const MetricNameMap trt = MetricNameMap::forBackend("trtllm");
    QCOMPARE(trt.find("trtllm_iter:num_queued_requests")->common, std::string(kWaiting));
    QCOMPARE(trt.find("trtllm_time_to_first_token_seconds")->common, std::string(kServerTtftS));
    const MetricNameMap unknown = MetricNameMap::forBackend("somethingelse");
    QVERIFY(unknown.find("vllm:num_requests_running") && unknown.find("sglang:token_usage") &&
            unknown.find("llamacpp:requests_processing"));
    // OpenMetrics-style counter family names (without _total) resolve too.
    QCOMPARE(vllm.find("vllm:prompt_tokens")->common, std::string(kPromptTps));
}

void TestTelemetryStore::aiperfVllmNamesMap()
{
    // AIPerf's summary of a real vLLM /metrics (current names; AIPerf strips counters' _total). The common
    // series must all be found among those names.
    const std::string csv = readFile(QStringLiteral(
        THROUGHLINE_SHARED_DIR
        "/data/samples/aiperf/inferencemax_rocm_kimik25_b200_vllm_conc16_server_metrics_export.csv"));
    QVERIFY(!csv.empty());
    std::set<std::string> names;
    for (const std::string &line : splitLines(csv)) {
        if (line.empty() || line[0] == '#' || line.rfind("Endpoint,", 0) == 0)
            continue;
        const auto c1 = line.find(','), c2 = line.find(',', c1 + 1), c3 = line.find(',', c2 + 1);
        if (c3 == std::string::npos)
            continue;
        names.insert(line.substr(c2 + 1, c3 - c2 - 1));
    }
    QVERIFY(names.count("vllm:kv_cache_usage_perc"));
    const MetricNameMap map = MetricNameMap::forBackend("vllm");
    std::set<std::string> commons;
    for (const std::string &n : names)
        if (const MetricMapping *m = map.find(n))
            commons.insert(m->common);
    for (const char *want :
         {kRunning, kWaiting, kKvCacheUsage, kPromptTps, kGenerationTps, kRequestsFinishedRps,
          kPreemptionsPerS, kServerTtftS, kServerItlS, kServerE2eS, kServerQueueS})
        QVERIFY2(commons.count(want), want);
}

void TestTelemetryStore::dcgmExporter()
{
    // The fixture carries every field of dcgm-exporter's default-counters.csv for two GPUs.
    const auto fields = dcgmCsvFields();
    QVERIFY(fields.size() >= 20);
    const std::string text =
        readFile(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/telemetry/dcgm_exporter_2gpu.prom.txt"));
    const ParsedExposition p1 = PrometheusParser::parse(text);
    QCOMPARE(p1.malformedCount(), 0);
    std::set<std::string> families;
    for (const PromSample &s : p1.samples)
        families.insert(s.family);
    for (const auto &[field, type] : fields) {
        if (type == "label")
            continue;
        QVERIFY2(families.count(field), field.c_str());
        MetricType t;
        QVERIFY(metricTypeFromString(type, t));
        QCOMPARE(p1.types.at(field), t);
    }

    TelemetryStore store;
    const int src = store.addSource("http://dcgm:9400/metrics", "", MetricNameMap::forBackend(""));
    store.ingest(src, 10 * kS, p1);
    // Second scrape 2 s later: energy +1,000,000 mJ on GPU 0 (→ 500 W), GPU temp 45 on GPU 0.
    std::string later = text;
    const std::string e0 = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\"";
    const auto at = later.find(e0);
    QVERIFY(at != std::string::npos);
    const auto valueAt = later.find("} ", at) + 2;
    later.replace(valueAt, later.find('\n', valueAt) - valueAt, "123457789012");
    const auto t0 = later.find("DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"");
    const auto tv = later.find("} ", t0) + 2;
    later.replace(tv, later.find('\n', tv) - tv, "45");
    store.ingest(src, 12 * kS, PrometheusParser::parse(later));

    const TelemetrySnapshot snap = store.snapshot();
    const auto temps = snap.findAll(kGpuTempC);
    QCOMPARE(temps.size(), std::size_t(2)); // one per GPU; UUID, device, host and driver labels dropped
    for (const TelemetrySeries *s : temps) {
        QCOMPARE(s->labels.size(), std::size_t(1));
        QCOMPARE(s->labels[0].first, std::string("gpu"));
    }
    const TelemetrySeries *temp0 = nullptr;
    for (const TelemetrySeries *s : temps)
        if (*s->label("gpu") == "0")
            temp0 = s;
    QVERIFY(temp0);
    QCOMPARE(values(temp0), (std::vector<double>{41, 45}));

    const TelemetrySeries *energy0 = nullptr;
    for (const TelemetrySeries *s : snap.findAll(kGpuEnergyRateW))
        if (*s->label("gpu") == "0")
            energy0 = s;
    QVERIFY(energy0);
    QCOMPARE(values(energy0), (std::vector<double>{500.0}));
    QCOMPARE(energy0->unit, std::string("W"));

    // NVLink total: declared counter, read as MB/s gauge → GB/s, available from the first scrape.
    const auto nv = snap.findAll(kNvlinkGbps);
    QCOMPARE(nv.size(), std::size_t(2));
    for (const TelemetrySeries *s : nv)
        QCOMPARE(s->samples.front().value, *s->label("gpu") == "0" ? 120.0 : 118.0);
    QVERIFY(snap.find(kGpuPowerW) && snap.find(kGpuUtilPct) && snap.find(kGpuMemUsedMib) &&
            snap.find(kPcieTxGbps));
    QCOMPARE(snap.find(kPcieTxGbps, src)->samples.front().value,
             *snap.find(kPcieTxGbps)->label("gpu") == "0" ? 2.5 : 2.25);
    // Fields without a common name stay under their own names (with all labels).
    const TelemetrySeries *remap = snap.find("DCGM_FI_DEV_ROW_REMAP_FAILURE");
    QVERIFY(remap);
    QVERIFY(remap->label("UUID"));
}

void TestTelemetryStore::trtllmJson()
{
    const std::string body =
        readFile(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/telemetry/trtllm_iteration_stats.json"));
    auto parsed = TrtllmStatsParser::parse(body);
    QVERIFY(parsed.ok());
    QCOMPARE(parsed->malformedCount(), 0);

    TelemetryStore store;
    const int src = store.addSource("http://trt:8000/metrics", "trtllm", MetricNameMap::forBackend("trtllm"));
    store.ingest(src, 1 * kS, *TrtllmStatsParser::parse("[]"));
    store.ingest(src, 3 * kS, *parsed); // 2 s later: the two iterations of the fixture
    const TelemetrySnapshot snap = store.snapshot();
    QCOMPARE(values(snap.find(kRunning)), (std::vector<double>{8})); // last iteration
    QCOMPARE(values(snap.find(kWaiting)), (std::vector<double>{4}));
    QCOMPARE(values(snap.find(kKvCacheUsage)), (std::vector<double>{0.4}));
    QCOMPARE(values(snap.find(kIterationLatencyMs)), (std::vector<double>{18}));
    QCOMPARE(values(snap.find(kPrefixCacheHitRate)), (std::vector<double>{0.5}));
    // Context tokens 2048 over 2 s; generated ≈ 6×1 + 8×2.5 = 26 over 2 s; completed 3 over 2 s.
    // The first (empty) scrape has no earlier scrape to measure from, so it yields no rate.
    QCOMPARE(values(snap.find(kPromptTps)), (std::vector<double>{1024}));
    QCOMPARE(values(snap.find(kGenerationTps)), (std::vector<double>{13}));
    QCOMPARE(values(snap.find(kRequestsFinishedRps)), (std::vector<double>{1.5}));
    // An empty array afterwards is a real zero.
    store.ingest(src, 4 * kS, *TrtllmStatsParser::parse("[]"));
    QCOMPARE(values(store.snapshot().find(kGenerationTps)), (std::vector<double>{13, 0}));
    QCOMPARE(values(store.snapshot().find(kRunning)),
             (std::vector<double>{8})); // no gauge without iterations
}

void TestTelemetryStore::trtllmJsonErrors()
{
    QVERIFY(!TrtllmStatsParser::parse("not json").ok());
    QVERIFY(!TrtllmStatsParser::parse("42").ok());
    QVERIFY(TrtllmStatsParser::parse("not json").error().message.find("JSON") != std::string::npos);
    auto mixed = TrtllmStatsParser::parse(R"([1, {"numActiveRequests": 3}])");
    QVERIFY(mixed.ok());
    QCOMPARE(mixed->malformedCount(), 1);
    auto single = TrtllmStatsParser::parse(
        R"({"numActiveRequests": 2, "kvCacheStats": {"freeNumBlocks": 75, "maxNumBlocks": 100}})");
    QVERIFY(single.ok());
    bool sawKv = false;
    for (const PromSample &s : single->samples)
        if (s.name == "trtllm_iter:kv_cache_usage_ratio") {
            QCOMPARE(s.value, 0.25); // used = max − free when usedNumBlocks is absent
            sawKv = true;
        }
    QVERIFY(sawKv);
}

void TestTelemetryStore::histogramDerivedSeries()
{
    TelemetryStore store;
    const int src = store.addSource("u", "vllm", MetricNameMap::forBackend("vllm"));
    auto expo = [](double b01, double b1, double inf, double sum) {
        return "# TYPE vllm:time_to_first_token_seconds histogram\n"
               "vllm:time_to_first_token_seconds_bucket{le=\"0.1\",model_name=\"m\"} " +
               std::to_string(b01) +
               "\n"
               "vllm:time_to_first_token_seconds_bucket{le=\"1.0\",model_name=\"m\"} " +
               std::to_string(b1) +
               "\n"
               "vllm:time_to_first_token_seconds_bucket{le=\"+Inf\",model_name=\"m\"} " +
               std::to_string(inf) +
               "\n"
               "vllm:time_to_first_token_seconds_sum{model_name=\"m\"} " +
               std::to_string(sum) +
               "\n"
               "vllm:time_to_first_token_seconds_count{model_name=\"m\"} " +
               std::to_string(inf) +
               "\n"
               "# TYPE other_seconds histogram\nother_seconds_bucket{le=\"+Inf\"} " +
               std::to_string(inf) +
               "\n"
               "other_seconds_sum " +
               std::to_string(sum) + "\nother_seconds_count " + std::to_string(inf) + "\n";
    };
    ingestText(store, src, 1 * kS, expo(0, 0, 0, 0));
    ingestText(store, src, 2 * kS, expo(10, 10, 10, 0.5)); // 10 requests, all < 0.1 s, mean 50 ms
    ingestText(store, src, 4 * kS, expo(10, 20, 20, 5.5)); // 10 more in (0.1, 1], mean 0.5 s, over 2 s
    ingestText(store, src, 5 * kS, expo(1, 2, 2, 0.2));    // server restart: counts start over
    const TelemetrySnapshot snap = store.snapshot();
    QCOMPARE(values(snap.find("server_ttft_s_rate")), (std::vector<double>{10, 5, 2}));
    const std::vector<double> mean = values(snap.find("server_ttft_s_mean"));
    QCOMPARE(mean.size(), std::size_t(3));
    QVERIFY(std::abs(mean[0] - 0.05) < 1e-9 && std::abs(mean[1] - 0.5) < 1e-9 &&
            std::abs(mean[2] - 0.1) < 1e-9);
    const std::vector<double> p50 = values(snap.find("server_ttft_s_p50"));
    QCOMPARE(p50.size(), std::size_t(3));
    QVERIFY(std::abs(p50[0] - 0.05) < 1e-9); // rank 5 of 10 in [0, 0.1]
    QVERIFY(std::abs(p50[1] - 0.55) < 1e-9); // rank 5 of 10 in (0.1, 1]
    const TelemetryHistogram *h = snap.findHistogram(kServerTtftS);
    QVERIFY(h);
    QCOMPARE(h->snapshots.size(), std::size_t(4));
    QCOMPARE(h->upperBounds.size(), std::size_t(3));
    QVERIFY(std::isinf(h->upperBounds.back()));
    // Unmapped histograms: mean and rate under their own name, no raw snapshots kept.
    QVERIFY(snap.find("other_seconds_mean"));
    QVERIFY(!snap.findHistogram("other_seconds"));
}

void TestTelemetryStore::histogramQuantile_data()
{
    QTest::addColumn<double>("q");
    QTest::addColumn<QList<double>>("cum");
    QTest::addColumn<double>("expected");
    // bounds: 1, 2, 4, +Inf
    QTest::newRow("median in first") << 0.5 << QList<double>{10, 10, 10, 10} << 0.5;
    QTest::newRow("p90 in third") << 0.9 << QList<double>{0, 5, 10, 10} << 3.6;
    QTest::newRow("in +Inf bucket") << 0.99 << QList<double>{0, 0, 1, 10} << 4.0;
    QTest::newRow("empty") << 0.5 << QList<double>{0, 0, 0, 0} << std::numeric_limits<double>::quiet_NaN();
}

void TestTelemetryStore::histogramQuantile()
{
    QFETCH(double, q);
    QFETCH(QList<double>, cum);
    QFETCH(double, expected);
    const std::vector<double> bounds{1, 2, 4, std::numeric_limits<double>::infinity()};
    const double got = Throughline::histogramQuantile(q, bounds, std::vector<double>(cum.begin(), cum.end()));
    if (std::isnan(expected))
        QVERIFY(std::isnan(got));
    else
        QVERIFY2(std::abs(got - expected) < 1e-9, qPrintable(QString::number(got)));
}

void TestTelemetryStore::boundedMemory()
{
    TelemetryStoreOptions opt;
    opt.maxSamplesPerSeries = 5;
    opt.maxSeries = 3;
    TelemetryStore store(opt);
    const int src = store.addSource("u", "vllm", MetricNameMap::forBackend("vllm"));
    for (int i = 0; i < 12; ++i) {
        std::string text = "vllm:num_requests_running " + std::to_string(i) + "\n";
        for (int k = 0; k < 10; ++k)
            text += "own_metric_" + std::to_string(k) + " 1\n";
        ingestText(store, src, i * kS, text);
    }
    const TelemetrySnapshot snap = store.snapshot();
    const TelemetrySeries *running = snap.find(kRunning);
    QVERIFY(running);
    QCOMPARE(values(running), (std::vector<double>{7, 8, 9, 10, 11})); // oldest overwritten
    QCOMPARE(running->droppedSamples, std::uint64_t(7));
    int own = 0;
    for (const TelemetrySeries &s : snap.series)
        if (!s.common)
            ++own;
    QCOMPARE(own, 3);
    QVERIFY(snap.droppedSeries > 0);
    // Incremental snapshot: only samples after the given time.
    const TelemetrySnapshot tail = store.snapshot(10 * kS);
    QCOMPARE(values(tail.find(kRunning)), (std::vector<double>{11}));
}

void TestTelemetryStore::scrapeStatus()
{
    TelemetryStore store;
    const int a = store.addSource("http://a/metrics", "vllm", MetricNameMap::forBackend("vllm"));
    const int b = store.addSource("http://b/metrics", "vllm", MetricNameMap::forBackend("vllm"));
    store.recordScrape(a, kS, true, 2.0, {});
    store.recordScrape(b, kS, false, 0.0, "HTTP 500");
    store.ingest(a, kS, PrometheusParser::parse("ok 1\nbroken{ 2\n"));
    const TelemetrySnapshot snap = store.snapshot();
    QCOMPARE(snap.sources.size(), std::size_t(2));
    QCOMPARE(snap.sources[0].scrapesOk, 1);
    QCOMPARE(snap.sources[0].malformedLines, 1);
    QCOMPARE(snap.sources[0].lastMalformedLine, 2);
    QCOMPARE(snap.sources[1].scrapesFailed, 1);
    QCOMPARE(snap.sources[1].lastError, std::string("HTTP 500"));
    QCOMPARE(values(snap.find(kScrapeUp, b)), (std::vector<double>{0}));
    QCOMPARE(values(snap.find(kScrapeUp, a)), (std::vector<double>{1}));
}

QTEST_GUILESS_MAIN(TestTelemetryStore)
#include "tst_telemetrystore.moc"
