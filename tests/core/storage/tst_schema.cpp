#include "core/storage/historyreader.h"
#include "core/storage/schema.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"

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
    void migrateV1FixtureToV3();
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

} // namespace

// The committed v1 fixture opened by the current code: migrated through v2 (telemetry tables) to v3 (metric
// chunks; none for migrated points, which derive from their rows), version rows 1–3, every v1 row unchanged
// and readable, the new tables writable; a second open migrates nothing.
void TestSchema::migrateV1FixtureToV3()
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
        QCOMPARE(*Schema::version(db), 3);
        QCOMPARE(*db.queryInt("SELECT count(*) FROM schema_version"), std::int64_t(3)); // rows 1, 2, 3 only
        QCOMPARE(*db.queryInt("SELECT count(*) FROM schema_version WHERE version = 2"), std::int64_t(1));
        QCOMPARE(*db.queryInt("SELECT count(*) FROM schema_version WHERE version = 3"), std::int64_t(1));
        QCOMPARE(tableCount(db, "request_metric_chunks"), std::int64_t(1));
        QCOMPARE(*db.queryInt("SELECT count(*) FROM request_metric_chunks"), std::int64_t(0));
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
