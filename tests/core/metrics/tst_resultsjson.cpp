// results.json / points.csv / requests.csv / JUnit writers: the document validates against the
// shipped JSON Schema, round-trips, and the files are written for real into a temporary folder.
#include "tests/common/jsonschemavalidator.h"
#include "core/results/junitxml.h"
#include "core/metrics/pointaggregate.h"
#include "core/metrics/repeatgroups.h"
#include "core/results/resultscsv.h"
#include "core/results/resultsjson.h"
#include "recordbuilder.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

using namespace Throughline;
using Throughline::Test::RecordBuilder;

namespace {

nlohmann::json loadSchema()
{
    QFile f(QStringLiteral(":/schemas/results.schema.json"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    const QByteArray b = f.readAll();
    return nlohmann::json::parse(b.constData(), b.constData() + b.size());
}

std::vector<RequestRecord> records()
{
    std::vector<RequestRecord> v;
    v.push_back(RecordBuilder(1).warmup().send(0).content({100, 200}).end(200).usage(2, 10));
    for (int i = 0; i < 30; ++i)
        v.push_back(RecordBuilder(2 + i)
                        .send(200 + i * 50)
                        .content({300 + i * 50.0, 320 + i * 50.0, 340 + i * 50.0})
                        .end(340 + i * 50)
                        .usage(3, 10));
    v.push_back(RecordBuilder(40).send(1800).end(1810).fail(ErrorClass::HttpStatus, 500));
    v.push_back(RecordBuilder(41).send(1900).content({1950}).end(1950).usage(1, 10));
    return v;
}

RunResults sampleRun(const std::vector<RequestRecord> &recs)
{
    RunResults run;
    run.runId = "0b3e7f7c-8d1c-4e0a-9a63-2f0a3c1d9e55";
    run.toolVersion = "0.1.0";
    run.startedUtc = "2026-11-29T16:00:00Z";
    run.simulated = true;
    run.timeScale = 1;
    run.campaignName = "demo, \"quoted\" <x>";
    run.campaignSha256 = std::string(64, 'a');

    Scenario sc;
    sc.id = "gpt-oss-20b/vllm/H200×1/Chat";
    sc.model.name = "gpt-oss-20b";
    sc.backend.id = "vllm";
    sc.gpu.name = "H200";
    sc.deployment.gpu = "H200";
    sc.phase = Phase{"Chat", 128, 128, {}, {}, {}};
    sc.slo = Slo{100, 0, 0, 90};

    ScenarioResult s = ScenarioResult::fromScenario(sc);
    for (int c : {1, 2}) {
        PointInput in;
        in.load.concurrency = c;
        in.records = recs;
        in.validity.minWindowS = 0.5;
        in.validity.minCompleted = 10;
        in.validity.maxErrorRate = 0.5;
        in.achievedConcurrency = c;
        in.confidenceLevel = c == 2 ? 0.95 : 0; // one point with intervals (results /3), one without
        PointResult p = aggregatePoint(in);
        s.points.push_back(p);
    }
    TargetRow r;
    r.metric = "output_tps_per_gpu";
    r.value = 1e6;
    r.kind = TargetKind::Baseline;
    s.verdict = judgeScenario(sc, s.points, {r});
    run.scenarios.push_back(s);

    sc.plan.firstTokenPriority = false; // the second scenario ran with one read order for every socket
    ScenarioResult empty = ScenarioResult::fromScenario(sc);
    empty.id = "gpt-oss-20b/vllm/H200×1/Reasoning";
    empty.phase = "Reasoning";
    empty.verdict = judgeScenario(sc, empty.points, {});
    run.scenarios.push_back(empty);
    return run;
}

std::vector<std::string> readLines(const std::string &path)
{
    std::ifstream f(path);
    std::vector<std::string> v;
    std::string line;
    while (std::getline(f, line))
        v.push_back(line);
    return v;
}

// Splits one CSV line (RFC 4180 quoting).
std::vector<std::string> splitCsv(const std::string &line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                out.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                out.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else {
            out.back() += c;
        }
    }
    return out;
}

} // namespace

class TestResultsJson : public QObject
{
    Q_OBJECT
private slots:
    void validatesAgainstSchema();
    void readsVersion1Files();
    void readsVersion2Files();
    void readsVersion3Files();
    void readsVersion4Files();
    void repeatsValidate();
    void schemaRejects_data();
    void schemaRejects();
    void roundTripThroughFile();
    void pointsCsv();
    void serverTimingInResultsAndCsv();
    void requestsCsv();
    void junit();
    void vocabularyInSync();
};

void TestResultsJson::validatesAgainstSchema()
{
    const nlohmann::json schema = loadSchema();
    QVERIFY(schema.is_object());
    const auto recs = records();
    const nlohmann::json doc = sampleRun(recs).toJson();
    QCOMPARE(doc["schema"].get<std::string>(), std::string(RunResults::kSchema));
    const auto problems = JsonSchemaValidator(schema).validate(doc);
    std::string all;
    for (const auto &p : problems)
        all += p + "\n";
    QVERIFY2(problems.empty(), all.c_str());
    QCOMPARE(doc["scenarios"][0]["verdict"]["status"].get<std::string>(), std::string("fail"));
    QVERIFY(doc["scenarios"][1]["verdict"]["operating_point"].is_null());
    // The engine's read order, from each scenario's plan.
    QVERIFY(doc["scenarios"][0]["engine"]["first_token_priority"] == nlohmann::json(true));
    QVERIFY(doc["scenarios"][1]["engine"]["first_token_priority"] == nlohmann::json(false));
}

void TestResultsJson::schemaRejects_data()
{
    QTest::addColumn<QByteArray>("pointer");
    QTest::addColumn<QByteArray>("replacement"); // JSON text; empty = remove the member
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("missing n_ok") << QByteArray("/scenarios/0/points/0/n_ok") << QByteArray()
                                  << QByteArray("/scenarios/0/points/0: missing required member \"n_ok\"");
    QTest::newRow("bad verdict status")
        << QByteArray("/scenarios/0/verdict/status") << QByteArray("\"maybe\"")
        << QByteArray("/scenarios/0/verdict/status: \"maybe\" is not one of");
    QTest::newRow("string where number")
        << QByteArray("/scenarios/0/points/0/metrics/output_tps") << QByteArray("\"fast\"")
        << QByteArray("/scenarios/0/points/0/metrics/output_tps: expected number|null");
    QTest::newRow("unknown flag") << QByteArray("/scenarios/0/points/0/validity/flags/0")
                                  << QByteArray("\"odd\"") << QByteArray("validity/flags/0");
    QTest::newRow("unknown metric key")
        << QByteArray("/scenarios/0/points/0/metrics/ttft_p90") << QByteArray("1")
        << QByteArray("/scenarios/0/points/0/metrics/ttft_p90: not allowed");
    QTest::newRow("wrong schema id") << QByteArray("/schema") << QByteArray("\"throughline.results/6\"")
                                     << QByteArray("is not one of");
    QTest::newRow("interval without its method")
        << QByteArray("/scenarios/0/points/1/intervals/metrics/ttft_ms/p50/method") << QByteArray()
        << QByteArray(
               "/scenarios/0/points/1/intervals/metrics/ttft_ms/p50: missing required member \"method\"");
    QTest::newRow("interval of an unknown method")
        << QByteArray("/scenarios/0/points/1/intervals/metrics/output_tps/value/method")
        << QByteArray("\"guess\"") << QByteArray("is not one of");
    QTest::newRow("interval level out of range") << QByteArray("/scenarios/0/points/1/intervals/level")
                                                 << QByteArray("1.5") << QByteArray("above maximum");
    QTest::newRow("read order not a boolean")
        << QByteArray("/scenarios/0/engine/first_token_priority") << QByteArray("\"off\"")
        << QByteArray("/scenarios/0/engine/first_token_priority: expected boolean");
    QTest::newRow("unknown engine setting")
        << QByteArray("/scenarios/0/engine/read_order") << QByteArray("\"fifo\"")
        << QByteArray("/scenarios/0/engine/read_order: not allowed");
    QTest::newRow("negative n") << QByteArray("/scenarios/0/points/0/metrics/ttft_ms/n") << QByteArray("-1")
                                << QByteArray("below minimum");
}

void TestResultsJson::schemaRejects()
{
    QFETCH(QByteArray, pointer);
    QFETCH(QByteArray, replacement);
    QFETCH(QByteArray, expected);
    const auto recs = records();
    nlohmann::json doc = sampleRun(recs).toJson();
    const nlohmann::json::json_pointer ptr(pointer.toStdString());
    if (replacement.isEmpty())
        doc[ptr.parent_pointer()].erase(ptr.back());
    else
        doc[ptr] = nlohmann::json::parse(replacement.toStdString());
    const auto problems = JsonSchemaValidator(loadSchema()).validate(doc);
    std::string all;
    for (const auto &p : problems)
        all += p + "\n";
    QVERIFY2(all.find(expected.toStdString()) != std::string::npos, all.c_str());
}

void TestResultsJson::roundTripThroughFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("results.json")).toStdString();
    const auto recs = records();
    const RunResults run = sampleRun(recs);
    QVERIFY(writeResultsJson(run, path).ok());
    const auto back = readResultsJson(path);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QVERIFY(back->toJson() == run.toJson());
    QCOMPARE(back->scenarios[0].points.size(), std::size_t(2));
    QCOMPARE(back->exitCode(false), 1);
    QCOMPARE(back->scenarios[0].firstTokenPriority, std::optional<bool>(true));
    QCOMPARE(back->scenarios[1].firstTokenPriority, std::optional<bool>(false));
    // Files written before the field existed read as "not known", and are written back without it.
    nlohmann::json old = run.toJson();
    old["scenarios"][0].erase("engine");
    auto fromOld = RunResults::fromJson(old);
    QVERIFY(fromOld.ok());
    QVERIFY(!fromOld->scenarios[0].firstTokenPriority);
    QVERIFY(!fromOld->toJson()["scenarios"][0].contains("engine"));
    old["scenarios"][0]["engine"] = {{"first_token_priority", "on"}};
    auto bad = RunResults::fromJson(old);
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().message,
             std::string("results.json: scenarios[0].engine.first_token_priority: expected true or false"));

    std::ofstream(path) << "{\"schema\": \"throughline.results/7\"}";
    const auto newer = readResultsJson(path);
    QVERIFY(!newer.ok());
    QCOMPARE(newer.error().code, ErrorCode::Unsupported);
    QVERIFY(
        !writeResultsJson(run, dir.filePath(QStringLiteral("missing/dir/results.json")).toStdString()).ok());
}

// A results.json written by the /1 writer (main before issue 25: `throughline-cli run` of the demo's Chat
// phase at λ = 5 and 20, time scale 20) still validates, opens with the client's error budget unmeasured,
// and is written back as the current schema with the same figures.
void TestResultsJson::readsVersion1Files()
{
    const std::string path = THROUGHLINE_TEST_DATA_DIR "/results/results-v1.json";
    std::ifstream in(path);
    const nlohmann::json v1 = nlohmann::json::parse(in);
    QCOMPARE(v1["schema"].get<std::string>(), std::string("throughline.results/1"));
    const auto problems = JsonSchemaValidator(loadSchema()).validate(v1);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());

    const auto run = readResultsJson(path);
    QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
    QCOMPARE(run->scenarios.size(), std::size_t(1));
    QCOMPARE(run->scenarios[0].points.size(), std::size_t(2));
    const PointResult &p = run->scenarios[0].points[0];
    QCOMPARE(p.client.cpuPct, v1["scenarios"][0]["points"][0]["client"]["cpu_pct"].get<double>());
    QVERIFY(std::isnan(p.client.sendBlockedMs));
    QVERIFY(std::isnan(p.client.addedDelayP99Ms));
    QCOMPARE(p.metrics.ttftMs.p[0],
             v1["scenarios"][0]["points"][0]["metrics"]["ttft_ms"]["p50"].get<double>());

    const nlohmann::json v2 = run->toJson();
    QCOMPARE(v2["schema"].get<std::string>(), std::string(RunResults::kSchema));
    QVERIFY(v2["scenarios"][0]["points"][0]["client"]["send_blocked_ms"].is_null());
    QVERIFY(v2["scenarios"][0]["points"][1]["metrics"] == v1["scenarios"][0]["points"][1]["metrics"]);
    QVERIFY(JsonSchemaValidator(loadSchema()).validate(v2).empty());
    const auto again = RunResults::fromJson(v2);
    QVERIFY(again.ok());
    QVERIFY(again->toJson() == v2);
}

// A results.json of schema /2 (the demo's Chat scenario as the /2 writer wrote it: no "intervals", checks
// judged on the value — made from a /3 run of the demo with the /3 additions taken out, which is what the
// /2 writer produced) still validates and opens; its points carry no intervals, so a verdict re-judged on
// them decides on the value as before, and it is written back as /3 without inventing intervals.
void TestResultsJson::readsVersion2Files()
{
    const std::string path = THROUGHLINE_TEST_DATA_DIR "/results/results-v2.json";
    std::ifstream in(path);
    const nlohmann::json v2 = nlohmann::json::parse(in);
    QCOMPARE(v2["schema"].get<std::string>(), std::string("throughline.results/2"));
    const auto problems = JsonSchemaValidator(loadSchema()).validate(v2);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());

    const auto run = readResultsJson(path);
    QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
    const ScenarioResult &s = run->scenarios.at(0);
    QCOMPARE(s.points.size(), std::size_t(4));
    QCOMPARE(s.verdict.status, Verdict::Status::Pass);
    for (const PointResult &p : s.points)
        QVERIFY(p.intervals.empty());
    Scenario sc;
    sc.slo = Slo{2000, 100, 0, 90}; // the demo's Chat SLO
    const Verdict again = judgeScenario(sc, s.points, {});
    QCOMPARE(again.checks.size(), std::size_t(2));
    for (const VerdictCheck &c : again.checks)
        QVERIFY(c.outcome == VerdictCheck::Outcome::Pass && c.level == 0);

    const nlohmann::json v3 = run->toJson();
    QCOMPARE(v3["schema"].get<std::string>(), std::string(RunResults::kSchema));
    QVERIFY(!v3["scenarios"][0]["points"][0].contains("intervals"));
    QVERIFY(v3["scenarios"][0]["points"][2]["metrics"] == v2["scenarios"][0]["points"][2]["metrics"]);
    QVERIFY(v3["scenarios"][0]["verdict"] == v2["scenarios"][0]["verdict"]);
    QVERIFY(JsonSchemaValidator(loadSchema()).validate(v3).empty());
}

// A results.json of schema /3 (tests/data/results/compare-base.json: a demo-shaped run written by the /3
// writer, before repeats) validates and opens as a run without repeats, and is written back as the current
// version without inventing any repeat fields.
void TestResultsJson::readsVersion3Files()
{
    const std::string path = THROUGHLINE_TEST_DATA_DIR "/results/compare-base.json";
    std::ifstream in(path);
    const nlohmann::json v3 = nlohmann::json::parse(in);
    QCOMPARE(v3["schema"].get<std::string>(), std::string("throughline.results/3"));
    const auto problems = JsonSchemaValidator(loadSchema()).validate(v3);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    const auto run = readResultsJson(path);
    QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
    QVERIFY(!run->scenarios.empty());
    for (const ScenarioResult &s : run->scenarios)
        for (const PointResult &p : s.points) {
            QCOMPARE(p.load.repeat, 0);
            QVERIFY(p.acrossRepeats.empty());
            QVERIFY(!p.intervals.empty());
        }
    const nlohmann::json now = run->toJson();
    QCOMPARE(now["schema"].get<std::string>(), std::string(RunResults::kSchema));
    for (std::size_t i = 0; i < v3["scenarios"].size(); ++i) {
        QVERIFY(now["scenarios"][i]["verdict"] == v3["scenarios"][i]["verdict"]);
        QVERIFY(now["scenarios"][i]["points"] == v3["scenarios"][i]["points"]);
    }
}

// A results.json of schema /4 (tests/data/results/results-v4.json: the demo's Chat phase at two loads with
// two repeats, written by the /4 writer, before server timing) validates and opens with no server timing on
// any point, and is written back as the current version with its points unchanged.
void TestResultsJson::readsVersion4Files()
{
    const std::string path = THROUGHLINE_TEST_DATA_DIR "/results/results-v4.json";
    std::ifstream in(path);
    const nlohmann::json v4 = nlohmann::json::parse(in);
    QCOMPARE(v4["schema"].get<std::string>(), std::string("throughline.results/4"));
    const auto problems = JsonSchemaValidator(loadSchema()).validate(v4);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    const auto run = readResultsJson(path);
    QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
    const ScenarioResult &s = run->scenarios.at(0);
    QCOMPARE(s.points.size(), std::size_t(4));
    QCOMPARE(s.points[1].load.repeat, 2);
    for (const PointResult &p : s.points)
        QVERIFY(p.serverTiming.empty());
    const nlohmann::json now = run->toJson();
    QCOMPARE(now["schema"].get<std::string>(), std::string(RunResults::kSchema));
    QVERIFY(now["scenarios"][0]["points"] == v4["scenarios"][0]["points"]);
    QVERIFY(now["scenarios"][0]["verdict"] == v4["scenarios"][0]["verdict"]);
    QVERIFY(JsonSchemaValidator(loadSchema()).validate(now).empty());
}

// Repeats (results /4): load.repeat, intervals_across and the checks' interval_source validate.
void TestResultsJson::repeatsValidate()
{
    const auto recs = records();
    RunResults run = sampleRun(recs);
    ScenarioResult &s = run.scenarios[0];
    PointResult again = s.points[1];
    again.metrics.outputTps *= 1.01;
    again.metrics.outputTpsPerGpu *= 1.01;
    s.points[1].load.repeat = 1;
    again.load.repeat = 2;
    s.points.push_back(again);
    fillAcrossRepeatIntervals(s.points);
    Scenario sc;
    TargetRow r;
    r.metric = "output_tps_per_gpu";
    r.value = 1;
    r.kind = TargetKind::Slo;
    s.verdict = judgeScenario(sc, s.points, {r});
    const nlohmann::json doc = run.toJson();
    QVERIFY(doc["scenarios"][0]["points"][2].contains("intervals_across"));
    QVERIFY(doc["scenarios"][0]["verdict"]["checks"][0].contains("interval_source"));
    const auto problems = JsonSchemaValidator(loadSchema()).validate(doc);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
}

void TestResultsJson::pointsCsv()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("points.csv")).toStdString();
    const auto recs = records();
    const RunResults run = sampleRun(recs);
    QVERIFY(writePointsCsv(run, path).ok());
    const auto lines = readLines(path);
    QCOMPARE(lines.size(), std::size_t(3)); // header + 2 points (the empty scenario has none)
    const auto header = splitCsv(lines[0]);
    for (const char *col : {"scenario_id", "output_tps_per_gpu", "ttft_ms_p90", "tpot_ms_p50",
                            "interactivity_tps_user_n", "client_cpu_pct", "flags", "operating_point"})
        QVERIFY2(std::find(header.begin(), header.end(), col) != header.end(), col);
    const auto row = splitCsv(lines[1]);
    QCOMPARE(row.size(), header.size());
    auto cell = [&](const char *col) {
        return row[std::find(header.begin(), header.end(), col) - header.begin()];
    };
    QCOMPARE(cell("scenario_id"), std::string("gpt-oss-20b/vllm/H200×1/Chat"));
    QCOMPARE(cell("concurrency"), std::string("1"));
    QCOMPARE(cell("n_ok"), std::string(std::to_string(run.scenarios[0].points[0].nOk)));
    QCOMPARE(cell("ttft_ms_p90"), std::string()); // n = 31 < 100: n/a → empty
    QCOMPARE(cell("ttft_ms_p50"), csvNumber(*run.scenarios[0].points[0].metricValue("ttft_ms", "p50")));
    QCOMPARE(cell("errors"), std::string("http_status:1"));
    QCOMPARE(std::stod(cell("output_tps")), run.scenarios[0].points[0].metrics.outputTps);
}

// A point's server-timing summary (results /5 "server_timing") validates against the schema, survives the
// file, and fills the breakdown columns of points.csv; a point without it leaves them empty.
void TestResultsJson::serverTimingInResultsAndCsv()
{
    QTemporaryDir dir;
    const auto recs = records();
    RunResults run = sampleRun(recs);
    std::vector<RequestBreakdown> breakdowns;
    for (double prefill : {10.0, 20.0, 30.0}) {
        RequestBreakdown b;
        b.seq = breakdowns.size() + 2;
        b[BreakdownPart::Prefill] = {prefill, PartStatus::Measured, false};
        b[BreakdownPart::Decode] = {prefill * 2, PartStatus::Derived, false};
        breakdowns.push_back(b);
    }
    run.scenarios[0].points[1].serverTiming = summarizeBreakdowns("vllm", "same_response", breakdowns);
    const nlohmann::json doc = run.toJson();
    QCOMPARE(doc["scenarios"][0]["points"][1]["server_timing"]["parts"]["prefill"]["p50"].get<double>(),
             20.0);
    QVERIFY(!doc["scenarios"][0]["points"][0].contains("server_timing"));
    const auto problems = JsonSchemaValidator(loadSchema()).validate(doc);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());

    const std::string path = dir.filePath(QStringLiteral("results.json")).toStdString();
    QVERIFY(writeResultsJson(run, path).ok());
    const auto back = readResultsJson(path);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QVERIFY(back->scenarios[0].points[1].serverTiming.toJson() ==
            run.scenarios[0].points[1].serverTiming.toJson());

    const std::string csv = dir.filePath(QStringLiteral("points.csv")).toStdString();
    QVERIFY(writePointsCsv(run, csv).ok());
    const auto lines = readLines(csv);
    const auto header = splitCsv(lines.at(0));
    auto cell = [&](int line, const char *col) {
        const auto it = std::find(header.begin(), header.end(), col);
        return it == header.end() ? std::string("<no column>")
                                  : splitCsv(lines.at(line))[it - header.begin()];
    };
    QCOMPARE(splitCsv(lines[2]).size(), header.size());
    QCOMPARE(cell(2, "server_timing_format"), std::string("vllm"));
    QCOMPARE(cell(2, "breakdown_prefill_status"), std::string("measured"));
    QCOMPARE(cell(2, "breakdown_prefill_p50_ms"), std::string("20"));
    QCOMPARE(cell(2, "breakdown_decode_status"), std::string("derived"));
    QCOMPARE(cell(2, "breakdown_decode_mean_ms"), std::string("40"));
    QCOMPARE(cell(2, "breakdown_kv_transfer_status"), std::string());
    QCOMPARE(cell(1, "server_timing_format"), std::string());
    QCOMPARE(cell(1, "breakdown_prefill_p50_ms"), std::string());
}

void TestResultsJson::requestsCsv()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("requests.csv")).toStdString();
    const auto recs = records();
    RequestsCsvWriter w;
    QVERIFY(w.open(path).ok());
    for (const auto &r : recs)
        w.append("s,1", 0, r, computeRequestMetrics(r), !r.warmup);
    QVERIFY(w.close().ok());
    const auto lines = readLines(path);
    QCOMPARE(lines.size(), recs.size() + 1);
    const auto header = splitCsv(lines[0]);
    QCOMPARE(header, requestsCsvHeader());
    const auto first = splitCsv(lines[2]); // seq 2: send 200, tokens 300/320/340
    QCOMPARE(first.size(), header.size());
    QCOMPARE(first[0], std::string("s,1"));
    auto cell = [&](const std::vector<std::string> &row, const char *col) {
        return row[std::find(header.begin(), header.end(), col) - header.begin()];
    };
    QCOMPARE(cell(first, "ttft_ms"), std::string("100"));
    QCOMPARE(cell(first, "tpot_ms"), std::string("20"));
    QCOMPARE(cell(first, "n_out_source"), std::string("usage"));
    const auto failed = splitCsv(lines[lines.size() - 2]);
    QCOMPARE(cell(failed, "error"), std::string("http_status"));
    QCOMPARE(cell(failed, "ttft_ms"), std::string());
    QCOMPARE(cell(splitCsv(lines.back()), "tpot_ms"), std::string()); // N_out = 1
}

void TestResultsJson::junit()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("junit.xml")).toStdString();
    const auto recs = records();
    const RunResults run = sampleRun(recs);
    QVERIFY(writeJUnitXml(run, path).ok());
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    int testcases = 0, failures = 0, errors = 0;
    QString suiteName;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("testsuite"))
            suiteName = xml.attributes().value(QLatin1String("name")).toString();
        if (xml.name() == QLatin1String("testcase"))
            ++testcases;
        if (xml.name() == QLatin1String("failure"))
            ++failures;
        if (xml.name() == QLatin1String("error"))
            ++errors;
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(testcases, 2);
    QCOMPARE(failures, 1);
    QCOMPARE(errors, 1);
    QCOMPARE(suiteName, QStringLiteral("demo, \"quoted\" <x>"));
}

void TestResultsJson::vocabularyInSync()
{
    // metric_definitions.json (UI tooltips), docs/metrics.md and the code name the same metrics.
    QFile f(QStringLiteral(":/catalog/metric_definitions.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray b = f.readAll();
    const nlohmann::json defs = nlohmann::json::parse(b.constData(), b.constData() + b.size());
    std::vector<std::string> fromDefs;
    for (const auto &m : defs["metrics"]) {
        fromDefs.push_back(m["key"].get<std::string>());
        QVERIFY(!m["tooltip"].get<std::string>().empty());
    }
    std::vector<std::string> fromCode;
    for (auto k : scalarMetricKeys())
        fromCode.emplace_back(k);
    for (auto k : distributionMetricKeys())
        fromCode.emplace_back(k);
    std::sort(fromDefs.begin(), fromDefs.end());
    std::sort(fromCode.begin(), fromCode.end());
    QCOMPARE(fromDefs, fromCode);

    std::ifstream docFile(std::string(THROUGHLINE_SOURCE_DIR) + "/docs/metrics.md");
    QVERIFY(docFile.good());
    std::stringstream doc;
    doc << docFile.rdbuf();
    for (const auto &k : fromCode)
        QVERIFY2(doc.str().find("`" + k + "`") != std::string::npos, k.c_str());
    for (const auto &flag : defs["validity_flags"])
        QVERIFY(doc.str().find("`" + flag["key"].get<std::string>() + "`") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestResultsJson)
#include "tst_resultsjson.moc"
