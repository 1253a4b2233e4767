#include "core/storage/historyreader.h"
#include "core/storage/resultimporter.h"
#include "core/storage/schema.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"
#include "storagetestutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Throughline;

class TestSchema : public QObject
{
    Q_OBJECT
private slots:
    void freshDatabase();
    void migrateSyntheticV0();
    void openCommittedV1Fixture();
    void migrateV1FixtureToV5();
    void migrateV3BackfillsChunks();
    void migrateV4FixtureToV5();
    void importV4Bundle();
    void migrateV5FixtureToV6();
    void importV5Bundle();
    void refuseNewerSchema();
};

namespace {

// Row counts and content checksums of the v1 tables (telemetry_series was empty in v1).
QStringList v1Fingerprint(SqliteDb &db)
{
    QStringList out;
    for (const char *sql :
         {"SELECT count(*) FROM runs", "SELECT count(*) FROM scenarios", "SELECT count(*) FROM points",
          "SELECT count(*) FROM requests", "SELECT count(*) FROM request_events",
          "SELECT count(*) FROM request_text", "SELECT count(*) FROM targets_used",
          "SELECT count(*) FROM campaigns", "SELECT count(*) FROM run_tags",
          "SELECT total(seq) + total(ttft_us) + total(tpot_us) + total(e2e_us) + total(n_out) + "
          "total(t_send_ns) + total(error_class) FROM requests",
          "SELECT total(length(blob)) FROM request_events",
          "SELECT total(length(aggregates)) + total(output_tps_per_gpu) + total(ttft_ms_p90) FROM points",
          "SELECT total(length(provenance)) + total(length(status)) FROM runs"}) {
        auto st = db.prepare(sql);
        if (!st || st->step() != 100)
            return {QStringLiteral("query failed: ") + QString::fromUtf8(sql)};
        out << QString::fromStdString(st->colText(0));
    }
    return out;
}

std::int64_t tableCount(SqliteDb &db, const char *name)
{
    auto st = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
    if (!st)
        return -1;
    st->bind(1, name);
    return st->step() == 100 ? st->colInt(0) : -1;
}

// Derivations of every point of `path` under a few option sets (dumped JSON, in point order).
std::vector<std::string> derivations(const std::string &path)
{
    std::vector<std::string> out;
    HistoryReader reader;
    if (!reader.open(path))
        return {"open failed"};
    std::vector<std::int64_t> ids; // read first: derivePoint needs no other active statement
    {
        auto st = reader.connection().prepare("SELECT id FROM points ORDER BY id");
        if (!st)
            return {"query failed"};
        while (st->step() == 100)
            ids.push_back(st->colInt(0));
    }
    std::vector<DeriveOptions> options(4);
    options[1].includeWarmup = true;
    options[2].errorAdjusted = true;
    options[2].percentiles = {10, 99.9};
    options[3].windowStartNs = 0;
    options[3].windowEndNs = 40'000'000'000LL;
    options[3].gpus = 3;
    for (const std::int64_t id : ids) {
        for (const DeriveOptions &o : options) {
            auto d = reader.derivePoint(id, o);
            out.push_back(d ? d->dump() : "error: " + d.error().message);
        }
    }
    return out;
}

// Every point with request rows has metric chunks covering exactly its rows (first/last id and count).
std::int64_t pointsWithoutExactChunks(SqliteDb &db)
{
    auto n = db.queryInt(
        "SELECT count(*) FROM (SELECT point_id, min(id) AS lo, max(id) AS hi, count(*) AS n FROM requests "
        "GROUP BY point_id) r LEFT JOIN (SELECT point_id, min(first_id) AS lo, max(last_id) AS hi, sum(n) AS "
        "n "
        "FROM request_metric_chunks GROUP BY point_id) c ON c.point_id = r.point_id "
        "WHERE c.point_id IS NULL OR c.lo != r.lo OR c.hi != r.hi OR c.n != r.n");
    return n ? *n : -1;
}

} // namespace

// The committed v1 fixture opened by the current code: migrated through v2 (telemetry tables), v3 (metric
// chunk table) and v4 (chunks built for the old points from their rows), version rows 1–4, every v1 row
// unchanged and readable, the new tables writable; a second open migrates nothing. Derivations from the
// built chunks equal those from the rows.
void TestSchema::migrateV1FixtureToV5()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("v1.sqlite"));
    QVERIFY(QFile::copy(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/storage/history_v1.sqlite"), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    const std::string path = copy.toStdString();
    QStringList before;
    {
        SqliteDb db;
        QVERIFY(db.open(path, SqliteDb::Mode::ReadOnly));
        QCOMPARE(*Schema::version(db), 1);
        QCOMPARE(tableCount(db, "point_telemetry"), std::int64_t(0));
        QCOMPARE(tableCount(db, "telemetry_sources"), std::int64_t(0));
        before = v1Fingerprint(db);
    }
    QVERIFY(!before.first().startsWith(QStringLiteral("query failed")));
    QVERIFY(before.at(3).toLongLong() > 0); // the fixture has requests

    std::string versions;
    for (int round = 0; round < 2; ++round) {
        {
            StorageWriter writer;
            QVERIFY(writer.open(path));
            QVERIFY(writer.close());
        }
        SqliteDb db;
        QVERIFY(db.open(path, SqliteDb::Mode::ReadOnly));
        QCOMPARE(*Schema::version(db), Schema::kVersion);
        QCOMPARE(*db.queryInt("SELECT count(*) FROM schema_version"), std::int64_t(Schema::kVersion)); // 1–6
        for (int v = 2; v <= Schema::kVersion; ++v)
            QCOMPARE(*db.queryInt("SELECT count(*) FROM schema_version WHERE version = " + std::to_string(v)),
                     std::int64_t(1));
        QCOMPARE(tableCount(db, "request_metric_chunks"), std::int64_t(1));
        QVERIFY(*db.queryInt("SELECT count(*) FROM request_metric_chunks") > 0);
        QCOMPARE(pointsWithoutExactChunks(db), std::int64_t(0));
        QCOMPARE(tableCount(db, "point_telemetry"), std::int64_t(1));
        QCOMPARE(tableCount(db, "telemetry_sources"), std::int64_t(1));
        QCOMPARE(*db.queryInt("SELECT count(*) FROM pragma_table_info('telemetry_series') WHERE name = "
                              "'scenario_id'"),
                 std::int64_t(1));
        QCOMPARE(v1Fingerprint(db), before);
        auto ok = db.prepare("PRAGMA integrity_check");
        QVERIFY(ok && ok->step() == 100);
        QCOMPARE(ok->colText(0), std::string("ok"));
        auto v = db.prepare("SELECT group_concat(version || '@' || applied_utc) FROM schema_version");
        QVERIFY(v && v->step() == 100);
        if (round == 0)
            versions = v->colText(0);
        else
            QCOMPARE(v->colText(0), versions); // the second open applied nothing
    }

    // Old rows through the current reader, and the v2 tables in use on a migrated file.
    const std::string uuid = "5eed0001-aaaa-4bbb-8ccc-000000000001";
    {
        HistoryReader reader;
        QVERIFY(reader.open(path));
        auto d = reader.runDetail(uuid);
        QVERIFY(d);
        QCOMPARE(d->points.size(), 4u);
        QCOMPARE(d->points[3].outputTpsPerGpu, 201.0);
        auto rows = reader.requests(d->points[0].id);
        QVERIFY(rows);
        QCOMPARE(rows->size(), 100u);
        auto derived = reader.derivePoint(d->points[0].id);
        QVERIFY(derived);
        QCOMPARE((*derived)["n_sent"].get<int>(), 90);
    }
    {
        StorageWriter writer;
        QVERIFY(writer.open(path));
        writer.setPointTelemetry(uuid, 0, 0,
                                 {{"telemetry", {{"kv_cache_usage_peak", 0.5}, {"stalled_requests", 2}}}});
        QVERIFY(writer.close());
    }
    SqliteDb db;
    QVERIFY(db.open(path, SqliteDb::Mode::ReadOnly));
    QCOMPARE(*db.queryInt("SELECT stalled_requests FROM point_telemetry"), std::int64_t(2));
    QCOMPARE(v1Fingerprint(db), before);
    db.close();

    // The same derivations without the chunks (HistoryReader falls back to the row scan).
    const auto fromChunks = derivations(path);
    QVERIFY(fromChunks.size() >= 16);
    for (const std::string &d : fromChunks)
        QVERIFY2(d.find("n_sent") != std::string::npos, d.c_str());
    {
        SqliteDb w;
        QVERIFY(w.open(path));
        QVERIFY(w.exec("DELETE FROM request_metric_chunks"));
    }
    const auto fromRows = derivations(path);
    QCOMPARE(fromRows.size(), fromChunks.size());
    for (std::size_t i = 0; i < fromRows.size(); ++i)
        QVERIFY2(fromRows[i] == fromChunks[i],
                 (std::to_string(i) + ": rows " + fromRows[i] + "\nchunks " + fromChunks[i]).c_str());
}

// A v3 database whose first point has no chunks (stored before v3, or copied from a v2 bundle by a v3 build):
// the v4 migration builds that point's chunks and leaves the others as the writer stored them.
void TestSchema::migrateV3BackfillsChunks()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("v3.sqlite")).toStdString();
    const RunStart run = StorageTest::makeRun(StorageTest::uuidFor(31), 1, 2);
    {
        StorageWriter w;
        QVERIFY(w.open(path));
        w.beginRun(run);
        std::mt19937 rng(5);
        for (int p = 0; p < 2; ++p) {
            // Several transactions per point: several chunks each.
            for (int part = 0; part < 3; ++part) {
                w.addRequests(run.uuid,
                              StorageTest::makeBatch(static_cast<std::uint64_t>(p * 1000 + part * 150), 150,
                                                     0, p, 16, true, rng));
                QVERIFY(w.flush());
            }
        }
        w.finishRun(run.uuid, RunStatus::Completed);
        QVERIFY(w.close());
    }
    const auto before = derivations(path);
    QCOMPARE(before.size(), 8u);
    for (const std::string &d : before)
        QVERIFY2(d.find("n_sent") != std::string::npos, d.c_str());
    std::string otherChunks;
    {
        SqliteDb db;
        QVERIFY(db.open(path));
        QCOMPARE(*db.queryInt("SELECT count(*) FROM request_metric_chunks"), std::int64_t(6));
        otherChunks =
            *db.queryText("SELECT group_concat(hex(blob)) FROM (SELECT blob FROM request_metric_chunks "
                          "WHERE point_id = (SELECT max(id) FROM points) ORDER BY first_id)");
        QVERIFY(db.exec("DELETE FROM request_metric_chunks WHERE point_id = (SELECT min(id) FROM points);"
                        "DELETE FROM schema_version WHERE version >= 4;"));
        QCOMPARE(*Schema::version(db), 3);
        QCOMPARE(pointsWithoutExactChunks(db), std::int64_t(1));
    }
    {
        StorageWriter w;
        QVERIFY(w.open(path));
        QVERIFY(w.close());
    }
    SqliteDb db;
    QVERIFY(db.open(path, SqliteDb::Mode::ReadOnly));
    QCOMPARE(*Schema::version(db), Schema::kVersion);
    QCOMPARE(pointsWithoutExactChunks(db), std::int64_t(0));
    // One chunk (≤ MetricChunkBackfill::kRowsPerChunk rows) for the filled point, the writer's three
    // untouched.
    QCOMPARE(*db.queryInt("SELECT count(*) FROM request_metric_chunks"), std::int64_t(4));
    QCOMPARE(*db.queryText("SELECT group_concat(hex(blob)) FROM (SELECT blob FROM request_metric_chunks "
                           "WHERE point_id = (SELECT max(id) FROM points) ORDER BY first_id)"),
             otherChunks);
    db.close();
    QCOMPARE(derivations(path), before);
}

void TestSchema::freshDatabase()
{
    QTemporaryDir dir;
    SqliteDb db;
    QVERIFY(db.open(dir.filePath(QStringLiteral("h.sqlite")).toStdString()));
    QCOMPARE(*Schema::version(db), -1);
    QVERIFY(Schema::migrate(db));
    QCOMPARE(*Schema::version(db), Schema::kVersion);
    QVERIFY(Schema::migrate(db)); // idempotent
    QCOMPARE(*db.queryInt("SELECT count(*) FROM schema_version"), std::int64_t(Schema::kVersion));
}

void TestSchema::migrateSyntheticV0()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("v0.sqlite")).toStdString();
    {
        QFile sql(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/storage/v0_prototype.sql"));
        QVERIFY(sql.open(QIODevice::ReadOnly));
        SqliteDb db;
        QVERIFY(db.open(path));
        QVERIFY(db.exec(sql.readAll().toStdString()));
        QCOMPARE(*Schema::version(db), 0);
    }
    StorageWriter writer; // opening a writer migrates and recovers
    QVERIFY(writer.open(path));
    QVERIFY(writer.close());
    HistoryReader reader;
    QVERIFY(reader.open(path));
    auto runs = reader.listRuns();
    QVERIFY(runs);
    QCOMPARE(runs->size(), 2u);
    QCOMPARE(runs->at(1).uuid, std::string("0a1b2c3d-0000-4000-8000-000000000001"));
    QCOMPARE(runs->at(1).status, std::string("completed"));
    QCOMPARE(runs->at(0).status, std::string("crashed")); // 'running' without a writer
    auto detail = reader.runDetail("0a1b2c3d-0000-4000-8000-000000000001");
    QVERIFY(detail);
    QCOMPARE(detail->campaignJson, std::string(R"({"name":"proto","models":["m"]})"));
    QCOMPARE(detail->points.size(), 1u);
    auto rows = reader.requests(detail->points[0].id);
    QVERIFY(rows);
    QCOMPARE(rows->size(), 3u);
    QCOMPARE(rows->at(0).ttftUs, std::int64_t(51000));
    QCOMPARE(rows->at(1).errorClass, 0); // empty error text = success
    QCOMPARE(rows->at(2).errorClass, 3);
    QCOMPARE(*reader.connection().queryInt("SELECT count(*) FROM sqlite_master WHERE name LIKE 'v0_%'"),
             std::int64_t(0));
}

void TestSchema::openCommittedV1Fixture()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("v1.sqlite"));
    QVERIFY(QFile::copy(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/storage/history_v1.sqlite"), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    StorageWriter writer;
    QVERIFY(writer.open(copy.toStdString()));
    QVERIFY(writer.close());
    HistoryReader reader;
    QVERIFY(reader.open(copy.toStdString()));
    QCOMPARE(*Schema::version(reader.connection()), Schema::kVersion);
    auto d = reader.runDetail("5eed0001-aaaa-4bbb-8ccc-000000000001");
    QVERIFY(d);
    QCOMPARE(d->summary.status, std::string("completed"));
    QCOMPARE(d->summary.verdict, std::string("fail"));
    QCOMPARE(d->scenarios.size(), 2u);
    QCOMPARE(d->points.size(), 4u);
    QCOMPARE(d->points[3].outputTpsPerGpu, 201.0);
    QCOMPARE(d->points[1].ttftMsP90, 56.5);
    QCOMPARE(d->points[0].flags, std::vector<std::string>{"low_sample"});
    QCOMPARE(d->targets.size(), 1u);
    auto rows = reader.requests(d->points[0].id);
    QVERIFY(rows);
    QCOMPARE(rows->size(), 100u);
    auto ev = reader.events(rows->at(1).id);
    QVERIFY(ev);
    QCOMPARE(ev->size(), 18u); // role + 16 content + usage
    auto text = reader.text(rows->at(1).id);
    QVERIFY(text);
    QCOMPARE(*text, std::string("hello fixture"));
    auto derived = reader.derivePoint(d->points[0].id);
    QVERIFY(derived);
    QCOMPARE((*derived)["n_sent"].get<int>(), 90); // 10 warm-up requests excluded
}

// tests/data/storage/history_v4.sqlite, written by the v4 build (storage_crash_child --make-fixture, then
// --write killed with SIGKILL; the dead writer's host renamed to fixture-host-v4, its requests dropped to
// keep the file small): a completed run and a 'running' run whose writer is gone. v5 adds the writer's boot
// id, pid namespace and lease; the old row has none, so readers fall back to host + heartbeat and list it
// crashed.
void TestSchema::migrateV4FixtureToV5()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("v4.sqlite"));
    QVERIFY(QFile::copy(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/storage/history_v4.sqlite"), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    const std::string path = copy.toStdString();
    const std::string done = "5eed0001-aaaa-4bbb-8ccc-000000000001";
    const std::string dead = "0000557b-0000-4000-8000-00000a5437d5";
    {
        SqliteDb db;
        QVERIFY(db.open(path, SqliteDb::Mode::ReadOnly));
        QCOMPARE(*Schema::version(db), 4);
        QCOMPARE(
            *db.queryInt("SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'lease_until_utc'"),
            std::int64_t(0));
    }
    HistoryReader old;
    QVERIFY(!old.open(path)); // readers ask for a writer to migrate first
    {
        StorageWriter writer;
        StorageWriter::Options o;
        o.recoverCrashed = false; // leave the row as the v4 build left it, to see what readers make of it
        QVERIFY(writer.open(path, o));
        QVERIFY(writer.close());
    }
    HistoryReader reader;
    QVERIFY(reader.open(path));
    QCOMPARE(*Schema::version(reader.connection()), Schema::kVersion);
    QCOMPARE(*reader.connection().queryInt("SELECT count(*) FROM pragma_table_info('runs') WHERE name IN "
                                           "('writer_boot_id', 'writer_pidns', 'lease_until_utc')"),
             std::int64_t(3));
    auto runs = reader.listRuns();
    QVERIFY(runs);
    QCOMPARE(runs->size(), 2u);
    for (const RunSummary &r : *runs)
        QCOMPARE(r.status, std::string(r.uuid == dead ? "crashed" : "completed"));
    QCOMPARE(*reader.connection().queryText("SELECT status FROM runs WHERE uuid = '" + dead + "'"),
             std::string("running")); // readers never write
    auto d = reader.runDetail(done);
    QVERIFY(d);
    QCOMPARE(d->points.size(), 4u);
    QCOMPARE(d->points[3].outputTpsPerGpu, 201.0);
    auto rows = reader.requests(d->points[0].id);
    QVERIFY(rows);
    QCOMPARE(rows->size(), 100u);
    auto pending = reader.unfinishedPoints(dead);
    QVERIFY(pending);
    QCOMPARE(pending->size(), 4u);
    // The next writer recovers it for good.
    StorageWriter writer;
    QVERIFY(writer.open(path));
    QVERIFY(writer.close());
    QCOMPARE(*reader.connection().queryText("SELECT status FROM runs WHERE uuid = '" + dead + "'"),
             std::string("crashed"));
}

// A bundle a v4 build exported (one run, schema v4) imports into a v5 history.
void TestSchema::importV4Bundle()
{
    QTemporaryDir dir;
    const QString bundle = dir.filePath(QStringLiteral("old.tlrun"));
    QVERIFY(QFile::copy(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/storage/history_v4.sqlite"), bundle));
    QFile::setPermissions(bundle, QFile::ReadOwner | QFile::WriteOwner);
    {
        SqliteDb db; // keep only the completed run, as `export --format tlrun` of the v4 build wrote it
        QVERIFY(db.open(bundle.toStdString()));
        QVERIFY(
            db.exec("DELETE FROM points WHERE run_id IN (SELECT id FROM runs WHERE status = 'running');"
                    "DELETE FROM scenarios WHERE run_id IN (SELECT id FROM runs WHERE status = 'running');"
                    "DELETE FROM run_tags WHERE run_id IN (SELECT id FROM runs WHERE status = 'running');"
                    "DELETE FROM runs WHERE status = 'running';"));
        QCOMPARE(*Schema::version(db), 4);
    }
    const std::string history = dir.filePath(QStringLiteral("history.sqlite")).toStdString();
    auto imported = ResultImporter::importFile(bundle.toStdString(), ResultImporter::Format::Tlrun, history);
    QVERIFY2(imported, imported ? "" : imported.error().message.c_str());
    HistoryReader reader;
    QVERIFY(reader.open(history));
    auto runs = reader.listRuns();
    QVERIFY(runs);
    QCOMPARE(runs->size(), 1u);
    QCOMPARE(runs->front().status, std::string("completed"));
    auto d = reader.runDetail(runs->front().uuid);
    QVERIFY(d);
    QCOMPARE(d->points.size(), 4u);
    QCOMPARE(reader.requests(d->points[0].id)->size(), 100u);
}

// tests/data/storage/history_v5.sqlite, written by the v5 build (storage_crash_child --make-fixture of
// commit 797140c): one completed run, 2 scenarios × 2 points × 100 requests. v6 adds request_breakdowns; the
// old rows stay as they were, the old points have no breakdowns (an empty list, not an error) and a writer
// can store some for them.
void TestSchema::migrateV5FixtureToV6()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("v5.sqlite"));
    QVERIFY(QFile::copy(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/storage/history_v5.sqlite"), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    const std::string path = copy.toStdString();
    const std::string uuid = "5eed0001-aaaa-4bbb-8ccc-000000000001";
    QStringList before;
    {
        SqliteDb db;
        QVERIFY(db.open(path, SqliteDb::Mode::ReadOnly));
        QCOMPARE(*Schema::version(db), 5);
        QCOMPARE(tableCount(db, "request_breakdowns"), std::int64_t(0));
        before = v1Fingerprint(db);
    }
    HistoryReader old;
    QVERIFY(!old.open(path)); // readers ask for a writer to migrate first
    {
        StorageWriter writer;
        QVERIFY(writer.open(path));
        QVERIFY(writer.close());
    }
    HistoryReader reader;
    QVERIFY(reader.open(path));
    QCOMPARE(*Schema::version(reader.connection()), 6);
    QCOMPARE(tableCount(reader.connection(), "request_breakdowns"), std::int64_t(1));
    QCOMPARE(v1Fingerprint(reader.connection()), before);
    auto d = reader.runDetail(uuid);
    QVERIFY(d);
    QCOMPARE(d->summary.status, std::string("completed"));
    QCOMPARE(d->points.size(), 4u);
    QCOMPARE(d->points[3].outputTpsPerGpu, 201.0);
    QCOMPARE(reader.requests(d->points[0].id)->size(), 100u);
    auto none = reader.requestBreakdowns(d->points[0].id);
    QVERIFY(none);
    QVERIFY(none->empty());
    // The migrated table takes rows.
    RequestBreakdown b;
    b.seq = 7;
    b[BreakdownPart::Prefill] = {12.5, PartStatus::Measured, false};
    b[BreakdownPart::Unattributed] = {3.25, PartStatus::Derived, false};
    {
        StorageWriter writer;
        QVERIFY(writer.open(path));
        writer.setRequestBreakdowns(uuid, 0, 0, {b});
        QVERIFY(writer.close());
    }
    auto stored = reader.requestBreakdowns(d->points[0].id);
    QVERIFY(stored);
    QCOMPARE(stored->size(), 1u);
    QCOMPARE(stored->front().seq, std::uint64_t(7));
    QCOMPARE(stored->front()[BreakdownPart::Prefill].ms, 12.5);
    QCOMPARE(stored->front()[BreakdownPart::Unattributed].status, PartStatus::Derived);
    QCOMPARE(stored->front()[BreakdownPart::Decode].status, PartStatus::Unknown);
}

// A bundle a v5 build exported (no request_breakdowns table) imports into a v6 history.
void TestSchema::importV5Bundle()
{
    QTemporaryDir dir;
    const QString bundle = dir.filePath(QStringLiteral("old.tlrun"));
    QVERIFY(QFile::copy(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/storage/history_v5.sqlite"), bundle));
    QFile::setPermissions(bundle, QFile::ReadOwner | QFile::WriteOwner);
    const std::string history = dir.filePath(QStringLiteral("history.sqlite")).toStdString();
    auto imported = ResultImporter::importFile(bundle.toStdString(), ResultImporter::Format::Tlrun, history);
    QVERIFY2(imported, imported ? "" : imported.error().message.c_str());
    HistoryReader reader;
    QVERIFY(reader.open(history));
    auto runs = reader.listRuns();
    QVERIFY(runs);
    QCOMPARE(runs->size(), 1u);
    auto d = reader.runDetail(runs->front().uuid);
    QVERIFY(d);
    QCOMPARE(d->points.size(), 4u);
    QCOMPARE(reader.requests(d->points[2].id)->size(), 100u);
    QVERIFY(reader.requestBreakdowns(d->points[2].id)->empty());
}

void TestSchema::refuseNewerSchema()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("future.sqlite")).toStdString();
    {
        SqliteDb db;
        QVERIFY(db.open(path));
        QVERIFY(Schema::migrate(db));
        QVERIFY(db.exec("INSERT INTO schema_version(version) VALUES(99)"));
    }
    StorageWriter writer;
    const Status s = writer.open(path);
    QVERIFY(!s);
    QCOMPARE(s.error().code, ErrorCode::Unsupported);
    QVERIFY(s.error().message.find("99") != std::string::npos);
    HistoryReader reader;
    QVERIFY(!reader.open(path));
}

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
