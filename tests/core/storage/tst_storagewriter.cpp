#include "core/storage/eventcodec.h"
#include "core/storage/historyreader.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"
#include "storagetestutil.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <map>

using namespace Throughline;

class TestStorageWriter : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip();
    void resumeUnfinishedPoints();
    void readOnlyDatabase();
    void diskFull();
    void enqueueDoesNotWaitForDisk();
    void backgroundCheckpoints();
    void twoWritersInterleaved();

private:
    static std::int64_t count(const std::string &path, const char *sql)
    {
        SqliteDb db;
        if (!db.open(path, SqliteDb::Mode::ReadOnly))
            return -1;
        auto v = db.queryInt(sql);
        return v ? *v : -1;
    }
    // PRAGMA integrity_check through a read-only connection: "ok", or what failed.
    static std::string integrity(const std::string &path)
    {
        SqliteDb db;
        if (!db.open(path, SqliteDb::Mode::ReadOnly))
            return "cannot open " + path;
        auto v = db.queryText("PRAGMA integrity_check");
        return v ? *v : v.error().message;
    }
};

void TestStorageWriter::roundTrip()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    StorageWriter writer;
    QVERIFY(writer.open(path));
    RunStart run = StorageTest::makeRun(StorageTest::uuidFor(7), 2, 2);
    run.storeText = true;
    writer.beginRun(run);
    std::mt19937 rng(3);
    auto batch = StorageTest::makeBatch(0, 300, 0, 0, 64, true, rng);
    batch[3].text = std::string(500, 'x') + "tail";
    batch[3].usage.cachedTokens = 17;
    batch[3].usage.reasoningTokens = 9;
    const std::vector<RequestRecord> kept = batch;
    writer.beginPoint(run.uuid, 0, 0, nullptr, 1'780'000'000'500'000'000LL);
    writer.addRequests(run.uuid, std::move(batch));
    const nlohmann::json agg = {{"load", {{"mode", "concurrency"}, {"concurrency", 4}}},
                                {"validity", {{"valid", false}, {"flags", {"window_short", "low_sample"}}}},
                                {"metrics",
                                 {{"output_tps_per_gpu", 1234.5},
                                  {"ttft_ms", {{"p90", "n/a (n=5)"}}},
                                  {"tpot_ms", {{"p90", 20.5}}}}}};
    writer.finishPoint(run.uuid, FinishedPoint{0, 0, agg, "pass", 1'000, 300'000'000});
    writer.setScenarioVerdict(run.uuid, 0, {{"status", "fail"}, {"checks", nlohmann::json::array()}});
    writer.finishRun(run.uuid, RunStatus::Completed);
    QVERIFY(writer.flush());
    QCOMPARE(writer.stats().requestsWritten, std::uint64_t(300));
    QVERIFY(writer.close());

    HistoryReader reader;
    QVERIFY(reader.open(path));
    auto runs = reader.listRuns();
    QVERIFY(runs);
    QCOMPARE(runs->size(), 1u);
    const RunSummary &s = runs->front();
    QCOMPARE(s.uuid, run.uuid);
    QCOMPARE(s.status, std::string("completed"));
    QCOMPARE(s.verdict, std::string("fail"));
    QCOMPARE(s.scenarioCount, 2);
    QCOMPARE(s.pointCount, 4);
    QCOMPARE(s.planId, std::string("plan-1"));
    QCOMPARE(s.startedUtc, std::string("2026-05-28T20:26:40.000Z"));
    QVERIFY(std::find(s.tags.begin(), s.tags.end(), "nightly") != s.tags.end());

    auto detail = reader.runDetail(run.uuid);
    QVERIFY(detail);
    QCOMPARE(detail->campaignJson, run.campaignJson); // exact text
    QVERIFY(detail->provenance == run.provenance);
    QCOMPARE(detail->scenarios.size(), 2u);
    QCOMPARE(detail->scenarios[0].key, run.scenarios[0].key);
    QCOMPARE(detail->points.size(), 4u);
    const PointRow &p = detail->points[0];
    QCOMPARE(p.status, std::string("completed"));
    QVERIFY(p.aggregates == agg);
    QCOMPARE(p.outputTpsPerGpu, 1234.5);
    QVERIFY(std::isnan(p.ttftMsP90)); // "n/a" text is not a number
    QCOMPARE(p.tpotMsP90, 20.5);
    QCOMPARE(p.valid, 0);
    QCOMPARE(p.flags, (std::vector<std::string>{"window_short", "low_sample"}));
    QCOMPARE(p.startedUnixNs, 1'780'000'000'500'000'000LL);
    QCOMPARE(detail->points[1].status, std::string("pending"));

    auto rows = reader.requests(p.id);
    QVERIFY(rows);
    QCOMPARE(rows->size(), kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) {
        const RequestRecord &in = kept[i];
        const RequestRow &out = (*rows)[i];
        QCOMPARE(out.seq, static_cast<std::int64_t>(in.seq));
        QCOMPARE(out.warmup, in.warmup);
        QCOMPARE(out.tSendNs, in.tSend);
        QCOMPARE(out.tEndNs, in.tEnd);
        QCOMPARE(out.errorClass, static_cast<int>(in.error));
        QCOMPARE(out.httpStatus, in.httpStatus);
        QCOMPARE(out.nOut, in.nOut);
        if (in.ok()) {
            const auto firstContent =
                std::find_if(in.events.begin(), in.events.end(),
                             [](const StreamEvent &e) { return e.kind == StreamEvent::Kind::Content; });
            QCOMPARE(out.ttftUs, (firstContent->tNs - in.tSend) / 1000);
            QCOMPARE(out.e2eUs, (in.tEnd - in.tSend) / 1000);
            QCOMPARE(out.nContent, 64);
            QVERIFY(out.tpotUs > 15'000 && out.tpotUs < 25'000);
            auto events = reader.events(out.id);
            QVERIFY(events);
            QCOMPARE(events->size(), in.events.size());
            for (std::size_t k = 0; k < in.events.size(); ++k)
                QVERIFY(std::abs((*events)[k].tNs - in.events[k].tNs) < 1000);
        }
    }
    QCOMPARE((*rows)[3].cachedTokens, 17);
    QCOMPARE((*rows)[3].reasoningTokens, 9);
    auto text = reader.text((*rows)[3].id);
    QVERIFY(text);
    QCOMPARE(*text, kept[3].text);
    QCOMPARE(
        count(path, "SELECT count(*) FROM request_errors WHERE detail = '503 Service Unavailable'"),
        static_cast<std::int64_t>(std::count_if(kept.begin(), kept.end(), [](auto &r) { return !r.ok(); })));
    QCOMPARE(count(path, "SELECT count(*) FROM targets_used"), std::int64_t(0));
}

void TestStorageWriter::resumeUnfinishedPoints()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const RunStart run = StorageTest::makeRun(StorageTest::uuidFor(9), 1, 3);
    std::mt19937 rng(5);
    {
        StorageWriter writer;
        QVERIFY(writer.open(path));
        writer.beginRun(run);
        writer.addRequests(run.uuid, StorageTest::makeBatch(0, 50, 0, 0, 8, true, rng));
        writer.finishPoint(run.uuid,
                           FinishedPoint{0, 0, {{"metrics", {{"output_tps_per_gpu", 10.0}}}}, "", 0, 1});
        writer.beginPoint(run.uuid, 0, 1, nullptr);
        writer.addRequests(run.uuid, StorageTest::makeBatch(50, 20, 0, 1, 8, true, rng)); // partial point
        writer.finishRun(run.uuid, RunStatus::Cancelled);
        QVERIFY(writer.close());
    }
    HistoryReader reader;
    QVERIFY(reader.open(path));
    auto todo = reader.unfinishedPoints(run.uuid);
    QVERIFY(todo);
    QCOMPARE(todo->size(), 2u);
    QCOMPARE((*todo)[0].pointIndex, 1);
    QCOMPARE((*todo)[0].status, std::string("running"));
    QCOMPARE((*todo)[1].pointIndex, 2);
    QCOMPARE((*todo)[1].status, std::string("pending"));
    QCOMPARE((*todo)[1].config["load"]["concurrency"].get<int>(), 16); // planned config kept for the engine
    {
        StorageWriter writer;
        QVERIFY(writer.open(path));
        writer.reopenRun(run.uuid);
        for (const PointRow &p : *todo) {
            writer.resetPoint(run.uuid, p.scenarioIndex, p.pointIndex);
            writer.addRequests(run.uuid,
                               StorageTest::makeBatch(100 + 30 * static_cast<unsigned>(p.pointIndex), 30, 0,
                                                      p.pointIndex, 8, true, rng));
            writer.finishPoint(
                run.uuid, FinishedPoint{0, p.pointIndex, {{"metrics", nlohmann::json::object()}}, "", 0, 1});
        }
        writer.finishRun(run.uuid, RunStatus::Completed);
        QVERIFY(writer.close());
    }
    HistoryReader again;
    QVERIFY(again.open(path));
    auto pts = again.points({run.uuid});
    QVERIFY(pts);
    QCOMPARE(pts->size(), 3u);
    for (const PointRow &p : *pts)
        QCOMPARE(p.status, std::string("completed"));
    QCOMPARE(count(path, "SELECT count(*) FROM requests"),
             std::int64_t(50 + 30 + 30)); // the partial 20 were dropped
    QCOMPARE(count(path, "SELECT count(*) FROM request_events e LEFT JOIN requests q ON q.id = e.request_id "
                         "WHERE q.id IS NULL"),
             std::int64_t(0));
    auto notResumable = again.unfinishedPoints(run.uuid);
    QVERIFY(!notResumable);
    QVERIFY(notResumable.error().message.find("completed") != std::string::npos);
}

void TestStorageWriter::readOnlyDatabase()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    std::mt19937 rng(1);
    {
        StorageWriter writer;
        QVERIFY(writer.open(path));
        writer.beginRun(StorageTest::makeRun(StorageTest::uuidFor(1)));
        writer.addRequests(StorageTest::uuidFor(1), StorageTest::makeBatch(0, 100, 0, 0, 8, true, rng));
        QVERIFY(writer.close());
    }
    const auto before = count(path, "SELECT count(*) FROM requests");
    QCOMPARE(before, std::int64_t(100));
    StorageWriter writer;
    StorageWriter::Options ro;
    ro.readOnly = true;
    QVERIFY(writer.open(path, ro));
    writer.beginRun(StorageTest::makeRun(StorageTest::uuidFor(2)));
    writer.addRequests(StorageTest::uuidFor(2), StorageTest::makeBatch(0, 100, 0, 0, 8, true, rng));
    const Status s = writer.flush();
    QVERIFY(!s);
    QCOMPARE(s.error().code, ErrorCode::Storage);
    QVERIFY2(s.error().message.find("readonly") != std::string::npos, s.error().message.c_str());
    QVERIFY2(s.error().message.find(path) != std::string::npos, s.error().message.c_str());
    // Clean stop: later work is refused without blocking, close returns the same error.
    writer.addRequests(StorageTest::uuidFor(2), StorageTest::makeBatch(0, 10, 0, 0, 8, true, rng));
    QVERIFY(writer.lastError().has_value());
    QVERIFY(!writer.close());
    QCOMPARE(count(path, "SELECT count(*) FROM requests"), before);
    QCOMPARE(count(path, "SELECT count(*) FROM runs"), std::int64_t(1));
}

void TestStorageWriter::diskFull()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    std::int64_t pages = 0;
    {
        StorageWriter writer;
        QVERIFY(writer.open(path));
        writer.beginRun(StorageTest::makeRun(StorageTest::uuidFor(1)));
        QVERIFY(writer.close());
        pages = count(path, "PRAGMA page_count");
    }
    StorageWriter writer;
    StorageWriter::Options opt;
    opt.maxPageCount = pages + 40; // a few batches fit, then the "disk" is full
    QVERIFY(writer.open(path, opt));
    std::mt19937 rng(1);
    std::uint64_t committed = 0;
    Status s = Ok{};
    for (int i = 0; i < 200 && s; ++i) {
        writer.addRequests(StorageTest::uuidFor(1),
                           StorageTest::makeBatch(committed, 50, 0, 0, 64, true, rng));
        s = writer.flush();
        if (s)
            committed += 50;
    }
    QVERIFY2(!s, "the page limit was never reached");
    QVERIFY(committed > 0);
    QVERIFY2(s.error().message.find("full") != std::string::npos, s.error().message.c_str());
    QVERIFY(!writer.close());
    QCOMPARE(count(path, "SELECT count(*) FROM requests"), static_cast<std::int64_t>(committed));
    QCOMPARE(count(path, "SELECT count(*) FROM request_events"),
             count(path, "SELECT count(*) FROM requests WHERE error_class = 0"));
    QCOMPARE(integrity(path), std::string("ok"));
}

void TestStorageWriter::enqueueDoesNotWaitForDisk()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    StorageWriter writer;
    QVERIFY(writer.open(path));
    const std::string uuid = StorageTest::uuidFor(4);
    writer.beginRun(StorageTest::makeRun(uuid));
    std::mt19937 rng(2);
    std::vector<std::vector<RequestRecord>> batches;
    for (int i = 0; i < 40; ++i)
        batches.push_back(
            StorageTest::makeBatch(static_cast<std::uint64_t>(i) * 500, 500, 0, i % 2, 128, true, rng));
    // A second connection holds the write lock: the writer thread is stuck on busy_timeout, yet enqueueing
    // returns at once and the queue grows (its high-water mark is reported).
    SqliteDb blocker;
    QVERIFY(blocker.open(path));
    QVERIFY(writer.flush());
    QVERIFY(blocker.exec("BEGIN IMMEDIATE"));
    QElapsedTimer t;
    t.start();
    for (auto &b : batches)
        writer.addRequests(uuid, std::move(b));
    QVERIFY2(t.elapsed() < 200, qPrintable(QString::number(t.elapsed())));
    QTest::qWait(100);
    QVERIFY(writer.stats().queueHighWater >= 10000);
    QVERIFY(blocker.exec("COMMIT"));
    QVERIFY(writer.flush());
    QCOMPARE(writer.stats().requestsWritten, std::uint64_t(20000));
    QCOMPARE(writer.stats().queueDepth, std::size_t(0));
}

void TestStorageWriter::backgroundCheckpoints()
{
    // > WalCheckpointer::kSignalFrames WAL frames in many transactions: the checkpoint thread (not the
    // writer) copies them into the database file while writing goes on; everything stays consistent.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    StorageWriter writer;
    QVERIFY(writer.open(path));
    const std::string uuid = StorageTest::uuidFor(5);
    writer.beginRun(StorageTest::makeRun(uuid));
    std::mt19937 rng(4);
    constexpr int kBatches = 40, kPerBatch = 1000;
    for (int i = 0; i < kBatches; ++i) {
        writer.addRequests(uuid, StorageTest::makeBatch(static_cast<std::uint64_t>(i) * kPerBatch, kPerBatch,
                                                        0, 0, 256, true, rng));
        if (i % 4 == 3)
            QVERIFY(writer.flush()); // several transactions, as in a live run
    }
    QVERIFY(writer.flush());
    QTRY_VERIFY_WITH_TIMEOUT(writer.stats().checkpointCpuNs > 0, 10000);
    // Only checkpoints write the main database file (the writer appends to the WAL).
    QTRY_VERIFY_WITH_TIMEOUT(std::filesystem::file_size(path) > 8u * 1024 * 1024, 10000);
    QVERIFY(writer.close());
    QCOMPARE(count(path, "SELECT count(*) FROM requests"), std::int64_t(kBatches * kPerBatch));
    QCOMPARE(count(path, "SELECT count(*) FROM request_events"),
             count(path, "SELECT count(*) FROM requests WHERE error_class = 0"));
    QCOMPARE(integrity(path), std::string("ok"));
}

void TestStorageWriter::twoWritersInterleaved()
{
    // Request ids are assigned by the writer (max(id) + 1 at each transaction) and rows go in 32 at a time:
    // two writers (two processes in real use) appending to one database in turns must never reuse an id,
    // and every event blob must stay with its own request. Batch sizes leave partial groups of 32.
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    StorageWriter a, b;
    QVERIFY(a.open(path));
    QVERIFY(b.open(path));
    const std::string ua = StorageTest::uuidFor(11), ub = StorageTest::uuidFor(12);
    a.beginRun(StorageTest::makeRun(ua));
    b.beginRun(StorageTest::makeRun(ub));
    QVERIFY(a.flush());
    QVERIFY(b.flush());
    std::mt19937 rng(9);
    std::map<std::string, std::vector<RequestRecord>> sent;
    const std::size_t sizes[] = {70, 33, 1, 200, 31, 64};
    std::uint64_t seq = 0;
    for (std::size_t i = 0; i < std::size(sizes); ++i) {
        StorageWriter &w = i % 2 ? b : a;
        const std::string &uuid = i % 2 ? ub : ua;
        auto batch =
            StorageTest::makeBatch(seq, sizes[i], 0, static_cast<int>(i % 4 < 2 ? 0 : 1), 16, true, rng);
        seq += sizes[i];
        sent[uuid].insert(sent[uuid].end(), batch.begin(), batch.end());
        w.addRequests(uuid, std::move(batch));
        QVERIFY(w.flush());
    }
    QVERIFY(a.close());
    QVERIFY(b.close());
    QCOMPARE(count(path, "SELECT count(*) FROM requests"), static_cast<std::int64_t>(seq));
    QCOMPARE(count(path, "SELECT count(*) FROM request_events"),
             count(path, "SELECT count(*) FROM requests WHERE error_class = 0"));
    QCOMPARE(count(path, "SELECT count(*) FROM request_errors"),
             count(path, "SELECT count(*) FROM requests WHERE error_class != 0"));
    QCOMPARE(count(path, "SELECT count(*) FROM request_events e LEFT JOIN requests r ON r.id = e.request_id "
                         "WHERE r.id IS NULL OR r.error_class != 0"),
             std::int64_t(0));

    HistoryReader reader;
    QVERIFY(reader.open(path));
    for (const auto &[uuid, records] : sent) {
        std::map<std::uint64_t, const RequestRecord *> bySeq;
        for (const RequestRecord &r : records)
            bySeq[r.seq] = &r;
        auto detail = reader.runDetail(uuid);
        QVERIFY(detail);
        std::size_t seen = 0;
        for (const PointRow &p : detail->points) {
            auto rows = reader.requests(p.id);
            QVERIFY(rows);
            for (const RequestRow &row : *rows) {
                const RequestRecord &in = *bySeq.at(static_cast<std::uint64_t>(row.seq));
                ++seen;
                QCOMPARE(row.tSendNs, in.tSend);
                auto events = reader.events(row.id);
                QVERIFY(events);
                QCOMPARE(events->size(), in.events.size());
                for (std::size_t k = 0; k < in.events.size(); ++k)
                    QVERIFY(std::abs((*events)[k].tNs - in.events[k].tNs) < 1000);
            }
        }
        QCOMPARE(seen, records.size());
    }
}

QTEST_GUILESS_MAIN(TestStorageWriter)
#include "tst_storagewriter.moc"
