// TelemetryReader against real SQLite files: telemetry written by StorageWriter::addTelemetry comes back
// sample for sample (per scenario, metric filter, time window), an empty run and v1 databases (with and
// without the telemetry_series table) read as "no telemetry" without an error, a corrupt blob is refused.
#include "core/storage/schema.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"
#include "core/storage/telemetryreader.h"
#include "storagetestutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Throughline;

namespace {

// n samples every 500 ms starting at t0Ns; value = f(k).
TelemetrySeries makeSeries(const std::string &name, const std::string &unit, int source, int n,
                           std::int64_t t0Ns, double scale, LabelSet labels = {})
{
    TelemetrySeries s;
    s.name = name;
    s.unit = unit;
    s.source = source;
    s.common = true;
    s.labels = std::move(labels);
    for (int k = 0; k < n; ++k)
        s.samples.push_back({t0Ns + std::int64_t(k) * 500'000'000, scale * k + 0.25});
    return s;
}

TelemetrySnapshot makeSnapshot(int scenario, int n)
{
    TelemetrySnapshot snap;
    snap.sources.push_back({"http://127.0.0.1:9001/metrics", "vllm", n, 1, 2, "timeout", 7, 0});
    snap.sources.push_back({"http://127.0.0.1:9400/metrics", "dcgm", n, 0, 0, "", 0, 0});
    const std::int64_t t0 = std::int64_t(scenario) * 100'000'000'000LL;
    snap.series.push_back(makeSeries("kv_cache_usage", "ratio", 0, n, t0, 0.01));
    snap.series.push_back(makeSeries("running", "requests", 0, n, t0, 1));
    snap.series.push_back(makeSeries("gpu_power_w", "W", 1, n, t0, 3, {{"gpu", "0"}}));
    snap.series.push_back(makeSeries("gpu_power_w", "W", 1, n, t0, 4, {{"gpu", "1"}}));
    return snap;
}

} // namespace

class TestTelemetryReader : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void roundTrip();
    void filters();
    void emptyRun();
    void v1Database();
    void errors();

private:
    QTemporaryDir m_dir;
    std::string m_db;
    std::string m_run, m_empty;
};

void TestTelemetryReader::initTestCase()
{
    m_db = m_dir.filePath(QStringLiteral("t.sqlite")).toStdString();
    StorageWriter w;
    QVERIFY(w.open(m_db));
    m_run = StorageTest::uuidFor(0x7e100001u);
    m_empty = StorageTest::uuidFor(0x7e100002u);
    std::mt19937 rng(3);
    RunStart run = StorageTest::makeRun(m_run, 2, 1);
    w.beginRun(run);
    for (int s = 0; s < 2; ++s) {
        w.beginPoint(m_run, s, 0, {{"load", {{"concurrency", 4}}}});
        w.addRequests(m_run, StorageTest::makeBatch(0, 50, s, 0, 16, false, rng));
        w.finishPoint(m_run, FinishedPoint{s, 0, {{"metrics", {{"output_tps_per_gpu", 1.0}}}}, "", 0, 1});
        w.addTelemetry(m_run, s, makeSnapshot(s, 40 + 10 * s));
        w.setPointTelemetry(m_run, s, 0, {{"telemetry", {{"kv_cache_usage_peak", 0.5 + s}}}});
    }
    w.finishRun(m_run, RunStatus::Completed);
    w.beginRun(StorageTest::makeRun(m_empty, 1, 1));
    w.finishRun(m_empty, RunStatus::Completed);
    QVERIFY(w.close());
}

void TestTelemetryReader::roundTrip()
{
    TelemetryReader r;
    QVERIFY(r.open(m_db));
    QVERIFY(r.hasTelemetry());
    auto all = r.series(m_run);
    QVERIFY2(all, all ? "" : all.error().message.c_str());
    QCOMPARE(all->size(), std::size_t(8)); // 4 series × 2 scenarios
    for (int s = 0; s < 2; ++s) {
        const TelemetrySnapshot expected = makeSnapshot(s, 40 + 10 * s);
        int matched = 0;
        for (const StoredTelemetrySeries &got : *all) {
            if (got.scenarioIndex != s)
                continue;
            for (const TelemetrySeries &e : expected.series) {
                nlohmann::json labels = nlohmann::json::object();
                for (const auto &[k, v] : e.labels)
                    labels[k] = v;
                if (e.name != got.metric || labels != got.labels)
                    continue;
                ++matched;
                QCOMPARE(got.unit, e.unit);
                QCOMPARE(got.pointId, std::int64_t(-1));
                QCOMPARE(got.source, expected.sources[std::size_t(e.source)].url);
                QCOMPARE(got.samples.size(), e.samples.size());
                for (std::size_t k = 0; k < e.samples.size(); ++k) {
                    QCOMPARE(got.samples[k].tNs, e.samples[k].tNs);
                    QCOMPARE(got.samples[k].value, e.samples[k].value); // bit-exact float64 round trip
                }
            }
        }
        QCOMPARE(matched, 4);
    }
    auto sources = r.sources(m_run);
    QVERIFY(sources);
    QCOMPARE(sources->size(), std::size_t(4));
    QCOMPARE(sources->front().url, std::string("http://127.0.0.1:9001/metrics"));
    QCOMPARE(sources->front().scrapesFailed, 1);
    QCOMPARE(sources->front().lastError, std::string("timeout"));
    QCOMPARE(sources->back().scenarioIndex, 1);
    auto metrics = r.metrics(m_run, 1);
    QVERIFY(metrics);
    QCOMPARE(*metrics, (std::vector<std::string>{"gpu_power_w", "kv_cache_usage", "running"}));
}

void TestTelemetryReader::filters()
{
    TelemetryReader r;
    QVERIFY(r.open(m_db));
    TelemetryQuery q;
    q.scenarioIndex = 1;
    q.metrics = {"gpu_power_w"};
    auto power = r.series(m_run, q);
    QVERIFY(power);
    QCOMPARE(power->size(), std::size_t(2));
    for (const auto &s : *power) {
        QCOMPARE(s.scenarioIndex, 1);
        QCOMPARE(s.metric, std::string("gpu_power_w"));
        QCOMPARE(s.samples.size(), std::size_t(50));
    }
    QCOMPARE((*power)[0].labels["gpu"].get<std::string>(), std::string("0"));
    QCOMPARE((*power)[1].labels["gpu"].get<std::string>(), std::string("1"));
    // Time window [t0 + 1 s, t0 + 3 s): samples at 1.0, 1.5, 2.0, 2.5 s.
    const std::int64_t t0 = 100'000'000'000LL;
    q.fromNs = t0 + 1'000'000'000;
    q.toNs = t0 + 3'000'000'000;
    auto windowed = r.series(m_run, q);
    QVERIFY(windowed);
    QCOMPARE((*windowed)[0].samples.size(), std::size_t(4));
    QCOMPARE((*windowed)[0].samples.front().tNs, q.fromNs);
    q.metrics = {"no_such_metric"};
    QVERIFY(r.series(m_run, q)->empty());
    auto summary = r.pointSummary(1);
    QVERIFY(summary);
    QVERIFY(summary->is_object());
    QVERIFY(r.pointSummary(999999)->is_null());
}

void TestTelemetryReader::emptyRun()
{
    TelemetryReader r;
    QVERIFY(r.open(m_db));
    auto s = r.series(m_empty);
    QVERIFY2(s, s ? "" : s.error().message.c_str());
    QVERIFY(s->empty());
    QVERIFY(r.sources(m_empty)->empty());
    QVERIFY(r.metrics(m_empty)->empty());
    auto unknown = r.series(StorageTest::uuidFor(0xdeadu));
    QVERIFY(!unknown);
    QCOMPARE(unknown.error().code, ErrorCode::NotFound);
}

void TestTelemetryReader::v1Database()
{
    // The v1 file shipped with the schema tests (telemetry_series without scenario_id, nothing else).
    const QString v1 = m_dir.filePath(QStringLiteral("v1.sqlite"));
    QVERIFY(QFile::copy(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/storage/history_v1.sqlite"), v1));
    QFile::setPermissions(v1, QFile::ReadOwner | QFile::WriteOwner);
    std::string uuid;
    {
        SqliteDb db;
        QVERIFY(db.open(v1.toStdString()));
        QCOMPARE(*Schema::version(db), 1);
        auto u = db.queryText("SELECT uuid FROM runs LIMIT 1");
        QVERIFY(u && !u->empty());
        uuid = *u;
    }
    for (bool dropTable : {false, true}) {
        if (dropTable) {
            SqliteDb db;
            QVERIFY(db.open(v1.toStdString()));
            QVERIFY(db.exec("DROP TABLE telemetry_series"));
        }
        TelemetryReader r;
        const Status opened = r.open(v1.toStdString());
        QVERIFY2(opened, opened ? "" : opened.error().message.c_str());
        QVERIFY(!r.hasTelemetry());
        auto s = r.series(uuid);
        QVERIFY2(s, s ? "" : s.error().message.c_str());
        QVERIFY(s->empty());
        TelemetryQuery q;
        q.scenarioIndex = 0;
        QVERIFY(r.series(uuid, q)->empty());
        QVERIFY(r.sources(uuid)->empty());
        QVERIFY(r.metrics(uuid, 0)->empty());
        QVERIFY(r.pointSummary(1)->is_null());
    }
}

void TestTelemetryReader::errors()
{
    TelemetryReader missing;
    auto s = missing.open(m_dir.filePath(QStringLiteral("absent.sqlite")).toStdString());
    QVERIFY(!s);
    QCOMPARE(s.error().code, ErrorCode::NotFound);
    // A truncated sample blob is reported with the series id and the file.
    const QString copy = m_dir.filePath(QStringLiteral("corrupt.sqlite"));
    QVERIFY(QFile::copy(QString::fromStdString(m_db), copy));
    {
        SqliteDb db;
        QVERIFY(db.open(copy.toStdString()));
        QVERIFY(db.exec("UPDATE telemetry_series SET samples = substr(samples, 1, 20) WHERE metric = "
                        "'running'"));
    }
    TelemetryReader r;
    QVERIFY(r.open(copy.toStdString()));
    auto bad = r.series(m_run);
    QVERIFY(!bad);
    QCOMPARE(bad.error().code, ErrorCode::Storage);
    QVERIFY2(bad.error().message.find("running") != std::string::npos, bad.error().message.c_str());
    QVERIFY2(bad.error().message.find("corrupt.sqlite") != std::string::npos, bad.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestTelemetryReader)
#include "tst_telemetryreader.moc"
