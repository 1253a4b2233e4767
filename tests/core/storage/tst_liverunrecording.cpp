// LiveRunRecording: the run row before the run, each point committed (and visible to a read-only reader)
// while the run is still 'running', verdicts/provenance/status at the end; resume() reopens a cancelled run,
// drops a half-written point and refuses a completed one. Real SQLite files in a temporary directory.
#include "core/storage/historyreader.h"
#include "core/run/liverunrecording.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"

#include "storagetestutil.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Throughline;

namespace {

std::int64_t count(const std::string &path, const std::string &sql)
{
    SqliteDb db;
    if (!db.open(path, SqliteDb::Mode::ReadOnly))
        return -1;
    auto v = db.queryInt(sql, -1);
    return v ? *v : -1;
}

std::string text(const std::string &path, const std::string &sql)
{
    SqliteDb db;
    if (!db.open(path, SqliteDb::Mode::ReadOnly))
        return {};
    auto st = db.prepare(sql);
    return st && st->step() == 100 ? st->colText(0) : std::string();
}

// Waits (the writer commits on its own thread) until `sql` counts `want`.
bool waitCount(const std::string &path, const std::string &sql, std::int64_t want)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 10000) {
        if (count(path, sql) == want)
            return true;
        QTest::qWait(10);
    }
    return false;
}

PointOutcome makePoint(int scenario, int point, std::uint64_t firstSeq, std::size_t n, std::mt19937 &rng)
{
    PointOutcome po;
    po.pointIndex = point;
    po.result.load.mode = PointLoad::Mode::Concurrency;
    po.result.load.concurrency = 4 << point;
    po.result.nSent = static_cast<int>(n);
    po.result.nOk = static_cast<int>(n);
    po.result.validity.valid = true;
    po.result.w0S = 0.5;
    po.result.w1S = 2.5;
    po.records = StorageTest::makeBatch(firstSeq, n, scenario, point, 16, true, rng);
    return po;
}

// Records with stream events (the synthetic batches include failed requests without any).
std::int64_t withEvents(const PointOutcome &po)
{
    return std::count_if(po.records.begin(), po.records.end(),
                         [](const RequestRecord &r) { return !r.events.empty(); });
}

RunStart liveStart(const std::string &uuid)
{
    RunStart run = StorageTest::makeRun(uuid, 1, 3);
    for (ScenarioInfo &s : run.scenarios)
        s.plannedPoints.clear(); // live recording creates point rows as points finish
    run.provenance = {{"cli", {{"campaign_path", "/tmp/c.json"}}}};
    return run;
}

} // namespace

class TestLiveRunRecording : public QObject
{
    Q_OBJECT
private slots:
    void pointsCommittedWhileRunning();
    void resumeDropsPartialPointAndRefusesCompleted();
    void telemetryStoredWithEachPoint();
    void breakdownsCommittedWithTheirPoint();
};

void TestLiveRunRecording::pointsCommittedWhileRunning()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const std::string uuid = StorageTest::uuidFor(41);
    std::mt19937 rng(3);
    LiveRunRecording rec;
    QVERIFY(rec.start(path, liveStart(uuid)));
    // The run row is committed before any load.
    QCOMPARE(text(path, "SELECT status FROM runs"), std::string("running"));
    QCOMPARE(count(path, "SELECT count(*) FROM points"), std::int64_t(0));

    ScenarioOutcome so;
    so.scenarioIndex = 0;
    so.points.push_back(makePoint(0, 0, 0, 40, rng));
    rec.pointFinished(so, so.points.back());
    QVERIFY(waitCount(path, "SELECT count(*) FROM points WHERE status = 'completed'", 1));
    QCOMPARE(count(path, "SELECT count(*) FROM requests"), std::int64_t(40)); // whole point in one commit
    QCOMPARE(count(path, "SELECT count(*) FROM request_events"), withEvents(so.points.back()));
    QCOMPARE(text(path, "SELECT status FROM runs"), std::string("running"));
    QCOMPARE(count(path, "SELECT window_end_ns FROM points"), std::int64_t(2'500'000'000));

    // A stored point (resume) is not written again.
    PointOutcome stored = makePoint(0, 1, 40, 5, rng);
    stored.stored = true;
    rec.pointFinished(so, stored);
    so.points.push_back(makePoint(0, 1, 40, 30, rng));
    rec.pointFinished(so, so.points.back());
    QVERIFY(waitCount(path, "SELECT count(*) FROM points WHERE status = 'completed'", 2));
    QCOMPARE(count(path, "SELECT count(*) FROM requests"), std::int64_t(70));

    RunOutcome run;
    run.runId = uuid;
    run.startedUtc = "2026-11-29T20:00:00.000Z";
    run.provenance = {{"tool_version", "x"}, {"cli", {{"campaign_path", "/tmp/c.json"}}}};
    run.simulated = true;
    run.timeScale = 4;
    run.scenarios.push_back(so);
    RunResults res;
    ScenarioResult sr;
    sr.verdict.status = Verdict::Status::Pass;
    res.scenarios.push_back(sr);
    QVERIFY(rec.finish(run, res, {{"extra", 1}}, false));
    QCOMPARE(text(path, "SELECT status FROM runs"), std::string("completed"));
    QCOMPARE(text(path, "SELECT verdict FROM scenarios"), std::string("pass"));
    QCOMPARE(text(path, "SELECT started_utc FROM runs"), std::string("2026-11-29T20:00:00.000Z"));
    QCOMPARE(text(path, "SELECT time_scale FROM runs"), std::string("4.0"));
    const auto prov = nlohmann::json::parse(text(path, "SELECT provenance FROM runs"));
    QCOMPARE(prov.value("tool_version", std::string()), std::string("x"));
    QCOMPARE(prov.value("extra", 0), 1);
    QVERIFY(prov.contains("cli"));
    HistoryReader reader;
    QVERIFY(reader.open(path));
    auto d = reader.runDetail(uuid);
    QVERIFY(d);
    QCOMPARE(d->points.size(), 2u);
    QCOMPARE(d->points[1].aggregates["load"]["concurrency"].get<int>(), 8);
}

void TestLiveRunRecording::resumeDropsPartialPointAndRefusesCompleted()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const std::string uuid = StorageTest::uuidFor(42);
    std::mt19937 rng(4);
    ScenarioOutcome so;
    so.scenarioIndex = 0;
    {
        LiveRunRecording rec;
        QVERIFY(rec.start(path, liveStart(uuid)));
        so.points.push_back(makePoint(0, 0, 0, 20, rng));
        rec.pointFinished(so, so.points.back());
        QVERIFY(waitCount(path, "SELECT count(*) FROM points WHERE status = 'completed'", 1));
    }
    {
        // Still 'running' under this (live) process: resume must refuse it.
        LiveRunRecording again;
        const Status st = again.resume(path, uuid, {}, 0);
        QVERIFY(!st);
        QVERIFY(st.error().message.find("crashed or cancelled") != std::string::npos);
    }
    {
        // A half-written point (an older writer's leftovers), then the run cancelled.
        StorageWriter w;
        QVERIFY(w.open(path));
        w.beginPoint(uuid, 0, 1, nullptr);
        w.addRequests(uuid, StorageTest::makeBatch(20, 7, 0, 1, 16, true, rng));
        w.finishRun(uuid, RunStatus::Cancelled);
        QVERIFY(w.close());
    }
    QCOMPARE(count(path, "SELECT count(*) FROM requests"), std::int64_t(27));
    const std::string firstIds = text(path, "SELECT group_concat(id) FROM requests WHERE seq < 20");
    LiveRunRecording rec;
    QVERIFY(rec.resume(path, uuid, {{0, 1}}, 0));
    QCOMPARE(text(path, "SELECT status FROM runs"), std::string("running"));
    QCOMPARE(count(path, "SELECT count(*) FROM requests"), std::int64_t(20)); // partial rows gone
    QCOMPARE(count(path, "SELECT count(*) FROM request_events"), withEvents(so.points.front()));
    QCOMPARE(text(path, "SELECT group_concat(id) FROM requests WHERE seq < 20"), firstIds);
    so.points.push_back(makePoint(0, 1, 100, 9, rng));
    rec.pointFinished(so, so.points.back());
    RunOutcome run;
    run.runId = uuid;
    run.startedUtc = "2030-01-01T00:00:00.000Z";
    run.scenarios.push_back(so);
    RunResults res;
    res.scenarios.emplace_back();
    const std::string started = text(path, "SELECT started_utc FROM runs");
    QVERIFY(rec.finish(run, res, {{"resumes", nlohmann::json::array({1})}}, true));
    QCOMPARE(text(path, "SELECT status FROM runs"), std::string("completed"));
    QCOMPARE(text(path, "SELECT started_utc FROM runs"), started); // the original t=0 stays
    QCOMPARE(count(path, "SELECT count(*) FROM points WHERE status = 'completed'"), std::int64_t(2));
    QCOMPARE(count(path, "SELECT count(*) FROM requests"), std::int64_t(29));
    QVERIFY(nlohmann::json::parse(text(path, "SELECT provenance FROM runs")).contains("cli"));

    LiveRunRecording done;
    const Status st = done.resume(path, uuid, {}, 0);
    QVERIFY(!st);
    QCOMPARE(text(path, "SELECT status FROM runs"), std::string("completed"));
}

// Each committed point carries its scenario's telemetry so far (a SIGKILL after it keeps that much), one row
// per series and source however many points follow; times in model time (× the simulator's time scale);
// finish() overwrites the same rows with the scenario's final snapshot.
// A point's per-request server-timing breakdowns are in the point's transaction: visible together with its
// rows, value for value; a point without server timing stores none.
void TestLiveRunRecording::breakdownsCommittedWithTheirPoint()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const std::string uuid = StorageTest::uuidFor(43);
    std::mt19937 rng(5);
    LiveRunRecording rec;
    QVERIFY(rec.start(path, liveStart(uuid)));
    ScenarioOutcome so;
    so.scenarioIndex = 0;
    PointOutcome po = makePoint(0, 0, 100, 25, rng);
    for (const RequestRecord &r : po.records) {
        RequestBreakdown b;
        b.seq = r.seq;
        b[BreakdownPart::Prefill] = {double(r.seq) / 8, PartStatus::Measured, false};
        b[BreakdownPart::NetworkUp] = {0.25, PartStatus::Measured, true};
        b[BreakdownPart::Unattributed] = {1.5, PartStatus::Derived, false};
        b.alignBoundMs = 0.125;
        po.breakdowns.push_back(b);
    }
    so.points.push_back(po);
    rec.pointFinished(so, so.points.back());
    QVERIFY(waitCount(path, "SELECT count(*) FROM points WHERE status = 'completed'", 1));
    QCOMPARE(count(path, "SELECT count(*) FROM request_breakdowns"), std::int64_t(25));
    so.points.push_back(makePoint(0, 1, 200, 10, rng)); // no server timing
    rec.pointFinished(so, so.points.back());
    QVERIFY(waitCount(path, "SELECT count(*) FROM points WHERE status = 'completed'", 2));
    QCOMPARE(count(path, "SELECT count(*) FROM request_breakdowns"), std::int64_t(25));
    HistoryReader reader;
    QVERIFY(reader.open(path));
    auto d = reader.runDetail(uuid);
    QVERIFY(d);
    auto stored = reader.requestBreakdowns(d->points[0].id);
    QVERIFY(stored);
    QCOMPARE(stored->size(), po.breakdowns.size());
    for (std::size_t i = 0; i < stored->size(); ++i) {
        const RequestBreakdown &a = po.breakdowns[i], &b = (*stored)[i];
        QCOMPARE(b.seq, a.seq);
        QCOMPARE(b[BreakdownPart::Prefill].ms, a[BreakdownPart::Prefill].ms);
        QVERIFY(b[BreakdownPart::NetworkUp].aligned);
        QCOMPARE(b[BreakdownPart::Unattributed].status, PartStatus::Derived);
        QCOMPARE(b.alignBoundMs, 0.125);
    }
    QVERIFY(reader.requestBreakdowns(d->points[1].id)->empty());
}

void TestLiveRunRecording::telemetryStoredWithEachPoint()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const std::string uuid = StorageTest::uuidFor(43);
    std::mt19937 rng(5);
    // A scraper's view: two series of one source, `rounds` samples each (wall clock, 100 ms apart).
    int rounds = 0;
    auto snapshotOf = [](int n) {
        TelemetrySnapshot s;
        s.sources.push_back({"http://127.0.0.1:1/metrics", "vllm", n, 1, 0, "", 0, -1});
        for (const char *name : {"kv_cache_usage", "requests_running"}) {
            TelemetrySeries t;
            t.name = name;
            t.unit = "ratio";
            t.labels = {{"engine", "0"}};
            for (int i = 0; i < n; ++i)
                t.samples.push_back({i * 100'000'000LL, 0.1 * i});
            s.series.push_back(std::move(t));
        }
        return s;
    };
    LiveRunRecording rec;
    QVERIFY(rec.start(path, liveStart(uuid)));
    rec.setLiveTelemetry([&] { return snapshotOf(rounds); });
    ScenarioOutcome so;
    so.scenarioIndex = 0;
    so.simulated = true;
    so.timeScale = 2;
    const std::string series = "SELECT count(*) FROM telemetry_series WHERE metric = 'kv_cache_usage'";
    const std::string bytes = "SELECT length(samples) FROM telemetry_series WHERE metric = 'kv_cache_usage'";
    for (int point = 0; point < 3; ++point) {
        rounds = 5 * (point + 1);
        so.points.push_back(makePoint(0, point, 100 * point, 10, rng));
        rec.pointFinished(so, so.points.back());
        QVERIFY(waitCount(path, "SELECT count(*) FROM points WHERE status = 'completed'", point + 1));
        // Committed with the point: exactly the samples scraped so far, one row per series, one source row.
        QCOMPARE(count(path, bytes), std::int64_t(16 * rounds));
        QCOMPARE(count(path, series), std::int64_t(1));
        QCOMPARE(count(path, "SELECT count(*) FROM telemetry_series"), std::int64_t(2));
        QCOMPARE(count(path, "SELECT count(*) FROM telemetry_sources"), std::int64_t(1));
        QCOMPARE(count(path, "SELECT scrapes_ok FROM telemetry_sources"), std::int64_t(rounds));
    }
    // Last sample: wall 1.4 s × time scale 2 = 2.8 s of model time.
    QCOMPARE(count(path, "SELECT substr(hex(samples), -32, 16) = '009CE4A600000000' FROM "
                         "telemetry_series WHERE metric = 'kv_cache_usage'"),
             std::int64_t(1));

    RunOutcome run;
    run.runId = uuid;
    run.startedUtc = "2026-11-29T20:00:00.000Z";
    so.telemetry = snapshotOf(20); // the engine's final snapshot (already model time)
    run.scenarios.push_back(so);
    RunResults res;
    res.scenarios.emplace_back();
    QVERIFY(rec.finish(run, res, {}, false));
    QCOMPARE(count(path, "SELECT count(*) FROM telemetry_series"), std::int64_t(2));
    QCOMPARE(count(path, "SELECT count(*) FROM telemetry_sources"), std::int64_t(1));
    QCOMPARE(count(path, bytes), std::int64_t(16 * 20));
    QCOMPARE(count(path, "SELECT scrapes_ok FROM telemetry_sources"), std::int64_t(20));
}

QTEST_GUILESS_MAIN(TestLiveRunRecording)
#include "tst_liverunrecording.moc"
