// Per-request server-timing breakdowns in the history (schema v6, request_breakdowns): what the writer stores
// the reader gives back value for value, a malformed row names its point, seq and field, and every path that
// removes or copies a run's requests (delete, resume, bundle export/import, merge) removes or copies them.
#include "core/servertiming/breakdownjson.h"
#include "core/metrics/timingsummary.h"
#include "core/storage/bundlemerger.h"
#include "core/storage/historymaintenance.h"
#include "core/storage/historyreader.h"
#include "core/storage/runbundle.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"
#include "storagetestutil.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace Throughline;

class TestRequestBreakdowns : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip();
    void storingAgainReplaces();
    void resetPointDropsThem();
    void malformedRowNamesPointSeqAndField();
    void deleteRunDeletesThem();
    void bundleExportImportCarriesThem();
    void mergeCarriesEveryShards();
};

namespace {

// Whole microseconds (the stored precision), every status, aligned parts with a bound, a problem text on
// some: the stored shape's every field is exercised.
RequestBreakdown makeBreakdown(std::uint64_t seq)
{
    RequestBreakdown b;
    b.seq = seq;
    for (int i = 0; i < kBreakdownParts; ++i) {
        PartValue &p = b.parts[size_t(i)];
        const bool unknown = (seq + std::uint64_t(i)) % 5 == 0;
        p.status = unknown ? PartStatus::Unknown : PartStatus::Measured;
        p.ms = unknown ? kNoValue : double((seq * 7 + std::uint64_t(i) * 1013) % 90'000) / 1e3;
    }
    b[BreakdownPart::Unattributed].status = PartStatus::Derived;
    b[BreakdownPart::Unattributed].ms = double(seq % 4000) / 1e3;
    if (seq % 3 == 0) {
        b[BreakdownPart::NetworkUp] = {1.25, PartStatus::Measured, true};
        b[BreakdownPart::NetworkDown] = {0.5, PartStatus::Measured, true};
        b.alignBoundMs = 0.125;
    }
    if (seq % 7 == 0)
        b.problem = "request r-" + std::to_string(seq) + ": vLLM metrics field `metrics`: missing";
    return b;
}

std::vector<RequestBreakdown> makeBreakdowns(std::uint64_t firstSeq, std::size_t n)
{
    std::vector<RequestBreakdown> out;
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(makeBreakdown(firstSeq + i));
    return out;
}

bool sameMs(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

// The first difference between two breakdowns, "" when equal in every field.
std::string difference(const RequestBreakdown &a, const RequestBreakdown &b)
{
    if (a.seq != b.seq)
        return "seq " + std::to_string(a.seq) + " vs " + std::to_string(b.seq);
    for (int i = 0; i < kBreakdownParts; ++i) {
        const PartValue &x = a.parts[size_t(i)], &y = b.parts[size_t(i)];
        if (!sameMs(x.ms, y.ms) || x.status != y.status || x.aligned != y.aligned)
            return "seq " + std::to_string(a.seq) + " part " + breakdownPartKey(BreakdownPart(i));
    }
    if (!sameMs(a.alignBoundMs, b.alignBoundMs))
        return "seq " + std::to_string(a.seq) + " bound";
    if (a.problem != b.problem)
        return "seq " + std::to_string(a.seq) + " problem";
    return {};
}

// "" when `got` is `want` breakdown for breakdown.
std::string differences(const std::vector<RequestBreakdown> &want, const std::vector<RequestBreakdown> &got)
{
    if (want.size() != got.size())
        return "count " + std::to_string(got.size()) + ", expected " + std::to_string(want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        if (std::string d = difference(want[i], got[i]); !d.empty())
            return d;
    return {};
}

std::int64_t countRows(const std::string &path, const char *sql)
{
    SqliteDb db;
    if (!db.open(path, SqliteDb::Mode::ReadOnly))
        return -1;
    auto v = db.queryInt(sql);
    return v ? *v : -1;
}

// A run of one scenario and two points of `n` requests each; point p gets breakdowns of its requests' seqs.
bool writeRun(const std::string &path, const RunStart &run, std::uint64_t firstSeq, std::size_t n,
              RunStatus status = RunStatus::Completed)
{
    StorageWriter w;
    if (!w.open(path))
        return false;
    w.beginRun(run);
    std::mt19937 rng(static_cast<unsigned>(firstSeq + 1));
    for (int p = 0; p < 2; ++p) {
        const std::uint64_t seq0 = firstSeq + std::uint64_t(p) * n;
        w.beginPoint(run.uuid, 0, p, nullptr, run.t0UnixNs + p * 1'000'000'000LL);
        w.addRequests(run.uuid, StorageTest::makeBatch(seq0, n, 0, p, 8, true, rng));
        // The point's summary as a run writes it: parts over every breakdown here, the join's counts.
        ServerTimingSummary timing = summarizeBreakdowns("vllm", "same_response", makeBreakdowns(seq0, n));
        timing.matched = int(n);
        timing.problemCount = 1;
        timing.problems = {"point " + std::to_string(p) + " from seq " + std::to_string(seq0)};
        w.finishPoint(run.uuid, FinishedPoint{0,
                                              p,
                                              {{"metrics", {{"output_tps_per_gpu", 1.0}}},
                                               {"server_timing", timing.toJson()}},
                                              "",
                                              0,
                                              1});
        w.setRequestBreakdowns(run.uuid, 0, p, makeBreakdowns(seq0, n));
    }
    w.finishRun(run.uuid, status);
    return bool(w.close());
}

std::vector<std::int64_t> pointIds(HistoryReader &reader, const std::string &uuid)
{
    std::vector<std::int64_t> out;
    auto d = reader.runDetail(uuid);
    if (d)
        for (const PointRow &p : d->points)
            out.push_back(p.id);
    return out;
}

} // namespace

void TestRequestBreakdowns::roundTrip()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const RunStart run = StorageTest::makeRun(StorageTest::uuidFor(26), 1, 2);
    QVERIFY(writeRun(path, run, 0, 120));
    HistoryReader reader;
    QVERIFY(reader.open(path));
    const auto ids = pointIds(reader, run.uuid);
    QCOMPARE(ids.size(), 2u);
    for (std::size_t p = 0; p < 2; ++p) {
        auto got = reader.requestBreakdowns(ids[p]);
        QVERIFY2(got, got ? "" : got.error().message.c_str());
        const std::string d = differences(makeBreakdowns(p * 120, 120), *got);
        QVERIFY2(d.empty(), d.c_str());
    }
    auto none = reader.requestBreakdowns(ids[1] + 1000); // no such point: nothing, not an error
    QVERIFY(none);
    QVERIFY(none->empty());
    // The stored text is the compact shape itself.
    QCOMPARE(countRows(path, "SELECT count(*) FROM request_breakdowns WHERE json LIKE '{\"bound_ms\":%' OR "
                             "json LIKE '{\"ms\":%'"),
             std::int64_t(240));
}

void TestRequestBreakdowns::storingAgainReplaces()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const RunStart run = StorageTest::makeRun(StorageTest::uuidFor(27), 1, 2);
    QVERIFY(writeRun(path, run, 0, 50));
    {
        StorageWriter w;
        QVERIFY(w.open(path));
        w.setRequestBreakdowns(run.uuid, 0, 0, makeBreakdowns(10, 5));
        w.setRequestBreakdowns(run.uuid, 0, 1, {}); // empty: nothing to store, the old rows stay
        QVERIFY(w.close());
    }
    HistoryReader reader;
    QVERIFY(reader.open(path));
    const auto ids = pointIds(reader, run.uuid);
    const std::string d0 = differences(makeBreakdowns(10, 5), *reader.requestBreakdowns(ids[0]));
    QVERIFY2(d0.empty(), d0.c_str());
    QCOMPARE(reader.requestBreakdowns(ids[1])->size(), 50u);
}

void TestRequestBreakdowns::resetPointDropsThem()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const RunStart run = StorageTest::makeRun(StorageTest::uuidFor(28), 1, 2);
    QVERIFY(writeRun(path, run, 0, 40, RunStatus::Cancelled));
    {
        StorageWriter w;
        QVERIFY(w.open(path));
        w.reopenRun(run.uuid);
        w.resetPoint(run.uuid, 0, 1); // resume: the point's requests go, so do their breakdowns
        QVERIFY(w.close());
    }
    HistoryReader reader;
    QVERIFY(reader.open(path));
    const auto ids = pointIds(reader, run.uuid);
    QCOMPARE(reader.requestBreakdowns(ids[0])->size(), 40u);
    QVERIFY(reader.requestBreakdowns(ids[1])->empty());
}

void TestRequestBreakdowns::malformedRowNamesPointSeqAndField()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const RunStart run = StorageTest::makeRun(StorageTest::uuidFor(29), 1, 2);
    QVERIFY(writeRun(path, run, 0, 10));
    std::int64_t point = 0;
    {
        SqliteDb db;
        QVERIFY(db.open(path));
        point = *db.queryInt("SELECT min(point_id) FROM request_breakdowns");
        QVERIFY(db.exec(
            "UPDATE request_breakdowns SET json = '{\"seq\":4,\"ms\":[1,2],\"status\":\"mmmmmmmmmmm\"}' "
            "WHERE seq = 4"));
    }
    HistoryReader reader;
    QVERIFY(reader.open(path));
    auto bad = reader.requestBreakdowns(point);
    QVERIFY(!bad);
    const std::string &m = bad.error().message;
    QVERIFY2(m.find("point " + std::to_string(point)) != std::string::npos, m.c_str());
    QVERIFY2(m.find("seq 4") != std::string::npos, m.c_str());
    QVERIFY2(m.find("`ms`") != std::string::npos, m.c_str());
    {
        SqliteDb db;
        QVERIFY(db.open(path));
        QVERIFY(db.exec("UPDATE request_breakdowns SET json = 'not json' WHERE seq = 4"));
    }
    auto notJson = reader.requestBreakdowns(point);
    QVERIFY(!notJson);
    QVERIFY2(notJson.error().message.find("seq 4") != std::string::npos, notJson.error().message.c_str());
}

void TestRequestBreakdowns::deleteRunDeletesThem()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const RunStart gone = StorageTest::makeRun(StorageTest::uuidFor(30), 1, 2);
    const RunStart kept = StorageTest::makeRun(StorageTest::uuidFor(31), 1, 2);
    QVERIFY(writeRun(path, gone, 0, 30));
    QVERIFY(writeRun(path, kept, 0, 20));
    QCOMPARE(countRows(path, "SELECT count(*) FROM request_breakdowns"), std::int64_t(100));
    QVERIFY(HistoryMaintenance::deleteRuns(path, {gone.uuid}));
    QCOMPARE(countRows(path, "SELECT count(*) FROM request_breakdowns"), std::int64_t(40));
    QCOMPARE(countRows(path, "SELECT count(*) FROM request_breakdowns WHERE point_id NOT IN (SELECT id FROM "
                             "points)"),
             std::int64_t(0));
}

void TestRequestBreakdowns::bundleExportImportCarriesThem()
{
    QTemporaryDir dir;
    const std::string source = dir.filePath(QStringLiteral("a.sqlite")).toStdString();
    const std::string target = dir.filePath(QStringLiteral("b.sqlite")).toStdString();
    const std::string bundle = dir.filePath(QStringLiteral("run.tlrun")).toStdString();
    const RunStart run = StorageTest::makeRun(StorageTest::uuidFor(32), 1, 2);
    QVERIFY(writeRun(source, run, 0, 60));
    // The target already holds a run, so the imported points get other ids than in the source.
    QVERIFY(writeRun(target, StorageTest::makeRun(StorageTest::uuidFor(33), 1, 2), 0, 5));
    QVERIFY(RunBundle::exportRun(source, run.uuid, bundle));
    auto imported = RunBundle::importBundle(bundle, target);
    QVERIFY2(imported, imported ? "" : imported.error().message.c_str());
    HistoryReader reader;
    QVERIFY(reader.open(target));
    const auto ids = pointIds(reader, run.uuid);
    QCOMPARE(ids.size(), 2u);
    for (std::size_t p = 0; p < 2; ++p) {
        const std::string d = differences(makeBreakdowns(p * 60, 60), *reader.requestBreakdowns(ids[p]));
        QVERIFY2(d.empty(), d.c_str());
    }
}

void TestRequestBreakdowns::mergeCarriesEveryShards()
{
    QTemporaryDir dir;
    std::vector<std::string> bundles;
    for (int shard = 0; shard < 2; ++shard) {
        const std::string db = dir.filePath(QStringLiteral("s%1.sqlite").arg(shard)).toStdString();
        RunStart run = StorageTest::makeRun(StorageTest::uuidFor(40 + unsigned(shard)), 1, 2);
        run.shard = std::to_string(shard) + "/2";
        QVERIFY(writeRun(db, run, std::uint64_t(shard) * 1000, 30));
        bundles.push_back(dir.filePath(QStringLiteral("s%1.tlrun").arg(shard)).toStdString());
        QVERIFY(RunBundle::exportRun(db, run.uuid, bundles.back()));
    }
    const std::string out = dir.filePath(QStringLiteral("merged.tlrun")).toStdString();
    auto report = BundleMerger::merge(bundles, out);
    QVERIFY2(report, report ? "" : report.error().message.c_str());
    HistoryReader reader;
    QVERIFY(reader.open(out));
    const auto ids = pointIds(reader, report->uuid);
    QCOMPARE(ids.size(), 2u);
    for (std::size_t p = 0; p < 2; ++p) {
        std::vector<RequestBreakdown> want = makeBreakdowns(p * 30, 30);
        for (RequestBreakdown &b : makeBreakdowns(1000 + p * 30, 30))
            want.push_back(std::move(b));
        const std::string d = differences(want, *reader.requestBreakdowns(ids[p]));
        QVERIFY2(d.empty(), d.c_str());
        // The merged point's summary: parts over the merged measured requests (makeRecord: every tenth seq
        // is warm-up, seq % 97 == 5 failed), the shards' counts summed.
        std::vector<RequestBreakdown> measured;
        for (const RequestBreakdown &b : want)
            if (b.seq % 10 != 0 && b.seq % 97 != 5)
                measured.push_back(b);
        const auto detail = reader.runDetail(report->uuid);
        QVERIFY(detail);
        const auto got = ServerTimingSummary::fromJson(detail->points.at(p).aggregates.at("server_timing"));
        QVERIFY2(got, got ? "" : got.error().message.c_str());
        const ServerTimingSummary expected = summarizeBreakdowns("vllm", "same_response", measured);
        QCOMPARE(got->requests, int(measured.size()));
        QVERIFY(got->toJson().at("parts") == expected.toJson().at("parts"));
        QCOMPARE(got->matched, 60);
        QCOMPARE(got->problemCount, 2);
        QCOMPARE(got->problems.size(), std::size_t(2));
    }
}

QTEST_GUILESS_MAIN(TestRequestBreakdowns)
#include "tst_requestbreakdowns.moc"
