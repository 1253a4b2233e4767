// HistoryReader queries (filters, id prefixes, samples, re-derivation) and HistoryMaintenance / HistoryPath.
#include "core/storage/historymaintenance.h"
#include "core/storage/historypath.h"
#include "core/storage/historyreader.h"
#include "core/storage/storagewriter.h"
#include "storagetestutil.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Throughline;

class TestHistoryReader : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void filters();
    void resolvePrefix();
    void samplesAndDerive();
    void maintenance();
    void historyPath();

private:
    QTemporaryDir m_dir;
    std::string m_db;
};

void TestHistoryReader::initTestCase()
{
    m_db = m_dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    StorageWriter w;
    QVERIFY(w.open(m_db));
    std::mt19937 rng(9);
    for (unsigned i = 0; i < 6; ++i) {
        RunStart run =
            StorageTest::makeRun(StorageTest::uuidFor(0xabc00000u + i), 1 + static_cast<int>(i % 3), 1);
        run.t0UnixNs += static_cast<std::int64_t>(i) * 86'400'000'000'000LL; // one day apart
        run.tags = {i % 2 ? "nightly" : "adhoc"};
        run.notes = i == 4 ? "needle in the notes" : "";
        w.beginRun(run);
        w.addRequests(run.uuid, StorageTest::makeBatch(0, 1000, 0, 0, 32, false, rng));
        w.finishPoint(
            run.uuid,
            FinishedPoint{0, 0, {{"metrics", {{"output_tps_per_gpu", 1.0 * i}}}}, "", 0, 900'000'000});
        w.setScenarioVerdict(run.uuid, 0, {{"status", i == 3 ? "fail" : "pass"}});
        w.finishRun(run.uuid, i == 5 ? RunStatus::Cancelled : RunStatus::Completed);
    }
    QVERIFY(w.close());
}

void TestHistoryReader::filters()
{
    HistoryReader r;
    QVERIFY(r.open(m_db));
    auto count = [&](const std::string &expr) -> int {
        auto f = HistoryReader::parseFilter(expr);
        if (!f)
            return -1;
        auto runs = r.listRuns(*f);
        return runs ? static_cast<int>(runs->size()) : -2;
    };
    QCOMPARE(count(""), 6);
    QCOMPARE(count("model=llama*"), 4); // runs with ≥ 2 scenarios have llama-3.3-70b
    QCOMPARE(count("model=deepseek*"), 2);
    QCOMPARE(count("model=DEEPSEEK-R1,phase=summarization"), 2); // case-insensitive, same scenario
    QCOMPARE(count("model=deepseek*,phase=Chat"), 0);            // AND within one scenario
    QCOMPARE(count("model=deepseek*,model=llama*"), 4);          // OR within a key
    QCOMPARE(count("gpu=H200"), 6);
    QCOMPARE(count("gpus=8"), 6);
    QCOMPARE(count("gpus=4"), 0);
    QCOMPARE(count("verdict=fail"), 1);
    QCOMPARE(count("tag=nightly"), 3);
    QCOMPARE(count("status=cancelled"), 1);
    QCOMPARE(count("text=needle"), 1);
    QCOMPARE(count("since=2026-05-30"), 4);
    QCOMPARE(count("until=2026-05-29"), 2);
    auto all = r.listRuns();
    QVERIFY(all->front().startedUtc > all->back().startedUtc); // newest first
    auto bad = HistoryReader::parseFilter("colour=red");
    QVERIFY(!bad);
    QVERIFY(bad.error().message.find("colour") != std::string::npos);
    QVERIFY(!HistoryReader::parseFilter("model"));
}

void TestHistoryReader::resolvePrefix()
{
    HistoryReader r;
    QVERIFY(r.open(m_db));
    QCOMPARE(*r.resolveRun("abc00003"), StorageTest::uuidFor(0xabc00003u));
    QCOMPARE(*r.resolveRun("ABC00003-0000"), StorageTest::uuidFor(0xabc00003u));
    auto ambiguous = r.resolveRun("abc0000");
    QVERIFY(!ambiguous); // too short
    QCOMPARE(ambiguous.error().code, ErrorCode::InvalidInput);
    auto none = r.resolveRun("deadbeef");
    QVERIFY(!none);
    QCOMPARE(none.error().code, ErrorCode::NotFound);
    auto nonHex = r.resolveRun("zzzzzzzz");
    QVERIFY(!nonHex);
}

void TestHistoryReader::samplesAndDerive()
{
    HistoryReader r;
    QVERIFY(r.open(m_db));
    const auto pts = r.points({StorageTest::uuidFor(0xabc00001u), StorageTest::uuidFor(0xabc00002u)});
    QVERIFY(pts);
    QCOMPARE(pts->size(), 5u); // 2 + 3 scenarios × 1 point... only scenario 0 got requests
    const PointRow &p = pts->front();
    auto ttft = r.samples(p.id, "ttft_ms");
    QVERIFY(ttft);
    auto rows = r.requests(p.id, false);
    std::size_t okMeasured = 0;
    for (const RequestRow &q : *rows)
        okMeasured += q.errorClass == 0;
    QCOMPARE(ttft->size(), okMeasured);
    QVERIFY(!r.samples(p.id, "bogus"));

    // Reference percentile: NumPy linear over the sorted sample, computed independently here.
    auto pct = [](std::vector<double> v, double q) {
        std::sort(v.begin(), v.end());
        const double h = (static_cast<double>(v.size()) - 1) * q / 100.0;
        const auto lo = static_cast<std::size_t>(h);
        return lo + 1 < v.size() ? v[lo] + (h - static_cast<double>(lo)) * (v[lo + 1] - v[lo]) : v[lo];
    };
    DeriveOptions opt;
    opt.percentiles = {50, 90, 95, 99.5};
    opt.windowStartNs = 0;
    opt.windowEndNs = 2'000'000'000; // first 2 s of sends: seq 0..1999 → the whole point
    auto d = r.derivePoint(p.id, opt);
    QVERIFY(d);
    QCOMPARE((*d)["n_ok"].get<std::size_t>(), okMeasured);
    QVERIFY(std::abs((*d)["ttft_ms"]["p90"].get<double>() - pct(*ttft, 90)) < 1e-9);
    QVERIFY(std::abs((*d)["ttft_ms"]["p50"].get<double>() - pct(*ttft, 50)) < 1e-9);
    QVERIFY((*d)["ttft_ms"]["p99_5"].is_null()); // n < 10/(1 − 0.995) = 2000
    QCOMPARE((*d)["gpus"].get<int>(), 8);
    opt.gpus = 1;
    auto perOne = r.derivePoint(p.id, opt);
    QVERIFY(std::abs((*perOne)["output_tps_per_gpu"].get<double>() -
                     8 * (*d)["output_tps_per_gpu"].get<double>()) < 1e-6);
    opt.windowEndNs = 500'000'000; // a narrower window: fewer requests
    auto narrow = r.derivePoint(p.id, opt);
    QVERIFY((*narrow)["n_sent"].get<int>() < (*d)["n_sent"].get<int>());
    opt.errorAdjusted = true;
    auto adjusted = r.derivePoint(p.id, opt);
    QVERIFY((*adjusted)["ttft_ms"]["n"].get<int>() > (*narrow)["ttft_ms"]["n"].get<int>());
}

void TestHistoryReader::maintenance()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath(QStringLiteral("m.sqlite")).toStdString();
    QVERIFY(QFile::copy(QString::fromStdString(m_db), QString::fromStdString(db)));
    auto before = HistoryMaintenance::size(db);
    QVERIFY(before);
    QCOMPARE(before->runs, std::int64_t(6));
    QVERIFY(before->eventBlobs > 0);
    QVERIFY(before->fileBytes > 0);
    auto pruned = HistoryMaintenance::pruneEvents(db, 0); // every run started before now
    QVERIFY(pruned);
    QCOMPARE(*pruned, before->eventBlobs);
    auto after = HistoryMaintenance::size(db);
    QCOMPARE(after->eventBlobs, std::int64_t(0));
    QCOMPARE(after->requests, before->requests); // request rows kept
    QVERIFY(HistoryMaintenance::deleteRuns(db, {StorageTest::uuidFor(0xabc00000u)}));
    auto deleted = HistoryMaintenance::size(db);
    QCOMPARE(deleted->runs, std::int64_t(5));
    QCOMPARE(deleted->requests, before->requests - 1000);
    QVERIFY(!HistoryMaintenance::deleteRuns(db, {"00000000-nope"}));
    QVERIFY(HistoryMaintenance::vacuum(db));
    auto vacuumed = HistoryMaintenance::size(db);
    QCOMPARE(vacuumed->freePages, std::int64_t(0));
    QVERIFY(vacuumed->fileBytes < before->fileBytes);
}

void TestHistoryReader::historyPath()
{
    QStandardPaths::setTestModeEnabled(true);
    qunsetenv("THROUGHLINE_DB");
    QCOMPARE(HistoryPath::resolve("/x/cli.sqlite"), std::string("/x/cli.sqlite"));
    qputenv("THROUGHLINE_DB", "/x/env.sqlite");
    QCOMPARE(HistoryPath::resolve("/x/cli.sqlite"), std::string("/x/cli.sqlite")); // --db wins
    QCOMPARE(HistoryPath::resolve(), std::string("/x/env.sqlite"));
    qunsetenv("THROUGHLINE_DB");
    const std::string def = HistoryPath::resolve();
    QVERIFY2(def.find("/Throughline/throughline/history.sqlite") != std::string::npos, def.c_str());
    QVERIFY2(def.find(".qttest") != std::string::npos, def.c_str()); // test mode: never the real home data
}

QTEST_GUILESS_MAIN(TestHistoryReader)
#include "tst_historyreader.moc"
