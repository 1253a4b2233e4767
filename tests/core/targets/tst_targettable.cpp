// Target tables: the file format, errors with file:line:column and field, preset selection,
// scenario matching and the shipped tables (generated from the reference CSVs).
#include "core/targets/targettable.h"

#include <QFile>
#include <QTest>

#include <fstream>
#include <map>
#include <sstream>

using namespace Throughline;

namespace {

std::string dataPath(const char *name)
{
    return std::string(THROUGHLINE_TEST_DATA_DIR) + "/targets/" + name;
}

Scenario scenario(const std::string &model, const std::string &gpu, int gpus, const std::string &phase,
                  const std::string &precision = "FP8")
{
    Scenario s;
    s.model.name = model;
    s.backend.id = "vllm";
    s.gpu.name = gpu;
    s.deployment.gpu = gpu;
    s.deployment.gpus = gpus;
    s.deployment.precision = precision;
    s.phase.name = phase;
    return s;
}

std::vector<int> lines(const std::vector<TargetRow> &rows)
{
    std::vector<int> v;
    for (const auto &r : rows)
        v.push_back(r.line);
    return v;
}

} // namespace

class TestTargetTable : public QObject
{
    Q_OBJECT
private slots:
    void validFile();
    void presets();
    void errors_data();
    void errors();
    void missingFile();
    void shippedTablesLoad_data();
    void shippedTablesLoad();
    void perfOverviewMatchesCsv();
    void demoTargetsMatchDemoScenario();
};

void TestTargetTable::validFile()
{
    auto t = TargetTable::load(dataPath("valid.json"));
    QVERIFY2(t.ok(), t.ok() ? "" : t.error().message.c_str());
    QCOMPARE(t->name(), std::string("test table"));
    QCOMPARE(t->rows().size(), std::size_t(7));
    const TargetRow &r0 = t->rows()[0];
    QCOMPARE(r0.line, 7);
    QCOMPARE(r0.metric, std::string("output_tps_per_gpu"));
    QCOMPARE(r0.stat, std::string("value")); // default
    QCOMPARE(r0.cmp, Comparator::GreaterEqual);
    QCOMPARE(r0.value, 1000.0);
    QCOMPARE(r0.kind, TargetKind::Baseline);
    QCOMPARE(t->rows()[1].cmp, Comparator::LessEqual);
    QCOMPARE(t->rows()[1].kind, TargetKind::Slo);
    QCOMPARE(t->rows()[4].kind, TargetKind::Informational);
    QCOMPARE(t->activePreset(), std::string("server"));

    // gpt-oss-20b / H200 × 1 / Chat / FP8: glob model row, any-model Chat row, server preset row.
    QCOMPARE(lines(t->matching(scenario("gpt-oss-20b", "H200", 1, "Chat"))), (std::vector<int>{7, 9, 10}));
    // Case-insensitive names; other phase drops the Chat rows.
    QCOMPARE(lines(t->matching(scenario("GPT-OSS-20B", "h200", 1, "Reasoning"))), (std::vector<int>{10}));
    QCOMPARE(lines(t->matching(scenario("gpt-oss-20b", "H200", 8, "Reasoning"))), (std::vector<int>{10, 12}));
    QCOMPARE(lines(t->matching(scenario("gpt-oss-20b", "B200", 2, "Reasoning", "FP4"))),
             (std::vector<int>{10, 13}));
    QCOMPARE(lines(t->matching(scenario("gpt-oss-120b", "H100", 1, "Chat"))), (std::vector<int>{9}));
}

void TestTargetTable::presets()
{
    auto t = TargetTable::load(dataPath("valid.json") + "#interactive");
    QVERIFY(t.ok());
    QCOMPARE(t->activePreset(), std::string("interactive"));
    QCOMPARE(lines(t->matching(scenario("gpt-oss-20b", "H200", 1, "Chat"))), (std::vector<int>{7, 9, 11}));
    const auto bad = TargetTable::load(dataPath("valid.json") + "#offline");
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error().message.find("unknown preset \"offline\"") != std::string::npos,
             bad.error().message.c_str());
    QVERIFY(bad.error().message.find("server, interactive") != std::string::npos);
}

void TestTargetTable::errors_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("bad cmp") << QByteArray("bad_cmp.json")
                             << QByteArray(
                                    "bad_cmp.json:6:6: targets[1].cmp: expected \">=\" or \"<=\", got \"<\"");
    QTest::newRow("unknown metric") << QByteArray("unknown_metric.json")
                                    << QByteArray(
                                           "unknown_metric.json:4:6: targets[0].metric: \"ttft_p90_ms\"");
    QTest::newRow("stat of a scalar")
        << QByteArray("wrong_stat.json")
        << QByteArray("with stat \"p90\" is not in the results.json vocabulary");
    QTest::newRow("missing value") << QByteArray("missing_value.json")
                                   << QByteArray("missing_value.json:4:5: targets[0].value: missing");
    QTest::newRow("syntax") << QByteArray("syntax.json") << QByteArray("syntax.json:4:");
    QTest::newRow("unknown field") << QByteArray("unknown_field.json")
                                   << QByteArray("targets[0].comparator: unknown field");
    QTest::newRow("bad kind") << QByteArray("bad_kind.json")
                              << QByteArray("targets[0].kind: expected baseline, slo or informational");
    QTest::newRow("wrong schema") << QByteArray("wrong_schema.json")
                                  << QByteArray("wrong_schema.json:2:3: schema: expected");
    QTest::newRow("unknown preset") << QByteArray("unknown_preset.json")
                                    << QByteArray("targets[0].preset: \"offline\" is not listed");
}

void TestTargetTable::errors()
{
    QFETCH(QByteArray, file);
    QFETCH(QByteArray, expected);
    const auto t = TargetTable::load(dataPath(file.constData()));
    QVERIFY(!t.ok());
    QCOMPARE(t.error().code, ErrorCode::InvalidInput);
    QVERIFY2(t.error().message.find(expected.toStdString()) != std::string::npos, t.error().message.c_str());
}

void TestTargetTable::missingFile()
{
    const auto t = TargetTable::load(dataPath("does-not-exist.json"));
    QVERIFY(!t.ok());
    QCOMPARE(t.error().code, ErrorCode::NotFound);
    QVERIFY(t.error().message.find("does-not-exist.json") != std::string::npos);
}

void TestTargetTable::shippedTablesLoad_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<int>("rows");
    QTest::newRow("perf overview") << QByteArray(":/targets/trtllm-perf-overview.json") << 19;
    QTest::newRow("mlperf slo") << QByteArray(":/targets/mlperf-slo.json") << 16;
    QTest::newRow("mlperf slo interactive") << QByteArray(":/targets/mlperf-slo.json#interactive") << 16;
    QTest::newRow("demo") << QByteArray(":/targets/demo-targets.json") << 6;
}

void TestTargetTable::shippedTablesLoad()
{
    QFETCH(QByteArray, path);
    QFETCH(int, rows);
    const auto t = TargetTable::load(path.toStdString());
    QVERIFY2(t.ok(), t.ok() ? "" : t.error().message.c_str());
    QCOMPARE(static_cast<int>(t->rows().size()), rows);
}

void TestTargetTable::perfOverviewMatchesCsv()
{
    // Every perf-overview CSV row that maps to a phase has exactly one informational row with the
    // same model, GPU, GPU count, precision, phase and value.
    auto t = TargetTable::load(":/targets/trtllm-perf-overview.json");
    QVERIFY(t.ok());
    std::ifstream csv(std::string(THROUGHLINE_SOURCE_DIR) + "/resources/catalog/trtllm_perf_overview.csv");
    QVERIFY(csv.good());
    std::string line;
    std::getline(csv, line); // header
    int mapped = 0;
    while (std::getline(csv, line)) {
        std::vector<std::string> f;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ','))
            f.push_back(cell);
        QVERIFY(f.size() >= 8);
        if (f[6] != "Reasoning" && f[6] != "Chat")
            continue;
        ++mapped;
        const int gpus = std::stoi(f[2].substr(f[2].find_first_of("0123456789")));
        int found = 0;
        for (const TargetRow &r : t->rows()) {
            if (r.model == f[0] && r.gpu == f[1] && r.gpus == gpus && r.precision == f[3] &&
                r.phase == f[6] && r.value == std::stod(f[7])) {
                QCOMPARE(r.kind, TargetKind::Informational);
                QCOMPARE(r.metric, std::string("output_tps_per_gpu"));
                ++found;
            }
        }
        QVERIFY2(found == 1, line.c_str());
    }
    QCOMPARE(mapped, static_cast<int>(t->rows().size()));
}

void TestTargetTable::demoTargetsMatchDemoScenario()
{
    const auto t = TargetTable::load(":/targets/demo-targets.json");
    QVERIFY(t.ok());
    for (const char *phase : {"Chat", "Reasoning-short"}) {
        const auto rows = t->matching(scenario("gpt-oss-20b", "H200", 1, phase));
        QCOMPARE(rows.size(), std::size_t(3));
    }
    QVERIFY(t->matching(scenario("gpt-oss-20b", "H200", 2, "Chat")).empty());
    // The MLPerf presets select different limits for the same model.
    auto m = TargetTable::load(":/targets/mlperf-slo.json");
    QVERIFY(m.ok());
    const auto server = m->matching(scenario("DeepSeek-R1", "B200", 4, "Reasoning"));
    QCOMPARE(server.size(), std::size_t(2));
    QCOMPARE(server[0].value, 2000.0);
    QVERIFY(m->selectPreset("interactive").ok());
    const auto inter = m->matching(scenario("DeepSeek-R1", "B200", 4, "Reasoning"));
    QCOMPARE(inter[1].value, 15.0);
}

QTEST_GUILESS_MAIN(TestTargetTable)
#include "tst_targettable.moc"
