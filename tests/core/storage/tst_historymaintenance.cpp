// HistoryMaintenance::setTags / setNotes on real SQLite files (fresh, committed v1 fixture, synthetic v0),
// and HistoryReader::derivePoint against an independent computation from the narrow rows.
#include "core/storage/historymaintenance.h"
#include "core/storage/historyreader.h"
#include "core/storage/schema.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"
#include "storagetestutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Throughline;

class TestHistoryMaintenance : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void setTagsReplacesAndFilters();
    void setNotesRoundTrip();
    void errorsNameTheRun();
    void committedV1Fixture();
    void syntheticV0();
    void derivePointMatchesRows();
    void derivePointChunksEqualRowScan();

private:
    RunSummary summary(const std::string &uuid);

    QTemporaryDir m_dir;
    std::string m_db;
    const std::string m_a = StorageTest::uuidFor(0x7a900001u);
    const std::string m_b = StorageTest::uuidFor(0x7a900002u);
};

void TestHistoryMaintenance::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("t.sqlite")).toStdString();
    StorageWriter w;
    QVERIFY(w.open(m_db));
    std::mt19937 rng(5);
    for (const std::string &uuid : {m_a, m_b}) {
        RunStart run = StorageTest::makeRun(uuid, 1, 1);
        run.tags = {"nightly", "h200"};
        w.beginRun(run);
        w.addRequests(uuid, StorageTest::makeBatch(0, 3000, 0, 0, 16, false, rng));
        w.finishPoint(
            uuid,
            FinishedPoint{0, 0, {{"metrics", nlohmann::json::object()}}, "", 200'000'000, 2'500'000'000});
        w.finishRun(uuid, RunStatus::Completed);
    }
    QVERIFY(w.close());
}

RunSummary TestHistoryMaintenance::summary(const std::string &uuid)
{
    HistoryReader r; // a fresh connection each time: only committed data
    if (!r.open(m_db))
        return {};
    auto d = r.runDetail(uuid);
    return d ? d->summary : RunSummary{};
}

void TestHistoryMaintenance::setTagsReplacesAndFilters()
{
    QCOMPARE(summary(m_a).tags, (std::vector<std::string>{"h200", "nightly"}));
    auto s = HistoryMaintenance::setTags(m_db, m_a, {" regression ", "", "nightly", "nightly", "größe-β"});
    QVERIFY2(s, s ? "" : s.error().message.c_str());
    // Stored sorted by the (run_id, tag) key; trimmed, empty and duplicate tags dropped.
    QCOMPARE(summary(m_a).tags, (std::vector<std::string>{"größe-β", "nightly", "regression"}));
    QCOMPARE(summary(m_b).tags, (std::vector<std::string>{"h200", "nightly"})); // other run untouched

    HistoryReader r;
    QVERIFY(r.open(m_db));
    auto hits = r.listRuns(*HistoryReader::parseFilter("tag=regression"));
    QVERIFY(hits);
    QCOMPARE(hits->size(), 1u);
    QCOMPARE(hits->front().uuid, m_a);
    QCOMPARE(r.listRuns(*HistoryReader::parseFilter("tag=h200"))->size(), 1u);
    QCOMPARE(r.listRuns(*HistoryReader::parseFilter("tag=nightly"))->size(), 2u);

    QVERIFY(HistoryMaintenance::setTags(m_db, m_a, {}));
    QVERIFY(summary(m_a).tags.empty());
    QCOMPARE(r.listRuns(*HistoryReader::parseFilter("tag=regression"))->size(), 0u);
    QVERIFY(HistoryMaintenance::setTags(m_db, m_a, {"h200"}));
    QCOMPARE(summary(m_a).tags, std::vector<std::string>{"h200"});
}

void TestHistoryMaintenance::setNotesRoundTrip()
{
    const std::string notes =
        "line one, with \"quotes\" and 'apostrophes'\nline two: ÄÖÜ ✓ -- ; DROP TABLE runs;";
    QVERIFY(HistoryMaintenance::setNotes(m_db, m_b, notes));
    QCOMPARE(summary(m_b).notes, notes);
    QCOMPARE(summary(m_a).notes, std::string("synthetic run"));
    HistoryReader r;
    QVERIFY(r.open(m_db));
    auto hits = r.listRuns(*HistoryReader::parseFilter("text=apostrophes"));
    QVERIFY(hits);
    QCOMPARE(hits->size(), 1u);
    QCOMPARE(hits->front().uuid, m_b);
    QVERIFY(HistoryMaintenance::setNotes(m_db, m_b, ""));
    QCOMPARE(summary(m_b).notes, std::string());
    QCOMPARE(*r.connection().queryInt("SELECT count(*) FROM runs"), std::int64_t(2));
}

void TestHistoryMaintenance::errorsNameTheRun()
{
    const std::string missing = StorageTest::uuidFor(0x0badf00du);
    auto t = HistoryMaintenance::setTags(m_db, missing, {"x"});
    QVERIFY(!t);
    QCOMPARE(t.error().code, ErrorCode::NotFound);
    QVERIFY2(t.error().message.find(missing) != std::string::npos, t.error().message.c_str());
    auto n = HistoryMaintenance::setNotes(m_db, missing, "x");
    QVERIFY(!n);
    QCOMPARE(n.error().code, ErrorCode::NotFound);
    QVERIFY2(n.error().message.find(missing) != std::string::npos, n.error().message.c_str());

    const auto before = summary(m_a).tags;
    auto comma = HistoryMaintenance::setTags(m_db, m_a, {"ok", "a,b"});
    QVERIFY(!comma);
    QCOMPARE(comma.error().code, ErrorCode::InvalidInput);
    QVERIFY2(comma.error().message.find(m_a) != std::string::npos, comma.error().message.c_str());
    QVERIFY2(comma.error().message.find("a,b") != std::string::npos, comma.error().message.c_str());
    QCOMPARE(summary(m_a).tags, before); // nothing written

    const std::string nowhere = m_dir.filePath(QStringLiteral("no/such/dir/h.sqlite")).toStdString();
    auto file = HistoryMaintenance::setNotes(nowhere, m_a, "x");
    QVERIFY(!file);
    QVERIFY2(file.error().message.find(m_a) != std::string::npos, file.error().message.c_str());
    QVERIFY2(file.error().message.find(nowhere) != std::string::npos, file.error().message.c_str());

    // A database from a newer build is refused before anything is written.
    const std::string future = m_dir.filePath(QStringLiteral("future.sqlite")).toStdString();
    QVERIFY(QFile::copy(QString::fromStdString(m_db), QString::fromStdString(future)));
    {
        SqliteDb db;
        QVERIFY(db.open(future));
        QVERIFY(db.exec("INSERT INTO schema_version(version) VALUES(99)"));
    }
    auto newer = HistoryMaintenance::setTags(future, m_a, {"x"});
    QVERIFY(!newer);
    QCOMPARE(newer.error().code, ErrorCode::Unsupported);
    QVERIFY2(newer.error().message.find(m_a) != std::string::npos, newer.error().message.c_str());
    SqliteDb check;
    QVERIFY(check.open(future, SqliteDb::Mode::ReadOnly));
    QCOMPARE(*check.queryInt("SELECT count(*) FROM run_tags WHERE tag = 'x'"), std::int64_t(0));
}

void TestHistoryMaintenance::committedV1Fixture()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("v1.sqlite"));
    QVERIFY(QFile::copy(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/storage/history_v1.sqlite"), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    const std::string path = copy.toStdString();
    const std::string uuid = "5eed0001-aaaa-4bbb-8ccc-000000000001";
    QVERIFY(HistoryMaintenance::setTags(path, uuid, {"fixture", "v1"}));
    QVERIFY(HistoryMaintenance::setNotes(path, uuid, "edited after the fact"));
    HistoryReader r;
    QVERIFY(r.open(path));
    QCOMPARE(*Schema::version(r.connection()), Schema::kVersion);
    auto d = r.runDetail(uuid);
    QVERIFY(d);
    QCOMPARE(d->summary.tags, (std::vector<std::string>{"fixture", "v1"}));
    QCOMPARE(d->summary.notes, std::string("edited after the fact"));
    QCOMPARE(d->points.size(), 4u); // the rest of the run is intact
    QCOMPARE(d->points[3].outputTpsPerGpu, 201.0);
}

void TestHistoryMaintenance::syntheticV0()
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
    // The edit migrates the prototype layout first (same path as every writer).
    const std::string uuid = "0a1b2c3d-0000-4000-8000-000000000001";
    QVERIFY(HistoryMaintenance::setNotes(path, uuid, "from the prototype"));
    QVERIFY(HistoryMaintenance::setTags(path, uuid, {"legacy"}));
    HistoryReader r;
    QVERIFY(r.open(path));
    auto d = r.runDetail(uuid);
    QVERIFY(d);
    QCOMPARE(d->summary.notes, std::string("from the prototype"));
    QCOMPARE(d->summary.tags, std::vector<std::string>{"legacy"});
    QCOMPARE(d->points.size(), 1u); // migrated rows intact
    QCOMPARE(r.requests(d->points[0].id)->size(), 3u);
}

// derivePoint consumes the rows through an SQL aggregate function; compare every counter and the
// percentiles/moments with a plain loop over HistoryReader::requests() for each option combination.
void TestHistoryMaintenance::derivePointMatchesRows()
{
    HistoryReader r;
    QVERIFY(r.open(m_db));
    const auto pts = r.points({m_a});
    QVERIFY(pts && !pts->empty());
    const PointRow &p = pts->front();
    auto rows = r.requests(p.id, true);
    QVERIFY(rows);
    QCOMPARE(rows->size(), 3000u);

    auto pct = [](std::vector<double> v, double q) {
        std::sort(v.begin(), v.end());
        const double h = (static_cast<double>(v.size()) - 1) * q / 100.0;
        const auto lo = static_cast<std::size_t>(h);
        if (lo + 1 >= v.size())
            return v[lo];
        if (std::isinf(v[lo + 1]))
            return v[lo + 1];
        return v[lo] + (h - static_cast<double>(lo)) * (v[lo + 1] - v[lo]);
    };
    struct Case {
        bool warmup, errorAdjusted;
        std::int64_t w0, w1; // kNoTime = the point's stored window (200 ms .. 2.5 s)
    };
    const Case cases[] = {{false, false, kNoTime, kNoTime},
                          {true, false, kNoTime, kNoTime},
                          {false, true, kNoTime, kNoTime},
                          {true, false, 1000, 1'000'001'000}}; // bounds = t_send of seq 0 and 1000
    for (const Case &c : cases) {
        DeriveOptions opt;
        opt.percentiles = {50, 90, 99};
        opt.includeWarmup = c.warmup;
        opt.errorAdjusted = c.errorAdjusted;
        opt.windowStartNs = c.w0;
        opt.windowEndNs = c.w1;
        const std::int64_t w0 = c.w0 == kNoTime ? p.windowStartNs : c.w0;
        const std::int64_t w1 = c.w1 == kNoTime ? p.windowEndNs : c.w1;
        std::int64_t sent = 0, ok = 0, failed = 0, tokens = 0,
                     minSend = std::numeric_limits<std::int64_t>::max(), maxEnd = 0;
        std::vector<double> ttft, e2e;
        for (const RequestRow &q : *rows) {
            if ((q.warmup && !c.warmup) || q.tSendNs < w0 || q.tSendNs >= w1)
                continue;
            ++sent;
            if (q.errorClass != 0) {
                ++failed;
                continue;
            }
            ++ok;
            tokens += q.nOut;
            minSend = std::min(minSend, q.tSendNs);
            maxEnd = std::max(maxEnd, q.tEndNs);
            ttft.push_back(static_cast<double>(q.ttftUs) / 1000.0);
            e2e.push_back(static_cast<double>(q.e2eUs) / 1000.0);
        }
        if (c.errorAdjusted) {
            ttft.insert(ttft.end(), static_cast<std::size_t>(failed),
                        std::numeric_limits<double>::infinity());
            e2e.insert(e2e.end(), static_cast<std::size_t>(failed), std::numeric_limits<double>::infinity());
        }
        auto d = r.derivePoint(p.id, opt);
        QVERIFY(d);
        const nlohmann::json &j = *d;
        const QString where = QStringLiteral("warmup=%1 adjusted=%2 w0=%3")
                                  .arg(int(c.warmup))
                                  .arg(int(c.errorAdjusted))
                                  .arg(w0);
        QVERIFY2(sent > 100 && failed > 0, qPrintable(where));
        QCOMPARE(j["n_sent"].get<std::int64_t>(), sent);
        QCOMPARE(j["n_ok"].get<std::int64_t>(), ok);
        const double windowS = static_cast<double>(w1 - w0) / 1e9;
        QCOMPARE(j["window_s"].get<double>(), windowS);
        QCOMPARE(j["output_tps_issued_in_window"].get<double>(), static_cast<double>(tokens) / windowS);
        QCOMPARE(j["output_tps_whole"].get<double>(),
                 static_cast<double>(tokens) / (static_cast<double>(maxEnd - minSend) / 1e9));
        QCOMPARE(j["ttft_ms"]["n"].get<std::size_t>(), ttft.size());
        QCOMPARE(j["e2e_ms"]["n"].get<std::size_t>(), e2e.size());
        for (double q : {50.0, 90.0}) {
            const std::string key = "p" + std::to_string(static_cast<int>(q));
            QVERIFY2(std::abs(j["ttft_ms"][key].get<double>() - pct(ttft, q)) < 1e-9, qPrintable(where));
            QVERIFY2(std::abs(j["e2e_ms"][key].get<double>() - pct(e2e, q)) < 1e-9, qPrintable(where));
        }
        if (c.errorAdjusted) {
            QCOMPARE(j["ttft_ms"]["max"].get<std::string>(), std::string("inf"));
        } else {
            QCOMPARE(j["ttft_ms"]["min"].get<double>(), *std::min_element(ttft.begin(), ttft.end()));
            QCOMPARE(j["ttft_ms"]["max"].get<double>(), *std::max_element(ttft.begin(), ttft.end()));
            double sum = 0;
            for (double x : ttft)
                sum += x;
            QVERIFY2(std::abs(j["ttft_ms"]["mean"].get<double>() - sum / static_cast<double>(ttft.size())) <
                         1e-9,
                     qPrintable(where));
        }
    }
}

// derivePoint reads the writer's metric chunks (schema v3) when they cover a point's rows, else the rows:
// both give identical JSON (same values, same order) for every option set; a row the chunks do not cover
// (written by another path) makes it fall back to the rows. Points with several chunks (several
// transactions) and two points interleaved in one transaction.
void TestHistoryMaintenance::derivePointChunksEqualRowScan()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("c.sqlite")).toStdString();
    const std::string uuid = StorageTest::uuidFor(0x7a900003u);
    {
        StorageWriter w;
        QVERIFY(w.open(path));
        std::mt19937 rng(6);
        w.beginRun(StorageTest::makeRun(uuid, 2, 1));
        for (std::uint64_t first = 0; first < 3000; first += 1000) {
            auto a = StorageTest::makeBatch(first, 1000, 0, 0, 16, first != 1000, rng);
            auto b = StorageTest::makeBatch(10'000 + first, 500, 1, 0, 16, true, rng);
            std::vector<RequestRecord> mixed;
            for (std::size_t i = 0; i < a.size(); ++i) {
                mixed.push_back(std::move(a[i]));
                if (i % 2 == 0)
                    mixed.push_back(std::move(b[i / 2]));
            }
            mixed[7].tSend = kNoTime; // absent values travel as absent
            mixed[8].tEnd = kNoTime;
            mixed[9].nOut = -1;
            w.addRequests(uuid, std::move(mixed));
            QVERIFY(w.flush()); // one transaction (and one chunk per point) per round
        }
        for (int sc = 0; sc < 2; ++sc)
            w.finishPoint(uuid,
                          FinishedPoint{sc, 0, nlohmann::json::object(), "", 300'000'000, 2'000'000'000});
        QVERIFY(w.close());
    }
    SqliteDb rw;
    QVERIFY(rw.open(path));
    QCOMPARE(*rw.queryInt("SELECT count(*) FROM request_metric_chunks"), std::int64_t(6));
    QCOMPARE(*rw.queryInt("SELECT sum(n) FROM request_metric_chunks"),
             *rw.queryInt("SELECT count(*) FROM requests"));

    std::vector<DeriveOptions> cases(4);
    cases[1].includeWarmup = true;
    cases[2].errorAdjusted = true;
    cases[2].percentiles = {50, 99.9};
    cases[3].windowStartNs = 500'000'000;
    cases[3].windowEndNs = 1'500'000'000;
    cases[3].gpus = 2;
    auto deriveAll = [&](std::vector<nlohmann::json> &out) {
        HistoryReader r;
        QVERIFY(r.open(path));
        auto pts = r.points({uuid});
        QVERIFY(pts && pts->size() == 2u);
        out.clear();
        for (const PointRow &p : *pts)
            for (const DeriveOptions &o : cases) {
                auto d = r.derivePoint(p.id, o);
                QVERIFY2(d, d ? "" : d.error().message.c_str());
                out.push_back(*d);
            }
    };
    std::vector<nlohmann::json> fromChunks, withExtraRow, fromRows;
    deriveAll(fromChunks);
    QVERIFY(fromChunks.front()["n_sent"].get<std::int64_t>() > 1000);

    // A row the chunks do not cover: the rows are read instead (and include it).
    QVERIFY(
        rw.exec("INSERT INTO requests(point_id, seq, t_send_ns, t_end_ns, e2e_us, n_out) SELECT point_id, "
                "99999, 600000000, 700000000, 100000, 5 FROM requests ORDER BY id LIMIT 1"));
    deriveAll(withExtraRow);
    QCOMPARE(withExtraRow.front()["n_sent"].get<std::int64_t>(),
             fromChunks.front()["n_sent"].get<std::int64_t>() + 1);

    QVERIFY(rw.exec("DELETE FROM requests WHERE seq = 99999; DELETE FROM request_metric_chunks;"));
    deriveAll(fromRows);
    QCOMPARE(fromRows.size(), fromChunks.size());
    for (std::size_t i = 0; i < fromRows.size(); ++i)
        QVERIFY2(fromRows[i] == fromChunks[i], (fromRows[i].dump() + "\n" + fromChunks[i].dump()).c_str());
}

QTEST_GUILESS_MAIN(TestHistoryMaintenance)
#include "tst_historymaintenance.moc"
