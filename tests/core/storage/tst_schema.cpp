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
    void refuseNewerSchema();
};

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
