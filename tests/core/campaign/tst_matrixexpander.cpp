// Tests of MatrixExpander and ScenarioFilter: golden expansions, the recipe campaign against
// recipe_concurrency.csv, rule semantics, endpoint choice, SLO resolution, --only parsing.
#include "core/campaign/campaignjson.h"
#include "core/campaign/catalog.h"
#include "core/campaign/matrixexpander.h"
#include "core/campaign/scenariofilter.h"
#include "core/campaign/scenariojson.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <set>
#include <tuple>

using namespace Throughline;

namespace {

std::string readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    return f.readAll().toStdString();
}

Campaign load(const QString &path)
{
    auto r = CampaignJson::read(readFile(path));
    if (!r)
        qFatal("%s: %s", qPrintable(path), r.error().message.c_str());
    return *r;
}

// One line per scenario: the golden-file form (also documents what expansion resolves).
std::string describe(const std::vector<Scenario> &list)
{
    std::string out;
    for (const auto &s : list) {
        std::string conc;
        for (int c : s.plan.concurrencies)
            conc += (conc.empty() ? "" : ";") + std::to_string(c);
        out +=
            s.id + " | isl=" + std::to_string(s.phase.isl) + " osl=" + std::to_string(s.phase.osl) + " | P" +
            std::to_string(s.deployment.prefillGpus) + "/D" + std::to_string(s.deployment.decodeGpus) +
            " | c=" + conc + " n=" + std::to_string(s.plan.requestCount) +
            " | recipe=" + std::to_string(s.recipeConcurrency) + " | endpoint=" + s.endpoint.name +
            " | slo=" + nlohmann::json(s.slo.ttftMs).dump() + "/" + nlohmann::json(s.slo.tpotMs).dump() +
            "/" + nlohmann::json(s.slo.e2eMs).dump() + "@p" + nlohmann::json(s.slo.percentile).dump() + "\n";
    }
    return out;
}

ScenarioKeys keys(const char *model, const char *backend, const char *gpu, const char *gpus,
                  const char *phase)
{
    return ScenarioKeys{model, backend, gpu, gpus, phase};
}

} // namespace

class TestMatrixExpander : public QObject
{
    Q_OBJECT
private slots:
    void golden_data();
    void golden();
    void exemplarEqualsRecipeCsv();
    void scenarioIdFormat();
    void deterministic();
    void ruleSemantics_data();
    void ruleSemantics();
    void endpointChoiceAndSlo();
    void errors();
    void filterParse_data();
    void filterParse();
    void filterMatches();
    void scenarioJson();
};

void TestMatrixExpander::golden_data()
{
    QTest::addColumn<QString>("campaign");
    QTest::addColumn<QString>("golden");
    QTest::newRow("demo") << u":/campaigns/demo.json"_qs << u"expand-demo.golden.txt"_qs;
    QTest::newRow("golden-full") << QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/campaign/golden-full.json")
                                 << u"expand-golden-full.golden.txt"_qs;
    QTest::newRow("exemplar") << u":/campaigns/exemplar-recipes.json"_qs << u"expand-exemplar.golden.txt"_qs;
}

void TestMatrixExpander::golden()
{
    QFETCH(QString, campaign);
    QFETCH(QString, golden);
    auto r = MatrixExpander().expand(load(campaign));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    const std::string actual = describe(*r);
    const QString goldenPath = QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/campaign/") + golden;
    if (qEnvironmentVariableIsSet("THROUGHLINE_UPDATE_GOLDEN")) {
        QFile out(goldenPath);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(actual.data(), qint64(actual.size()));
    }
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(readFile(goldenPath)));
}

void TestMatrixExpander::exemplarEqualsRecipeCsv()
{
    auto r = MatrixExpander().expand(load(u":/campaigns/exemplar-recipes.json"_qs));
    QVERIFY(r.ok());
    using Row = std::tuple<std::string, std::string, std::string, int, int, int, int, int, int, int>;
    std::multiset<Row> expanded, csv;
    for (const auto &s : *r) {
        QCOMPARE(s.plan.concurrencies.size(), size_t(1));
        QCOMPARE(s.recipeConcurrency, s.plan.concurrencies[0]);
        expanded.insert(Row{s.model.name, s.backend.id, s.gpu.name, s.deployment.totalGpus(),
                            s.deployment.prefillGpus, s.deployment.decodeGpus, s.phase.isl, s.phase.osl,
                            s.plan.concurrencies[0], s.plan.requestCount});
    }
    for (const auto &row : Catalog::builtin().recipes())
        csv.insert(Row{row.model, row.backend, row.gpu, row.gpus, row.prefillGpus, row.decodeGpus, row.isl,
                       row.osl, row.concurrency, row.numRequests});
    QCOMPARE(r->size(), Catalog::builtin().recipes().size());
    QVERIFY(expanded == csv);
}

void TestMatrixExpander::scenarioIdFormat()
{
    auto r = MatrixExpander().expand(load(u":/campaigns/demo.json"_qs));
    QVERIFY(r.ok());
    QCOMPARE(QString::fromStdString(r->front().id), u"gpt-oss-20b/vllm/H200\u00D71/Chat"_qs);
    QCOMPARE(MatrixExpander::scenarioId(keys("DeepSeek-R1", "dynamo", "GB200", "32", "Disaggregation")),
             std::string("DeepSeek-R1/dynamo/GB200\xC3\x97"
                         "32/Disaggregation"));
}

void TestMatrixExpander::deterministic()
{
    const Campaign c = load(u":/campaigns/exemplar-recipes.json"_qs);
    auto a = MatrixExpander().expand(c);
    auto b = MatrixExpander().expand(c);
    QVERIFY(a.ok() && b.ok());
    QVERIFY(*a == *b);
    // Order: models, then backends, then deployments, then phases, as written.
    QCOMPARE(a->front().id, std::string("DeepSeek-R1/trtllm/GB200\xC3\x97"
                                        "4/Reasoning"));
    QCOMPARE(a->back().id, std::string("gpt-oss-120b/dynamo/GB200\xC3\x97"
                                       "4/Custom-128-1000"));
}

void TestMatrixExpander::ruleSemantics_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<bool>("match");
    // Scenario under test: gpt-oss-120b / vllm / H200 × 8 / Chat
    QTest::newRow("empty rule") << u"{}"_qs << true;
    QTest::newRow("one key") << u"{\"model\": \"gpt-oss-*\"}"_qs << true;
    QTest::newRow("AND across keys") << u"{\"model\": \"gpt-oss-*\", \"phase\": \"Reasoning\"}"_qs << false;
    QTest::newRow("OR within key") << u"{\"phase\": [\"Reasoning\", \"Chat\"]}"_qs << true;
    QTest::newRow("gpus number") << u"{\"gpus\": 8}"_qs << true;
    QTest::newRow("gpus glob") << u"{\"gpus\": \"1*\"}"_qs << false;
    QTest::newRow("case-insensitive") << u"{\"gpu\": \"h200\"}"_qs << true;
    QTest::newRow("exact, not prefix") << u"{\"gpu\": \"H20\"}"_qs << false;
}

void TestMatrixExpander::ruleSemantics()
{
    QFETCH(QString, rule);
    QFETCH(bool, match);
    ValidationProblems problems;
    const std::string doc = "{\"include\": [" + rule.toStdString() + "]}";
    // Decode just the rule through the campaign decoder (same code path as files).
    auto j = nlohmann::json::parse(doc);
    Campaign c = CampaignJson::decode(j, Catalog::builtin(), problems);
    QCOMPARE(c.include.size(), size_t(1));
    QCOMPARE(MatrixExpander::matches(c.include[0].match, keys("gpt-oss-120b", "vllm", "H200", "8", "Chat")),
             match);
}

void TestMatrixExpander::endpointChoiceAndSlo()
{
    const Campaign c = load(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/campaign/golden-full.json"));
    auto r = MatrixExpander().expand(c);
    QVERIFY(r.ok());
    QVERIFY(!r->empty());
    for (const auto &s : *r) {
        // First endpoint whose match fits: gpt-oss-* → cluster, the rest → sim.
        QCOMPARE(s.endpoint.name, std::string(s.model.name.rfind("gpt-oss-", 0) == 0 ? "cluster" : "sim"));
        if (s.model.name == "tiny-moe") {
            // Override wins over the per-phase SLO and replaces the plan.
            QCOMPARE(s.slo.ttftMs, 500.0);
            QCOMPARE(s.plan.concurrencies, (std::vector<int>{64}));
            QCOMPARE(s.recipeConcurrency, 64);
        } else if (s.phase.name == "Summarization") {
            QCOMPARE(s.slo.ttftMs, 3000.0);
        } else {
            QCOMPARE(s.slo.ttftMs, 1000.0); // "*"
        }
        QVERIFY(s.backend.id != "trtllm" || s.phase.name != "Mixed"); // excluded
    }
}

void TestMatrixExpander::errors()
{
    Campaign c = load(u":/campaigns/demo.json"_qs);
    Campaign unknownModel = c;
    unknownModel.models = {"nope"};
    QCOMPARE(MatrixExpander().expand(unknownModel).error().message, std::string("unknown model 'nope'"));
    Campaign noEndpoint = c;
    noEndpoint.endpoints[0].match["phase"] = {"Reasoning"};
    QCOMPARE(MatrixExpander().expand(noEndpoint).error().message,
             std::string("no endpoint matches scenario gpt-oss-20b/vllm/H200\xC3\x97"
                         "1/Chat"));
    Campaign dup = c;
    dup.deployments.push_back(dup.deployments[0]);
    dup.deployments.back().parallelism = "other";
    QVERIFY(MatrixExpander().expand(dup).error().message.rfind("duplicate scenario id", 0) == 0);
    Campaign empty = c;
    empty.exclude.push_back(MatrixRule{{{"model", {"*"}}}});
    QVERIFY(MatrixExpander().expand(empty)->empty());
}

void TestMatrixExpander::filterParse_data()
{
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("error");
    QTest::newRow("ok") << u"model=gpt*,phase=Chat,phase=Reasoning"_qs << QString();
    QTest::newRow("gpus") << u"gpus=[48]"_qs << QString();
    QTest::newRow("empty") << QString() << u"empty filter; expected key=glob[,key=glob…]"_qs;
    QTest::newRow("no equals") << u"model"_qs << u"filter term 1 'model': expected key=glob"_qs;
    QTest::newRow("unknown key")
        << u"modle=x"_qs
        << u"filter term 1 'modle=x': unknown key 'modle'; expected model, backend, gpu, gpus or phase (did you mean 'model'?)"_qs;
    QTest::newRow("bad glob") << u"model=a,gpu=[H"_qs
                              << u"filter term 2 'gpu=[H': bad glob: unterminated '[' at position 1"_qs;
    QTest::newRow("empty glob") << u"phase="_qs << u"filter term 1 'phase=': bad glob: empty pattern"_qs;
    QTest::newRow("trailing comma") << u"phase=Chat,"_qs << u"empty term in filter 'phase=Chat,'"_qs;
}

void TestMatrixExpander::filterParse()
{
    QFETCH(QString, expr);
    QFETCH(QString, error);
    auto r = ScenarioFilter::parse(expr.toStdString());
    if (error.isEmpty()) {
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    } else {
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().message), error);
    }
}

void TestMatrixExpander::filterMatches()
{
    auto r = ScenarioFilter::parse("model=gpt*,phase=Chat,phase=Reasoning");
    QVERIFY(r.ok());
    QCOMPARE(r->match.at("phase").size(), size_t(2));
    QVERIFY(ScenarioFilter::matches(*r, keys("gpt-oss-20b", "vllm", "H200", "1", "Reasoning")));
    QVERIFY(!ScenarioFilter::matches(*r, keys("gpt-oss-20b", "vllm", "H200", "1", "Summarization")));
    QVERIFY(!ScenarioFilter::matches(*r, keys("DeepSeek-R1", "vllm", "H200", "1", "Chat")));
}

void TestMatrixExpander::scenarioJson()
{
    auto r = MatrixExpander().expand(load(u":/campaigns/demo.json"_qs));
    QVERIFY(r.ok());
    const auto j = ScenarioJson::toJson(*r);
    QCOMPARE(size_t(j.size()), r->size());
    QCOMPARE(j[0].at("id").get<std::string>(), r->front().id);
    QCOMPARE(j[0].at("model").at("name").get<std::string>(), std::string("gpt-oss-20b"));
    QCOMPARE(j[0].at("model").at("sliding_window_half").get<bool>(), true);
    QCOMPARE(j[0].at("gpu").at("hbm_gb").get<double>(), 141.0);
    QCOMPARE(j[0].at("endpoint").at("kind").get<std::string>(), std::string("simulated"));
    QVERIFY(j[0].at("plan").at("concurrencies") == nlohmann::json({4, 8, 16, 32}));
    QCOMPARE(j[1].at("phase").at("isl").get<int>(), 256);
}

QTEST_GUILESS_MAIN(TestMatrixExpander)
#include "tst_matrixexpander.moc"
