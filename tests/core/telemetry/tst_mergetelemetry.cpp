// Server telemetry through `merge` of shard bundles (issue 9): each shard's stored series come along,
// labelled with their shard and moved onto the merged t=0, and the per-point summary is recomputed over the
// merged window — a server series both shards scraped counts once (queue not doubled), peaks take the
// larger shard's view, scrapes add up. Synthetic shard bundles, as tests/core/storage/tst_runbundle.cpp.
#include "core/storage/bundlemerger.h"
#include "core/storage/historyreader.h"
#include "core/storage/runbundle.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"
#include "core/storage/telemetryreader.h"
#include "core/telemetry/commonseries.h"
#include "core/storage/storagetestutil.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace Throughline;

class TestMergeTelemetry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void mergeKeepsSeriesAndRecomputesSummary();
};

namespace {

// One shard's scrape of the shared server: waiting constant `waiting`, KV rising to kvPeak, one GPU power
// series of its own node, a sample every 50 ms over [0, 3 s] of the shard's run clock.
TelemetrySnapshot shardTelemetry(double waiting, double kvPeak, const std::string &gpuUuid, int failures)
{
    TelemetrySnapshot s;
    TelemetrySourceStatus src;
    src.url = "http://127.0.0.1:8000/metrics";
    src.backendId = "vllm";
    src.scrapesOk = 61 - failures;
    src.scrapesFailed = failures;
    s.sources.push_back(src);
    auto series = [&](const char *name, const char *unit, LabelSet labels) {
        TelemetrySeries t;
        t.name = name;
        t.unit = unit;
        t.common = true;
        t.labels = std::move(labels);
        s.series.push_back(t);
        return s.series.size() - 1;
    };
    const auto w = series(CommonSeries::kWaiting, "requests", {});
    const auto kv = series(CommonSeries::kKvCacheUsage, "ratio", {});
    const auto up = series(CommonSeries::kScrapeUp, "", {});
    const auto pw = series(CommonSeries::kGpuPowerW, "W", {{"UUID", gpuUuid}});
    for (int i = 0; i <= 60; ++i) {
        const std::int64_t t = i * 50'000'000LL;
        s.series[w].samples.push_back({t, waiting});
        s.series[kv].samples.push_back({t, kvPeak * i / 60.0});
        s.series[up].samples.push_back({t, i < failures ? 0.0 : 1.0});
        s.series[pw].samples.push_back({t, 300.0});
    }
    return s;
}

} // namespace

void TestMergeTelemetry::mergeKeepsSeriesAndRecomputesSummary()
{
    QTemporaryDir dir;
    const std::int64_t t0 = 1'780'000'000'000'000'000LL;
    std::vector<std::string> bundles;
    std::map<int, TelemetrySnapshot> written;
    for (int shard = 0; shard < 2; ++shard) {
        const std::string db = dir.filePath(QStringLiteral("s%1.sqlite").arg(shard)).toStdString();
        RunStart run = StorageTest::makeRun(StorageTest::uuidFor(300 + static_cast<unsigned>(shard)), 1, 1);
        run.shard = std::to_string(shard) + "/2";
        run.t0UnixNs = t0 + shard * 20'000'000LL; // shard 1 started 20 ms later
        StorageWriter w;
        QVERIFY(w.open(db));
        w.beginRun(run);
        std::mt19937 rng(static_cast<unsigned>(shard));
        w.beginPoint(run.uuid, 0, 0, nullptr, t0 + 1'000'000'000LL + shard * 5'000'000LL);
        w.addRequests(run.uuid, StorageTest::makeBatch(static_cast<std::uint64_t>(shard) * 300, 300, 0, 0, 32,
                                                       true, rng));
        w.finishPoint(
            run.uuid,
            FinishedPoint{0, 0, {{"metrics", {{"output_tps_per_gpu", 1.0}}}}, "", kNoTime, kNoTime});
        // Both shards scrape the same server (waiting 4 on both; KV seen up to 0.5 and 0.7), and their own
        // node's DCGM exporter (a GPU each).
        written[shard] = shardTelemetry(4.0, shard == 0 ? 0.5 : 0.7, "GPU-" + std::to_string(shard), shard);
        w.addTelemetry(run.uuid, 0, written[shard]);
        w.finishRun(run.uuid, RunStatus::Completed);
        QVERIFY(w.close());
        const std::string bundle = dir.filePath(QStringLiteral("s%1.tlrun").arg(shard)).toStdString();
        QVERIFY(RunBundle::exportRun(db, run.uuid, bundle));
        bundles.push_back(bundle);
    }
    const std::string out = dir.filePath(QStringLiteral("merged.tlrun")).toStdString();
    auto report = BundleMerger::merge(bundles, out);
    QVERIFY2(report, report ? "" : report.error().message.c_str());
    QCOMPARE(report->points, 1);

    // Every shard's series, labelled, shifted onto the merged t=0 (shard 1: +20 ms).
    TelemetryReader tr;
    QVERIFY(tr.open(out));
    auto series = tr.series(report->uuid);
    QVERIFY2(series, series ? "" : series.error().message.c_str());
    QCOMPARE(series->size(), written[0].series.size() + written[1].series.size());
    std::map<std::string, int> perShard;
    for (const StoredTelemetrySeries &s : *series) {
        QVERIFY2(s.labels.contains("shard"), s.labels.dump().c_str());
        const std::string tag = s.labels["shard"].get<std::string>();
        ++perShard[tag];
        QCOMPARE(s.scenarioIndex, 0);
        QCOMPARE(s.samples.size(), std::size_t(61));
        QCOMPARE(s.samples.front().tNs, tag == "1/2" ? 20'000'000LL : 0LL);
        QCOMPARE(s.samples.back().tNs, 3'000'000'000LL + (tag == "1/2" ? 20'000'000LL : 0LL));
    }
    QCOMPARE(perShard["0/2"], 4);
    QCOMPARE(perShard["1/2"], 4);
    auto sources = tr.sources(report->uuid);
    QVERIFY(sources);
    QCOMPARE(sources->size(), std::size_t(2));
    QCOMPARE((*sources)[0].scrapesFailed + (*sources)[1].scrapesFailed, 1);

    // Summary over the merged window, recomputed.
    HistoryReader r;
    QVERIFY(r.open(out));
    auto d = r.runDetail(report->uuid);
    QVERIFY(d);
    QCOMPARE(d->points.size(), std::size_t(1));
    const auto &agg = d->points[0].aggregates;
    QVERIFY2(agg.contains("telemetry"), agg.dump().c_str());
    const auto &t = agg["telemetry"];
    const double w0 = agg["window"]["start_s"].get<double>(), w1 = agg["window"]["end_s"].get<double>();
    qInfo("merged window [%.3f, %.3f] s: %s", w0, w1, t.dump().c_str());
    QCOMPARE(t["waiting_mean"].get<double>(), 4.0); // the shared queue once, not 8
    // KV peak: shard 1's view at the window's end (its ramp, shifted by 20 ms), the larger one.
    const double kvAtW1 = 0.7 * std::min(1.0, (w1 - 0.020) / 3.0);
    QVERIFY2(std::abs(t["kv_cache_usage_peak"].get<double>() - kvAtW1) <= 0.7 * 0.05 / 3.0 + 1e-9,
             qPrintable(QString::number(kvAtW1)));
    // Two GPUs (one per node) at 300 W each.
    QVERIFY(std::abs(t["gpu_power_w_mean"].get<double>() - 600.0) < 1e-6);
    const double energy = t["energy_j"].get<double>();
    QVERIFY(std::abs(energy - 600.0 * (w1 - w0)) / energy < 1e-3);
    QVERIFY(t.contains("energy_per_output_token_j") && t.contains("stalled_requests"));
    // Scrapes of both shards inside the window (shard 1's single failure, at 20 ms merged, among them).
    int inWindow = 0;
    for (int shard = 0; shard < 2; ++shard)
        for (int i = 0; i <= 60; ++i) {
            const double ts = i * 0.05 + shard * 0.020;
            inWindow += ts >= w0 - 1e-9 && ts <= w1 + 1e-9;
        }
    QCOMPARE(t["scrapes"].get<int>(), inWindow);
    QCOMPARE(t["scrape_failures"].get<int>(), 1);

    // point_telemetry row of the merged point.
    SqliteDb conn;
    QVERIFY(conn.open(out, SqliteDb::Mode::ReadOnly).ok());
    QCOMPARE(*conn.queryInt("SELECT count(*) FROM point_telemetry WHERE waiting_mean = 4.0"),
             std::int64_t(1));
}

QTEST_GUILESS_MAIN(TestMergeTelemetry)
#include "tst_mergetelemetry.moc"
