// Bundles (.tlrun) round trip, JSON/CSV export, and merging synthetic shard bundles.
#include "core/storage/bundlemerger.h"
#include "core/storage/historyreader.h"
#include "core/storage/runbundle.h"
#include "core/storage/runexporter.h"
#include "core/storage/schema.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"
#include "storagetestutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Throughline;

class TestRunBundle : public QObject
{
    Q_OBJECT
private slots:
    void exportImportRoundTrip();
    void importsVersion2Bundle();
    void exportJsonAndCsv();
    void mergeShards();
    void mergeRefusesMismatch();
    void mergeRefusesIncompleteShards();
    void mergeAllowsMissingShardsWhenAsked();
    void mergeVersion2Shards();

private:
    // Shard `shard` of 2 (as in mergeShards): two points of 300 requests; returns its bundle path.
    static std::string writeShardBundle(const QTemporaryDir &dir, int shard, std::int64_t t0, int count = 2,
                                        RunStatus status = RunStatus::Completed)
    {
        const std::string db = dir.filePath(QStringLiteral("s%1.sqlite").arg(shard)).toStdString();
        RunStart run = StorageTest::makeRun(StorageTest::uuidFor(100 + static_cast<unsigned>(shard)), 1, 2);
        run.shard = std::to_string(shard) + "/" + std::to_string(count);
        run.t0UnixNs = t0 + shard * 20'000'000LL; // shard 1 started 20 ms later
        // Point 0 starts 5 ms apart on the two shards, point 1 starts 120 ms apart (clock skew): flagged.
        const std::int64_t pointStart = t0 + 1'000'000'000LL + shard * 5'000'000LL;
        StorageWriter w;
        if (!w.open(db))
            return {};
        w.beginRun(run);
        std::mt19937 rng(static_cast<unsigned>(shard));
        for (int p = 0; p < 2; ++p) {
            w.beginPoint(run.uuid, 0, p, nullptr,
                         pointStart + p * 10'000'000'000LL + (p == 1 ? shard * 115'000'000LL : 0));
            w.addRequests(run.uuid, StorageTest::makeBatch(static_cast<std::uint64_t>(shard) * 1000 +
                                                               static_cast<std::uint64_t>(p) * 300,
                                                           300, 0, p, 32, true, rng));
            w.finishPoint(
                run.uuid,
                FinishedPoint{0, p, {{"metrics", {{"output_tps_per_gpu", 1.0}}}}, "", kNoTime, kNoTime});
        }
        w.finishRun(run.uuid, status);
        if (!w.close())
            return {};
        const std::string bundle = dir.filePath(QStringLiteral("s%1.tlrun").arg(shard)).toStdString();
        return RunBundle::exportRun(db, run.uuid, bundle) ? bundle : std::string();
    }
    // Turns a bundle into what a v2 build wrote: no metric chunks table, version rows 1–2.
    static bool downgradeToVersion2(const std::string &bundle)
    {
        SqliteDb db;
        return db.open(bundle) &&
               db.exec("DROP TABLE request_metric_chunks; DELETE FROM schema_version WHERE version > 2;");
    }

    static std::string writeRun(const std::string &db, const RunStart &run, std::uint64_t firstSeq,
                                std::size_t n, std::int64_t pointStartUnixNs = kNoTime)
    {
        StorageWriter w;
        if (!w.open(db))
            return {};
        w.beginRun(run);
        std::mt19937 rng(static_cast<unsigned>(firstSeq + 1));
        for (int p = 0; p < 2; ++p) {
            w.beginPoint(run.uuid, 0, p, nullptr,
                         pointStartUnixNs == kNoTime ? kNoTime : pointStartUnixNs + p * 1'000'000'000LL);
            auto batch =
                StorageTest::makeBatch(firstSeq + static_cast<std::uint64_t>(p) * n, n, 0, p, 16, true, rng);
            batch[2].text = "bundle text";
            w.addRequests(run.uuid, std::move(batch));
            w.finishPoint(
                run.uuid,
                FinishedPoint{0,
                              p,
                              {{"metrics", {{"output_tps_per_gpu", 10.0 + p}, {"ttft_ms", {{"p90", 50.0}}}}},
                               {"validity", {{"valid", true}, {"flags", nlohmann::json::array()}}}},
                              "",
                              0,
                              1'000'000'000});
        }
        w.setScenarioVerdict(run.uuid, 0, {{"status", "pass"}});
        w.finishRun(run.uuid, RunStatus::Completed);
        return w.close() ? run.uuid : std::string();
    }
};

void TestRunBundle::exportImportRoundTrip()
{
    QTemporaryDir dir;
    const std::string a = dir.filePath(QStringLiteral("a.sqlite")).toStdString();
    const std::string b = dir.filePath(QStringLiteral("b.sqlite")).toStdString();
    const std::string bundle = dir.filePath(QStringLiteral("run.tlrun")).toStdString();
    RunStart run = StorageTest::makeRun(StorageTest::uuidFor(11), 1, 2);
    run.storeText = true;
    QVERIFY(!writeRun(a, run, 0, 150).empty());
    QVERIFY(!writeRun(b, StorageTest::makeRun(StorageTest::uuidFor(12), 1, 2), 0, 70)
                 .empty()); // occupies ids in b

    QVERIFY(RunBundle::exportRun(a, run.uuid, bundle));
    QVERIFY(RunBundle::looksLikeSqlite(bundle));
    QVERIFY(!QFile::exists(QString::fromStdString(bundle + "-wal")));
    auto uuid = RunBundle::runUuid(bundle);
    QVERIFY(uuid);
    QCOMPARE(*uuid, run.uuid);
    auto imported = RunBundle::importBundle(bundle, b);
    QVERIFY2(imported, imported ? "" : imported.error().message.c_str());
    auto again = RunBundle::importBundle(bundle, b);
    QVERIFY(!again);
    QVERIFY(again.error().message.find("already in") != std::string::npos);

    HistoryReader ra, rb;
    QVERIFY(ra.open(a));
    QVERIFY(rb.open(b));
    QCOMPARE(rb.listRuns()->size(), 2u);
    auto da = ra.runDetail(run.uuid);
    auto db = rb.runDetail(run.uuid);
    QVERIFY(da && db);
    QCOMPARE(db->campaignJson, da->campaignJson);
    QCOMPARE(db->summary.tags, da->summary.tags);
    QCOMPARE(db->summary.verdict, std::string("pass"));
    QCOMPARE(db->points.size(), da->points.size());
    for (std::size_t i = 0; i < da->points.size(); ++i) {
        QVERIFY(db->points[i].aggregates == da->points[i].aggregates);
        auto qa = ra.requests(da->points[i].id);
        auto qb = rb.requests(db->points[i].id);
        QCOMPARE(qb->size(), qa->size());
        for (std::size_t k = 0; k < qa->size(); ++k) {
            QCOMPARE((*qb)[k].ttftUs, (*qa)[k].ttftUs);
            QCOMPARE((*qb)[k].tEndNs, (*qa)[k].tEndNs);
            auto ea = ra.events((*qa)[k].id);
            auto eb = rb.events((*qb)[k].id);
            QCOMPARE(eb->size(), ea->size());
            if (!ea->empty())
                QCOMPARE(eb->back().tNs, ea->back().tNs);
        }
        QCOMPARE(*rb.text((*qb)[2].id), std::string("bundle text"));
    }
    // A bundle is a valid argument wherever a history database is read.
    HistoryReader rbundle;
    QVERIFY(rbundle.open(bundle));
    QCOMPARE(rbundle.listRuns()->size(), 1u);
    // A file that is not a bundle: clear error naming it.
    const std::string notBundle = dir.filePath(QStringLiteral("x.tlrun")).toStdString();
    QVERIFY(RunExporter::writeFile(notBundle, "hello"));
    auto bad = RunBundle::importBundle(notBundle, b);
    QVERIFY(!bad);
    QVERIFY(bad.error().message.find(notBundle) != std::string::npos);
}

// A bundle written before schema v3 (no metric chunks) imports into a current history with its rows intact,
// its metric chunks built from them, and the same derivation; a v1 bundle is refused naming the versions.
void TestRunBundle::importsVersion2Bundle()
{
    QTemporaryDir dir;
    const std::string a = dir.filePath(QStringLiteral("a.sqlite")).toStdString();
    const std::string b = dir.filePath(QStringLiteral("b.sqlite")).toStdString();
    const std::string bundle = dir.filePath(QStringLiteral("v2.tlrun")).toStdString();
    RunStart run = StorageTest::makeRun(StorageTest::uuidFor(13), 1, 2);
    QVERIFY(!writeRun(a, run, 0, 60).empty());
    QVERIFY(RunBundle::exportRun(a, run.uuid, bundle));
    {
        SqliteDb db;
        QVERIFY(db.open(bundle));
        // Export copies the metric chunks with the rows (ids shifted alike).
        QVERIFY(*db.queryInt("SELECT count(*) FROM request_metric_chunks") > 0);
        QCOMPARE(*db.queryInt("SELECT sum(n) FROM request_metric_chunks"),
                 *db.queryInt("SELECT count(*) FROM requests"));
        QCOMPARE(*db.queryInt("SELECT min(first_id) || max(last_id) FROM request_metric_chunks"),
                 *db.queryInt("SELECT min(id) || max(id) FROM requests"));
    }
    QVERIFY(downgradeToVersion2(bundle));
    auto imported = RunBundle::importBundle(bundle, b);
    QVERIFY2(imported, imported ? "" : imported.error().message.c_str());
    HistoryReader ra, rb;
    QVERIFY(ra.open(a));
    QVERIFY(rb.open(b));
    const auto pa = ra.points({run.uuid}), pb = rb.points({run.uuid});
    QVERIFY(pa && pb);
    QCOMPARE(pb->size(), pa->size());
    QVERIFY(*rb.derivePoint(pb->front().id) == *ra.derivePoint(pa->front().id));
    {
        // The import built the imported points' metric chunks from the copied rows.
        SqliteDb db;
        QVERIFY(db.open(b, SqliteDb::Mode::ReadOnly));
        QCOMPARE(*db.queryInt("SELECT count(DISTINCT point_id) FROM request_metric_chunks"),
                 *db.queryInt("SELECT count(DISTINCT point_id) FROM requests"));
        QCOMPARE(*db.queryInt("SELECT sum(n) FROM request_metric_chunks"),
                 *db.queryInt("SELECT count(*) FROM requests"));
        QCOMPARE(
            *db.queryInt("SELECT count(*) FROM request_metric_chunks c WHERE first_id != (SELECT min(id) "
                         "FROM requests r WHERE r.point_id = c.point_id) OR last_id != (SELECT max(id) "
                         "FROM requests r WHERE r.point_id = c.point_id)"),
            std::int64_t(0));
    }

    {
        SqliteDb db;
        QVERIFY(db.open(bundle));
        QVERIFY(db.exec("DELETE FROM schema_version WHERE version = 2;"));
    }
    auto v1 = RunBundle::importBundle(bundle, dir.filePath(QStringLiteral("c.sqlite")).toStdString());
    QVERIFY(!v1);
    const std::string expected = "schema version 1, expected 2 to " + std::to_string(Schema::kVersion);
    QVERIFY2(v1.error().message.find(expected) != std::string::npos, v1.error().message.c_str());
}

void TestRunBundle::exportJsonAndCsv()
{
    QTemporaryDir dir;
    const std::string a = dir.filePath(QStringLiteral("a.sqlite")).toStdString();
    const RunStart run = StorageTest::makeRun(StorageTest::uuidFor(21), 1, 2);
    QVERIFY(!writeRun(a, run, 0, 40).empty());
    HistoryReader r;
    QVERIFY(r.open(a));
    auto j = RunExporter::toJson(r, run.uuid);
    QVERIFY(j);
    QCOMPARE((*j)["schema"].get<std::string>(), std::string("throughline.results/5"));
    QCOMPARE((*j)["run_id"].get<std::string>(), run.uuid);
    QCOMPARE((*j)["scenarios"][0]["id"].get<std::string>(), run.scenarios[0].key);
    QCOMPARE((*j)["scenarios"][0]["points"].size(), 2u);
    QCOMPARE((*j)["scenarios"][0]["points"][1]["metrics"]["output_tps_per_gpu"].get<double>(), 11.0);
    auto csv = RunExporter::pointsCsv(r, run.uuid);
    QVERIFY(csv);
    const auto header = csv->substr(0, csv->find('\n'));
    QVERIFY2(header.find("ttft_ms_p90") != std::string::npos, header.c_str());
    QVERIFY(header.find("output_tps_per_gpu") != std::string::npos);
    QCOMPARE(std::count(csv->begin(), csv->end(), '\n'), 3);
    auto reqCsv = RunExporter::requestsCsv(r, run.uuid);
    QVERIFY(reqCsv);
    QCOMPARE(std::count(reqCsv->begin(), reqCsv->end(), '\n'), 81);
}

void TestRunBundle::mergeShards()
{
    QTemporaryDir dir;
    const std::int64_t t0 = 1'780'000'000'000'000'000LL;
    std::vector<std::string> bundles;
    for (int shard = 0; shard < 2; ++shard) {
        bundles.push_back(writeShardBundle(dir, shard, t0));
        QVERIFY(!bundles.back().empty());
    }
    const std::string out = dir.filePath(QStringLiteral("merged.tlrun")).toStdString();
    auto report = BundleMerger::merge(bundles, out);
    QVERIFY2(report, report ? "" : report.error().message.c_str());
    QCOMPARE(report->shards, 2);
    QCOMPARE(report->points, 2);
    QCOMPARE(report->requests, std::size_t(1200));
    QCOMPARE(report->warnings.size(), 1u);
    QVERIFY(report->maxSkewMs > 100 && report->maxSkewMs < 130);

    HistoryReader r;
    QVERIFY(r.open(out));
    auto d = r.runDetail(report->uuid);
    QVERIFY(d);
    QCOMPARE(d->summary.source, std::string("merge"));
    QCOMPARE(d->summary.t0UnixNs, t0);
    QCOMPARE(d->points.size(), 2u);
    const auto &a0 = d->points[0].aggregates;
    const auto &a1 = d->points[1].aggregates;
    QCOMPARE(a0["merge"]["shards"].get<int>(), 2);
    QVERIFY(a0["validity"]["flags"].dump().find("shard_skew") == std::string::npos);
    QVERIFY(a1["validity"]["flags"].dump().find("shard_skew") != std::string::npos);
    // Recomputed from 600 merged samples, not copied from the shards (which said 1.0).
    QVERIFY(a0["n_sent"].get<int>() > 300);
    QVERIFY(a0["metrics"]["ttft_ms"]["n"].get<int>() > 300);
    QVERIFY(a0["metrics"]["output_tps"].get<double>() != 1.0);
    // Shard 1 timestamps moved onto the merged t=0 (+20 ms).
    auto rows = r.requests(d->points[0].id);
    QCOMPARE(rows->size(), 600u);
    const auto shard1 =
        std::find_if(rows->begin(), rows->end(), [](const RequestRow &q) { return q.seq == 1000; });
    QVERIFY(shard1 != rows->end());
    QCOMPARE(shard1->tSendNs, std::int64_t(1000) * 1'000'000 + 1000 + 20'000'000);
}

void TestRunBundle::mergeRefusesMismatch()
{
    QTemporaryDir dir;
    auto make = [&](unsigned id, const std::string &campaign, const std::string &plan) {
        const std::string db = dir.filePath(QStringLiteral("m%1.sqlite").arg(id)).toStdString();
        RunStart run = StorageTest::makeRun(StorageTest::uuidFor(id), 1, 1, campaign);
        run.planId = plan;
        writeRun(db, run, 0, 20);
        const std::string bundle = dir.filePath(QStringLiteral("m%1.tlrun").arg(id)).toStdString();
        (void)RunBundle::exportRun(db, run.uuid, bundle);
        return bundle;
    };
    const std::string a = make(1, R"({"name":"a"})", "p1");
    const std::string otherCampaign = make(2, R"({"name":"b"})", "p1");
    const std::string otherPlan = make(3, R"({"name":"a"})", "p2");
    const std::string out = dir.filePath(QStringLiteral("o.tlrun")).toStdString();
    auto r1 = BundleMerger::merge({a, otherCampaign}, out);
    QVERIFY(!r1);
    QVERIFY2(r1.error().message.find("campaign") != std::string::npos, r1.error().message.c_str());
    auto r2 = BundleMerger::merge({a, otherPlan}, out);
    QVERIFY(!r2);
    QVERIFY2(r2.error().message.find("plan id") != std::string::npos, r2.error().message.c_str());
}

// A missing or cancelled shard makes a partial result: refused before anything is written, naming the shard
// (the rules themselves: tst_shardset).
void TestRunBundle::mergeRefusesIncompleteShards()
{
    QTemporaryDir dir;
    const std::int64_t t0 = 1'780'000'000'000'000'000LL;
    const std::string out = dir.filePath(QStringLiteral("merged.tlrun")).toStdString();
    const std::string s0 = writeShardBundle(dir, 0, t0, 3), s1 = writeShardBundle(dir, 1, t0, 3);
    QVERIFY(!s0.empty() && !s1.empty());
    auto missing = BundleMerger::merge({s0, s1}, out);
    QVERIFY(!missing);
    QVERIFY2(missing.error().message.find("shard 2 of 3 is missing (have 0, 1)") != std::string::npos,
             missing.error().message.c_str());
    QVERIFY(!QFile::exists(QString::fromStdString(out)));

    QTemporaryDir dir2;
    const std::string c0 = writeShardBundle(dir2, 0, t0),
                      c1 = writeShardBundle(dir2, 1, t0, 2, RunStatus::Cancelled);
    auto cancelled = BundleMerger::merge({c0, c1}, out);
    QVERIFY(!cancelled);
    QVERIFY2(cancelled.error().message.find("shard 1/2") != std::string::npos &&
                 cancelled.error().message.find("status cancelled") != std::string::npos,
             cancelled.error().message.c_str());
}

// --allow-missing: shards 0 and 1 of 3 merge into a partial bundle whose every point is invalid, flagged
// shard_missing and names shard 2/3 in its merge object; the report warns once.
void TestRunBundle::mergeAllowsMissingShardsWhenAsked()
{
    QTemporaryDir dir;
    const std::int64_t t0 = 1'780'000'000'000'000'000LL;
    const std::string out = dir.filePath(QStringLiteral("partial.tlrun")).toStdString();
    const std::string s0 = writeShardBundle(dir, 0, t0, 3), s1 = writeShardBundle(dir, 1, t0, 3);
    QVERIFY(!s0.empty() && !s1.empty());
    BundleMerger::Options options;
    options.allowMissingShards = true;
    auto report = BundleMerger::merge({s0, s1}, out, options);
    QVERIFY2(report, report ? "" : report.error().message.c_str());
    QCOMPARE(report->missingShards, std::vector<std::string>{"2/3"});
    QCOMPARE(report->points, 2);
    QVERIFY(std::any_of(report->warnings.begin(), report->warnings.end(), [](const std::string &w) {
        return w.find("partial merge: shard 2/3 missing") != std::string::npos;
    }));
    HistoryReader reader;
    QVERIFY(reader.open(out));
    auto runs = reader.listRuns();
    QVERIFY(runs && runs->size() == 1);
    auto detail = reader.runDetail(runs->front().uuid);
    QVERIFY(detail);
    QCOMPARE(detail->points.size(), std::size_t(2));
    for (const PointRow &p : detail->points) {
        const auto &flags = p.aggregates["validity"]["flags"];
        QVERIFY2(std::find(flags.begin(), flags.end(), "shard_missing") != flags.end(), flags.dump().c_str());
        QVERIFY(!p.aggregates["validity"].value("valid", true));
        QVERIFY2(p.aggregates["merge"]["missing_shards"] == nlohmann::json::array({"2/3"}),
                 p.aggregates["merge"].dump().c_str());
        QCOMPARE(p.aggregates["merge"].value("shards", 0), 2);
    }
}

// Shard bundles of a v2 build merge like current ones (read from migrated temporary copies): the same
// merged points and aggregates as merging the current bundles, and the v2 input files are left as they were.
void TestRunBundle::mergeVersion2Shards()
{
    QTemporaryDir dir;
    const std::int64_t t0 = 1'780'000'000'000'000'000LL;
    std::vector<std::string> current, old;
    for (int shard = 0; shard < 2; ++shard) {
        current.push_back(writeShardBundle(dir, shard, t0));
        QVERIFY(!current.back().empty());
        old.push_back(dir.filePath(QStringLiteral("old%1.tlrun").arg(shard)).toStdString());
        QVERIFY(QFile::copy(QString::fromStdString(current.back()), QString::fromStdString(old.back())));
        QVERIFY(downgradeToVersion2(old.back()));
    }
    const std::string outCurrent = dir.filePath(QStringLiteral("merged-current.tlrun")).toStdString();
    const std::string outOld = dir.filePath(QStringLiteral("merged-old.tlrun")).toStdString();
    const std::string outMixed = dir.filePath(QStringLiteral("merged-mixed.tlrun")).toStdString();
    auto a = BundleMerger::merge(current, outCurrent);
    QVERIFY2(a, a ? "" : a.error().message.c_str());
    auto b = BundleMerger::merge(old, outOld);
    QVERIFY2(b, b ? "" : b.error().message.c_str());
    auto c = BundleMerger::merge({old[0], current[1]}, outMixed);
    QVERIFY2(c, c ? "" : c.error().message.c_str());
    QCOMPARE(b->requests, a->requests);
    QCOMPARE(b->points, a->points);
    QCOMPARE(c->requests, a->requests);

    HistoryReader ra, rb, rc;
    QVERIFY(ra.open(outCurrent));
    QVERIFY(rb.open(outOld));
    QVERIFY(rc.open(outMixed));
    auto da = ra.runDetail(a->uuid), db = rb.runDetail(b->uuid), dc = rc.runDetail(c->uuid);
    QVERIFY(da && db && dc);
    QCOMPARE(db->points.size(), da->points.size());
    for (std::size_t i = 0; i < da->points.size(); ++i) {
        QVERIFY2(db->points[i].aggregates == da->points[i].aggregates,
                 db->points[i].aggregates.dump().c_str());
        QVERIFY(dc->points[i].aggregates == da->points[i].aggregates);
        QCOMPARE(rb.requests(db->points[i].id)->size(), ra.requests(da->points[i].id)->size());
    }
    for (const std::string &path : old) {
        SqliteDb in;
        QVERIFY(in.open(path, SqliteDb::Mode::ReadOnly));
        QCOMPARE(*Schema::version(in), 2);
        QCOMPARE(*in.queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'request_metric_chunks'"),
                 std::int64_t(0));
    }
}

QTEST_GUILESS_MAIN(TestRunBundle)
#include "tst_runbundle.moc"
