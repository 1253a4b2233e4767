// Tests of CampaignJson: golden round trip field by field, canonical writing, versioning.
#include "core/campaign/campaignjson.h"
#include "core/campaign/catalog.h"
#include "core/campaign/matrixexpander.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Throughline;

namespace {
std::string readData(const char *name)
{
    QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/campaign/") + QString::fromUtf8(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", name);
    return f.readAll().toStdString();
}
} // namespace

class TestCampaignJson : public QObject
{
    Q_OBJECT
private slots:
    void goldenFieldByField();
    void roundTrip();
    void canonicalIsStable();
    void presetPhasesWriteShort();
    void defaultsFromArchitecture();
    void migrateV0();
    void migrateV0PointersMapBack();
    void newerVersionRefused();
    void schemaErrors_data();
    void schemaErrors();
    void syntaxErrorPosition();
    void readFilePrefixesName();
    void firstTokenPriorityRoundTrip();
    void firstTokenPriorityInvalid();
    void confidenceLevel();
    void chatTemplateOverride();
    void serverTimingOptions();
    void simulatorSlowdown();
    void simulatorSlowdownInvalid_data();
    void simulatorSlowdownInvalid();
};

void TestCampaignJson::goldenFieldByField()
{
    auto r = CampaignJson::read(readData("golden-full.json"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    const Campaign &c = *r;
    QCOMPARE(c.schemaVersion, 1);
    QCOMPARE(c.name, std::string("Golden: every field set"));
    QCOMPARE(c.description, std::string("Round-trip fixture; every member differs from its default."));
    QCOMPARE(c.models, (std::vector<std::string>{"gpt-oss-120b", "tiny-moe"}));
    QCOMPARE(c.backends, (std::vector<std::string>{"sglang", "trtllm"}));

    QCOMPARE(c.deployments.size(), size_t(3));
    const Deployment &d0 = c.deployments[0];
    QCOMPARE(d0.gpu, std::string("H100")); // alias resolved
    QCOMPARE(d0.gpus, 2);
    QCOMPARE(d0.parallelism, std::string("TP2"));
    QCOMPARE(d0.precision, std::string("BF16"));
    QCOMPARE(d0.replicas, 3);
    QCOMPARE(d0.totalGpus(), 6);
    const Deployment &d1 = c.deployments[1];
    QCOMPARE(d1.prefillGpus, 24);
    QCOMPARE(d1.decodeGpus, 8);
    QCOMPARE(d1.gpus, 32);
    QVERIFY(d1.disaggregated());
    QCOMPARE(d1.replicas, 2);
    QCOMPARE(c.deployments[2].gpu, std::string("X1"));

    QCOMPARE(c.phases.size(), size_t(2));
    QCOMPARE(c.phases[0].name, std::string("Summarization"));
    QCOMPARE(c.phases[0].isl, 8000);
    QCOMPARE(c.phases[0].osl, 512);
    const Phase &mixed = c.phases[1];
    QCOMPARE(mixed.name, std::string("Mixed"));
    QCOMPARE(mixed.isl, 700);
    QCOMPARE(mixed.osl, 300);
    QCOMPARE(mixed.islDist.kind, LengthDist::Kind::Uniform);
    QCOMPARE(mixed.islDist.min, 100);
    QCOMPARE(mixed.islDist.max, 1300);
    QCOMPARE(mixed.oslDist.kind, LengthDist::Kind::Normal);
    QCOMPARE(mixed.oslDist.mean, 310.0);
    QCOMPARE(mixed.oslDist.std, 40.5);
    QCOMPARE(mixed.oslDist.min, 50);
    QCOMPARE(mixed.oslDist.max, 600);

    QCOMPARE(c.include.size(), size_t(1));
    QCOMPARE(c.include[0].match.at("model"), (std::vector<std::string>{"gpt-oss-*", "tiny-moe"}));
    QCOMPARE(c.include[0].match.at("gpus"), (std::vector<std::string>{"[46]*"}));
    QCOMPARE(c.exclude[0].match.at("backend"), (std::vector<std::string>{"trtllm"}));
    QCOMPARE(c.exclude[0].match.at("phase"), (std::vector<std::string>{"Mixed"}));

    const ModelSpec &m = c.customModels.at(0);
    QCOMPARE(m.name, std::string("tiny-moe"));
    QCOMPARE(m.hfId, std::string("example/tiny-moe"));
    QCOMPARE(m.totalParamsB, 12.5);
    QCOMPARE(m.activeParamsB, 2.5);
    QCOMPARE(m.layers, 16);
    QCOMPARE(m.hidden, 2048);
    QCOMPARE(m.qHeads, 16);
    QCOMPARE(m.kvHeads, 4);
    QCOMPARE(m.headDim, 128);
    QCOMPARE(m.attention, ModelSpec::Attention::Mla);
    QVERIFY(m.slidingWindowHalf);
    QCOMPARE(m.kvElemsPerToken, 4096.0);
    QCOMPARE(m.experts, 16);
    QCOMPARE(m.topK, 2);
    QCOMPARE(m.vocab, 32000);
    QCOMPARE(m.maxContext, 65536);
    QCOMPARE(m.weightsFp8Gib, 12.0);
    QCOMPARE(m.weightsFp4Gib, 7.0);
    QCOMPARE(m.tokenizer, std::string("llama3_1"));
    QVERIFY(m.reasoning);
    QCOMPARE(m.source, std::string("made up for the test"));

    const GpuSpec &g = c.customGpus.at(0);
    QCOMPARE(g.name, std::string("X1"));
    QCOMPARE(g.aliases, (std::vector<std::string>{"X1-PCIe"}));
    QCOMPARE(g.hbmGb, 96.0);
    QCOMPARE(g.hbmTbPerS, 4.0);
    QCOMPARE(g.bf16DenseTflops, 800.0);
    QCOMPARE(g.fp8DenseTflops, 1600.0);
    QCOMPARE(g.fp4DenseTflops, 3200.0);
    QCOMPARE(g.nvlinkGbPerS, 400.0);
    QCOMPARE(g.tdpW, 600.0);
    QCOMPARE(g.source, std::string("made up for the test"));

    QCOMPARE(c.endpoints.size(), size_t(2));
    const Endpoint &e = c.endpoints[0];
    QCOMPARE(e.name, std::string("cluster"));
    QCOMPARE(e.kind, Endpoint::Kind::Http);
    QCOMPARE(e.baseUrl, std::string("https://llm.example.com:8443/serve"));
    QCOMPARE(e.replicaUrls.size(), size_t(2));
    QCOMPARE(e.replicaUrls[1], std::string("https://llm-b.example.com:8443/serve"));
    QCOMPARE(e.routing, Endpoint::Routing::LeastInFlight);
    QCOMPARE(e.flavour, ApiFlavour::Completions);
    QCOMPARE(e.servedModel, std::string("openai/gpt-oss-120b"));
    QCOMPARE(e.apiKeyEnv, std::string("CLUSTER_API_KEY"));
    QCOMPARE(e.apiKeyKeyring, std::string("throughline/cluster"));
    QCOMPARE(e.caFile, std::string("/etc/ssl/cluster.pem"));
    QCOMPARE(e.connectTimeoutS, 3.5);
    QCOMPARE(e.telemetryIntervalS, 0.5);
    QCOMPARE(e.telemetryUrls, (std::vector<std::string>{"http://dcgm.example.com:9400/metrics"}));
    QCOMPARE(c.endpoints[1].telemetryIntervalS, 1.0); // default
    QCOMPARE(e.extraHeaders.at("X-Team"), std::string("perf"));
    QCOMPARE(e.extraBody.at("temperature").get<double>(), 0.6);
    QCOMPARE(e.extraBody.at("seed").get<int>(), 42);
    QCOMPARE(e.extraBody.at("chat_template_kwargs").at("enable_thinking").get<bool>(), false);
    QCOMPARE(e.match.at("model"), (std::vector<std::string>{"gpt-oss-*"}));
    const Endpoint &s = c.endpoints[1];
    QCOMPARE(s.kind, Endpoint::Kind::Simulated);
    QVERIFY(s.insecure);
    QCOMPARE(s.sim.timeScale, 25.0);
    QCOMPARE(s.sim.jitter, 0.05);
    QCOMPARE(s.sim.seed, std::uint64_t(99));
    QCOMPARE(s.sim.faults, std::string("error:0.01"));
    QVERIFY(s.sim.childProcess);
    QVERIFY(s.match.empty());

    const LoadPlan &p = c.plan;
    QCOMPARE(p.mode, LoadPlan::Mode::Curve);
    QCOMPARE(p.concurrencies, (std::vector<int>{2, 8, 32}));
    QCOMPARE(p.rates, (std::vector<double>{1.5, 3}));
    QCOMPARE(p.arrival, LoadPlan::Arrival::Gamma);
    QCOMPARE(p.burstiness, 0.5);
    QCOMPARE(p.concurrencyCap, 256);
    QCOMPARE(p.spacing, LoadPlan::CurveSpacing::MlperfEndpoints);
    QCOMPARE(p.cMin, 2);
    QCOMPARE(p.cMax, 512);
    QCOMPARE(p.searchMaxPoints, 5);
    QCOMPARE(p.requestCount, 300);
    QCOMPARE(p.requestMultiplier, 12.0);
    QCOMPARE(p.warmupRequests, 7);
    QCOMPARE(p.warmupMultiplier, 3.0);
    QCOMPARE(p.warmupS, 4.0);
    QCOMPARE(p.pointDurationS, 90.0);
    QCOMPARE(p.rampUpS, 2.5);
    QCOMPARE(p.cooldownS, 1.5);
    QCOMPARE(p.maxDurationS, 900.0);
    QCOMPARE(p.requestTimeoutS, 120.0);
    QCOMPARE(p.minWindowS, 30.0);
    QCOMPARE(p.errorRateLimit, 0.25);
    QCOMPARE(p.seed, std::uint64_t(1234));
    QVERIFY(p.storeText);

    QCOMPARE(c.slos.size(), size_t(2));
    const Slo &ss = c.slos.at("Summarization");
    QCOMPARE(ss.ttftMs, 3000.0);
    QCOMPARE(ss.tpotMs, 50.0);
    QCOMPARE(ss.e2eMs, 60000.0);
    QCOMPARE(ss.percentile, 95.0);
    QCOMPARE(c.slos.at("*").percentile, 99.0);

    QCOMPARE(c.overrides.size(), size_t(1));
    const ScenarioOverride &o = c.overrides[0];
    QCOMPARE(o.rule.match.at("model"), (std::vector<std::string>{"tiny-moe"}));
    QVERIFY(o.plan.has_value());
    QCOMPARE(o.plan->concurrencies, (std::vector<int>{64}));
    QCOMPARE(o.plan->requestCount, 640);
    // The override's plan is a patch over the campaign plan.
    QCOMPARE(o.plan->mode, LoadPlan::Mode::Curve);
    QCOMPARE(o.plan->minWindowS, 30.0);
    QCOMPARE(o.slo->ttftMs, 500.0);
    QCOMPARE(o.slo->e2eMs, 9000.0);
    QCOMPARE(o.recipeConcurrency.value(), 64);

    QCOMPARE(c.targets.file, std::string("golden-targets.json"));
    QCOMPARE(c.targets.baselineRun, std::string("0123abcd"));

    // Every field differs from the default-constructed value.
    const Campaign def;
    QVERIFY(c.name != def.name && c.description != def.description && c.plan != def.plan &&
            c.targets != def.targets && !c.overrides.empty() && !c.customModels.empty());
}

void TestCampaignJson::roundTrip()
{
    auto r = CampaignJson::read(readData("golden-full.json"));
    QVERIFY(r.ok());
    const std::string text = CampaignJson::write(*r);
    auto again = CampaignJson::read(text);
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
    // Field by field (operator== of each part), then the whole.
    QCOMPARE(again->name, r->name);
    QCOMPARE(again->models, r->models);
    QVERIFY(again->deployments == r->deployments);
    QVERIFY(again->phases == r->phases);
    QVERIFY(again->include == r->include);
    QVERIFY(again->exclude == r->exclude);
    QVERIFY(again->customModels == r->customModels);
    QVERIFY(again->customGpus == r->customGpus);
    QVERIFY(again->endpoints == r->endpoints);
    QVERIFY(again->plan == r->plan);
    QVERIFY(again->slos == r->slos);
    QVERIFY(again->overrides == r->overrides);
    QVERIFY(again->targets == r->targets);
    QVERIFY(*again == *r);
}

void TestCampaignJson::canonicalIsStable()
{
    auto r = CampaignJson::read(readData("golden-full.json"));
    QVERIFY(r.ok());
    const std::string once = CampaignJson::write(*r);
    const std::string twice = CampaignJson::write(*CampaignJson::read(once));
    QCOMPARE(twice, once);
    // And equal to the checked-in canonical form (reviewed by hand when regenerated).
    if (qEnvironmentVariableIsSet("THROUGHLINE_UPDATE_GOLDEN")) {
        QFile out(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/campaign/golden-full.canonical.json"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(once.data(), qint64(once.size()));
    }
    QCOMPARE(once, readData("golden-full.canonical.json"));
}

void TestCampaignJson::presetPhasesWriteShort()
{
    auto r = CampaignJson::read(readData("golden-full.json"));
    QVERIFY(r.ok());
    const auto j = CampaignJson::toJson(*r);
    QVERIFY(j.at("phases").at(0) == nlohmann::json({{"preset", "Summarization"}}));
    QCOMPARE(j.at("phases").at(1).at("name").get<std::string>(), std::string("Mixed"));
    // Override plan written as the difference from the campaign plan.
    QVERIFY(j.at("overrides").at(0).at("plan") ==
            nlohmann::json({{"concurrencies", {64}}, {"request_count", 640}}));
    QCOMPARE(j.at("schema").get<std::string>(), std::string("throughline.campaign/1"));
}

void TestCampaignJson::defaultsFromArchitecture()
{
    const std::string minimal = readData("minimal.json");
    auto r = CampaignJson::read(minimal);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(r->plan.requestMultiplier, 10.0); // 10 × C
    QCOMPARE(r->plan.warmupMultiplier, 2.0);   // 2 × C
    QCOMPARE(r->plan.minWindowS, 60.0);
    QCOMPARE(r->plan.concurrencies, (std::vector<int>{1}));
    QVERIFY(!r->plan.storeText);
    QCOMPARE(r->deployments[0].gpus, 1);
    QCOMPARE(r->deployments[0].precision, std::string("FP8"));
    QCOMPARE(r->endpoints[0].name, std::string("default"));
}

void TestCampaignJson::migrateV0()
{
    auto r = CampaignJson::read(readData("v0-campaign.json"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(r->schemaVersion, 1);
    QCOMPARE(r->name, std::string("Version 0 campaign"));
    QCOMPARE(r->models, (std::vector<std::string>{"gpt-oss-20b"}));
    QCOMPARE(r->deployments.at(0).gpu, std::string("H200"));
    QCOMPARE(r->deployments.at(0).gpus, 2);
    QCOMPARE(r->deployments.at(0).parallelism, std::string("TP2"));
    QCOMPARE(r->phases.size(), size_t(2));
    QCOMPARE(r->endpoints.size(), size_t(1));
    QCOMPARE(r->endpoints[0].name, std::string("local"));
    QCOMPARE(r->endpoints[0].baseUrl, std::string("http://127.0.0.1:8000"));
    QCOMPARE(r->endpoints[0].flavour, ApiFlavour::Completions);
    QCOMPARE(r->plan.concurrencies, (std::vector<int>{1, 8}));
    QCOMPARE(r->plan.requestCount, 50);
    QCOMPARE(r->plan.minWindowS, 5.0);
    QCOMPARE(r->slos.at("*").ttftMs, 800.0);
    // Written back in the current shape.
    const auto j = CampaignJson::toJson(*r);
    QCOMPARE(j.at("schema").get<std::string>(), std::string("throughline.campaign/1"));
    QVERIFY(!j.contains("matrix") && !j.contains("load") && !j.contains("title"));
    QVERIFY(*CampaignJson::read(j.dump()) == *r);
}

void TestCampaignJson::migrateV0PointersMapBack()
{
    auto r = CampaignJson::read(readData("v0-bad.json"));
    QVERIFY(!r.ok());
    const QString msg = QString::fromStdString(r.error().message);
    // Pointers and positions refer to the document as written (version 0 keys).
    QVERIFY2(msg.contains(u"7:57: /matrix/deployments/0/gpu_count: must be between 1 and 1000000, got 0"_qs),
             qPrintable(msg));
    QVERIFY2(msg.contains(u"11:32: /load/concurrency/1: must be between 1 and 10000000, got -2"_qs),
             qPrintable(msg));
}

void TestCampaignJson::newerVersionRefused()
{
    auto r = CampaignJson::read("{\"schema\": \"throughline.campaign/7\", \"name\": \"future\"}");
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, ErrorCode::Unsupported);
    QCOMPARE(r.error().message,
             std::string("/schema: this campaign uses schema version 7, newer than this Throughline "
                         "supports (1); upgrade Throughline to read it"));
}

void TestCampaignJson::schemaErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << u"{\"name\": \"x\"}"_qs
                             << u"missing \"schema\" member; add \"schema\": \"throughline.campaign/1\""_qs;
    QTest::newRow("foreign")
        << u"{\"schema\": \"throughline.results/1\"}"_qs
        << u"/schema: unknown schema 'throughline.results/1'; expected \"throughline.campaign/1\""_qs;
    QTest::newRow("not a string")
        << u"{\"schema\": 1}"_qs
        << u"/schema: expected a string like \"throughline.campaign/1\", got a number"_qs;
    QTest::newRow("array") << u"[1, 2]"_qs << u"a campaign must be a JSON object, got an array"_qs;
    QTest::newRow("v0 key with v1")
        << u"{\"schema_version\": 1}"_qs
        << u"/schema_version: only version 0 used this key; current documents use \"schema\": \"throughline.campaign/1\""_qs;
}

void TestCampaignJson::schemaErrors()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    auto r = CampaignJson::read(text.toStdString());
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().message), message);
}

void TestCampaignJson::syntaxErrorPosition()
{
    auto r = CampaignJson::read("{\n  \"schema\": \"throughline.campaign/1\",\n  \"name\": oops\n}");
    QVERIFY(!r.ok());
    QVERIFY2(QString::fromStdString(r.error().message).startsWith(u"3:11: JSON syntax error: "_qs),
             r.error().message.c_str());
}

void TestCampaignJson::readFilePrefixesName()
{
    const std::string path = THROUGHLINE_TEST_DATA_DIR "/campaign/v0-bad.json";
    auto r = CampaignJson::readFile(path);
    QVERIFY(!r.ok());
    QVERIFY(QString::fromStdString(r.error().message).startsWith(QString::fromStdString(path + ":")));
    auto missing = CampaignJson::readFile("/nonexistent/x.json");
    QCOMPARE(missing.error().code, ErrorCode::Io);
    auto demo = CampaignJson::readFile(":/campaigns/demo.json");
    QVERIFY2(demo.ok(), demo.ok() ? "" : demo.error().message.c_str());
}

// plan.first_token_priority (engine read order): default on and then not written (existing campaigns keep
// their canonical text); off in the plan, on again in an override; both survive writing and reading, and
// expansion gives each scenario its own value.
void TestCampaignJson::firstTokenPriorityRoundTrip()
{
    auto minimal = CampaignJson::read(readData("minimal.json"));
    QVERIFY(minimal.ok());
    QVERIFY(minimal->plan.firstTokenPriority);
    QVERIFY(!CampaignJson::toJson(*minimal).at("plan").contains("first_token_priority"));

    auto r = CampaignJson::read(readData("first-token-priority.json"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QVERIFY(!r->plan.firstTokenPriority);
    QCOMPARE(r->overrides.size(), std::size_t(1));
    QVERIFY(r->overrides[0].plan && r->overrides[0].plan->firstTokenPriority);
    const nlohmann::json j = CampaignJson::toJson(*r);
    QVERIFY(j.at("plan").at("first_token_priority") == nlohmann::json(false));
    // The override sets it back to the default: still written, as the difference from the campaign plan.
    QVERIFY(j.at("overrides").at(0).at("plan") == nlohmann::json({{"first_token_priority", true}}));
    const std::string text = CampaignJson::write(*r);
    auto again = CampaignJson::read(text);
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
    QVERIFY(again->plan == r->plan);
    QVERIFY(again->overrides == r->overrides);
    QVERIFY(*again == *r);
    QCOMPARE(CampaignJson::write(*again), text);

    auto scenarios = MatrixExpander().expand(*again);
    QVERIFY2(scenarios.ok(), scenarios.ok() ? "" : scenarios.error().message.c_str());
    QCOMPARE(scenarios->size(), std::size_t(2));
    for (const Scenario &s : *scenarios)
        QCOMPARE(s.plan.firstTokenPriority, s.phase.name == "Reasoning");
}

// A wrong value names the file, its line and column, and the field.
void TestCampaignJson::firstTokenPriorityInvalid()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("bad.json")).toStdString();
    {
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"schema\": \"throughline.campaign/1\", \"name\": \"x\",\n"
                " \"models\": [\"gpt-oss-20b\"], \"backends\": [\"vllm\"], \"deployments\": [{\"gpu\": "
                "\"H200\"}],\n"
                " \"phases\": [{\"preset\": \"Chat\"}], \"endpoints\": [{\"kind\": \"simulated\"}],\n"
                " \"plan\": {\"first_token_priority\": \"off\"},\n"
                " \"overrides\": [{\"match\": {\"phase\": \"Chat\"}, \"plan\": {\"first_token_priority\": "
                "0}}]}\n");
    }
    auto r = CampaignJson::readFile(path);
    QVERIFY(!r.ok());
    const QString msg = QString::fromStdString(r.error().message);
    QVERIFY2(msg.contains(QString::fromStdString(path) +
                          u":4:35: /plan/first_token_priority: expected true or false, got a string"_qs),
             qPrintable(msg));
    QVERIFY2(msg.contains(u"/overrides/0/plan/first_token_priority: expected true or false, got a number"_qs),
             qPrintable(msg));
}

// plan.confidence_level (the level of every point's intervals): 0.95 by default and then not written; set in
// the plan and in an override, written back and read again; outside 0.5–0.999 an error names the field.
void TestCampaignJson::confidenceLevel()
{
    auto minimal = CampaignJson::read(readData("minimal.json"));
    QVERIFY(minimal.ok());
    QCOMPARE(minimal->plan.confidenceLevel, 0.95);
    QVERIFY(!CampaignJson::toJson(*minimal).at("plan").contains("confidence_level"));

    Campaign c = *minimal;
    c.plan.confidenceLevel = 0.9;
    ScenarioOverride o;
    o.rule.match["phase"] = {"Chat"};
    LoadPlan patched = c.plan;
    patched.confidenceLevel = 0.95; // back to the default under the override: still written, as a difference
    o.plan = patched;
    c.overrides.push_back(o);
    const std::string text = CampaignJson::write(c);
    auto again = CampaignJson::read(text);
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
    QCOMPARE(again->plan.confidenceLevel, 0.9);
    QVERIFY(again->overrides.at(0).plan);
    QCOMPARE(again->overrides.at(0).plan->confidenceLevel, 0.95);
    QVERIFY(*again == c);

    nlohmann::json bad = CampaignJson::toJson(*minimal);
    bad["plan"]["confidence_level"] = 95;
    auto r = CampaignJson::read(bad.dump(2));
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.find("/plan/confidence_level") != std::string::npos,
             r.error().message.c_str());
}

// endpoint.chat_template: a Jinja file and/or the date line; written only when set; a bad date names its
// field.
void TestCampaignJson::chatTemplateOverride()
{
    auto minimal = CampaignJson::read(readData("minimal.json"));
    QVERIFY(minimal.ok());
    QVERIFY(minimal->endpoints.at(0).chatTemplate.empty());
    QVERIFY(!CampaignJson::toJson(*minimal).at("endpoints").at(0).contains("chat_template"));
    const std::string head = "{\"schema\": \"throughline.campaign/1\", \"name\": \"x\",\n"
                             " \"models\": [\"Llama-3.3-70B-Instruct\"], \"backends\": [\"vllm\"],"
                             " \"deployments\": [{\"gpu\": \"H200\"}],\n"
                             " \"phases\": [{\"preset\": \"Chat\"}],\n";
    auto r = CampaignJson::read(head + " \"endpoints\": [{\"kind\": \"simulated\", \"chat_template\": "
                                       "{\"file\": \"chatml.jinja\", \"date\": \"2026-12-01\"}}]}\n");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(r->endpoints.at(0).chatTemplate.file, std::string("chatml.jinja"));
    QCOMPARE(r->endpoints.at(0).chatTemplate.date, std::string("2026-12-01"));
    const std::string text = CampaignJson::write(*r);
    auto again = CampaignJson::read(text);
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
    QVERIFY(*again == *r);
    auto scenarios = MatrixExpander().expand(*again);
    QVERIFY2(scenarios.ok(), scenarios.ok() ? "" : scenarios.error().message.c_str());
    QCOMPARE(scenarios->at(0).endpoint.chatTemplate.file, std::string("chatml.jinja"));

    auto bad = CampaignJson::read(head + " \"endpoints\": [{\"kind\": \"simulated\", \"chat_template\": "
                                         "{\"date\": \"26 Jul 2024\", \"filee\": \"x\"}}]}\n");
    QVERIFY(!bad.ok());
    const QString msg = QString::fromStdString(bad.error().message);
    QVERIFY2(msg.contains(u"/endpoints/0/chat_template/date: expected \"today\" or a date YYYY-MM-DD"_qs),
             qPrintable(msg));
    QVERIFY2(msg.contains(u"/endpoints/0/chat_template/filee"_qs), qPrintable(msg));
}

// endpoint.server_timing and the simulator's server clock: read, written only when set, equal after a round
// trip, carried into the scenarios; an unknown member names its field.
void TestCampaignJson::serverTimingOptions()
{
    auto minimal = CampaignJson::read(readData("minimal.json"));
    QVERIFY(minimal.ok());
    QVERIFY(!minimal->endpoints.at(0).serverTiming.enabled());
    const nlohmann::json written = CampaignJson::toJson(*minimal).at("endpoints").at(0);
    QVERIFY(!written.contains("server_timing"));
    QVERIFY(!written.at("sim").contains("server_clock_offset_ms"));
    const std::string head = "{\"schema\": \"throughline.campaign/1\", \"name\": \"x\",\n"
                             " \"models\": [\"Llama-3.3-70B-Instruct\"], \"backends\": [\"trtllm\"],"
                             " \"deployments\": [{\"gpu\": \"H200\"}],\n"
                             " \"phases\": [{\"preset\": \"Chat\"}],\n";
    auto r = CampaignJson::read(head + " \"endpoints\": [{\"kind\": \"simulated\", \"server_timing\": "
                                       "{\"format\": \"auto\"}, \"sim\": {\"server_clock_offset_ms\": -12.5, "
                                       "\"server_clock_drift_ppm\": 40}}]}\n");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    const Endpoint &e = r->endpoints.at(0);
    QCOMPARE(e.serverTiming.format, std::string("auto"));
    QCOMPARE(e.sim.serverClockOffsetMs, -12.5);
    QCOMPARE(e.sim.serverClockDriftPpm, 40.0);
    auto again = CampaignJson::read(CampaignJson::write(*r));
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
    QVERIFY(*again == *r);
    auto scenarios = MatrixExpander().expand(*again);
    QVERIFY2(scenarios.ok(), scenarios.ok() ? "" : scenarios.error().message.c_str());
    const Scenario &sc = scenarios->at(0);
    QCOMPARE(sc.endpoint.serverTiming.formatFor(sc.backend), std::string("trtllm-perf"));

    auto bad = CampaignJson::read(head + " \"endpoints\": [{\"kind\": \"simulated\", \"server_timing\": "
                                         "{\"formt\": \"vllm\"}}]}\n");
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error().message.find("/endpoints/0/server_timing/formt") != std::string::npos,
             bad.error().message.c_str());
}

namespace {
std::string slowdownCampaign(const std::string &sim)
{
    return "{\"schema\": \"throughline.campaign/1\", \"name\": \"x\",\n"
           " \"models\": [\"Llama-3.3-70B-Instruct\"], \"backends\": [\"vllm\"],"
           " \"deployments\": [{\"gpu\": \"H200\"}],\n"
           " \"phases\": [{\"preset\": \"Chat\"}],\n"
           " \"endpoints\": [{\"kind\": \"simulated\", \"sim\": " +
           sim + "}]}\n";
}
} // namespace

// The simulator's slowdown after a time and its drift (issue 23): read, written back only when set, carried
// into the scenario.
void TestCampaignJson::simulatorSlowdown()
{
    auto minimal = CampaignJson::read(readData("minimal.json"));
    QVERIFY(minimal.ok());
    QCOMPARE(minimal->endpoints.at(0).sim.slowdownFactor, 1.0);
    const nlohmann::json plain = CampaignJson::toJson(*minimal).at("endpoints").at(0).at("sim");
    QVERIFY(!plain.contains("slowdown_factor"));
    QVERIFY(!plain.contains("slowdown_after_s"));
    QVERIFY(!plain.contains("slowdown_per_hour"));

    auto r = CampaignJson::read(slowdownCampaign(
        "{\"slowdown_factor\": 1.15, \"slowdown_after_s\": 600, \"slowdown_per_hour\": 0.05}"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    const SimulatorOptions &s = r->endpoints.at(0).sim;
    QCOMPARE(s.slowdownFactor, 1.15);
    QCOMPARE(s.slowdownAfterS, 600.0);
    QCOMPARE(s.slowdownPerHour, 0.05);
    const nlohmann::json written = CampaignJson::toJson(*r).at("endpoints").at(0).at("sim");
    QCOMPARE(written.at("slowdown_factor").get<double>(), 1.15);
    QCOMPARE(written.at("slowdown_after_s").get<double>(), 600.0);
    QCOMPARE(written.at("slowdown_per_hour").get<double>(), 0.05);
    auto again = CampaignJson::read(CampaignJson::write(*r));
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
    QVERIFY(*again == *r);
    auto scenarios = MatrixExpander().expand(*again);
    QVERIFY2(scenarios.ok(), scenarios.ok() ? "" : scenarios.error().message.c_str());
    QCOMPARE(scenarios->at(0).endpoint.sim.slowdownFactor, 1.15);
    QCOMPARE(scenarios->at(0).endpoint.sim.slowdownAfterS, 600.0);

    // The drift alone: the level shift stays off and unwritten.
    auto drift = CampaignJson::read(slowdownCampaign("{\"slowdown_per_hour\": 0.2}"));
    QVERIFY2(drift.ok(), drift.ok() ? "" : drift.error().message.c_str());
    const nlohmann::json dw = CampaignJson::toJson(*drift).at("endpoints").at(0).at("sim");
    QVERIFY(!dw.contains("slowdown_factor"));
    QCOMPARE(dw.at("slowdown_per_hour").get<double>(), 0.2);

    // Fixed latency (the vllm-bench overhead protocol): unwritten when off, read, written, carried.
    QVERIFY(!plain.contains("fixed_ttft_ms"));
    QVERIFY(!plain.contains("fixed_itl_ms"));
    auto fixed = CampaignJson::read(slowdownCampaign("{\"fixed_ttft_ms\": 50, \"fixed_itl_ms\": 10}"));
    QVERIFY2(fixed.ok(), fixed.ok() ? "" : fixed.error().message.c_str());
    QCOMPARE(fixed->endpoints.at(0).sim.fixedTtftMs, 50.0);
    QCOMPARE(fixed->endpoints.at(0).sim.fixedItlMs, 10.0);
    const nlohmann::json fw = CampaignJson::toJson(*fixed).at("endpoints").at(0).at("sim");
    QCOMPARE(fw.at("fixed_ttft_ms").get<double>(), 50.0);
    QCOMPARE(fw.at("fixed_itl_ms").get<double>(), 10.0);
    auto fixedScenarios = MatrixExpander().expand(*fixed);
    QVERIFY(fixedScenarios.ok());
    QCOMPARE(fixedScenarios->at(0).endpoint.sim.fixedItlMs, 10.0);
}

void TestCampaignJson::simulatorSlowdownInvalid_data()
{
    QTest::addColumn<QString>("sim");
    QTest::addColumn<QString>("message");
    QTest::newRow("faster")
        << u"{\"slowdown_factor\": 0.9}"_qs
        << u"/endpoints/0/sim/slowdown_factor: must be at least 1 and at most 1000, got 0.9"_qs;
    QTest::newRow("huge") << u"{\"slowdown_factor\": 1e300}"_qs
                          << u"/endpoints/0/sim/slowdown_factor: must be at least 1 and at most 1000"_qs;
    QTest::newRow("text") << u"{\"slowdown_factor\": \"15%\"}"_qs
                          << u"/endpoints/0/sim/slowdown_factor: expected a number, got a string"_qs;
    QTest::newRow("before start") << u"{\"slowdown_factor\": 2, \"slowdown_after_s\": -1}"_qs
                                  << u"/endpoints/0/sim/slowdown_after_s: must be at least 0"_qs;
    QTest::newRow("speeding up") << u"{\"slowdown_per_hour\": -0.1}"_qs
                                 << u"/endpoints/0/sim/slowdown_per_hour: must be at least 0"_qs;
    QTest::newRow("misspelt") << u"{\"slowdown_factr\": 2}"_qs << u"/endpoints/0/sim/slowdown_factr"_qs;
    QTest::newRow("fixed TTFT below 0")
        << u"{\"fixed_ttft_ms\": -50, \"fixed_itl_ms\": 10}"_qs
        << u"/endpoints/0/sim/fixed_ttft_ms: must be at least 0 and at most 1000000, got -50"_qs;
    QTest::newRow("fixed ITL as text")
        << u"{\"fixed_ttft_ms\": 50, \"fixed_itl_ms\": \"10ms\"}"_qs
        << u"/endpoints/0/sim/fixed_itl_ms: expected a number, got a string"_qs;
}

void TestCampaignJson::simulatorSlowdownInvalid()
{
    QFETCH(QString, sim);
    QFETCH(QString, message);
    auto r = CampaignJson::read(slowdownCampaign(sim.toStdString()));
    QVERIFY(!r.ok());
    // With the position of the value: line 4 (the endpoints line), its column.
    const QString msg = QString::fromStdString(r.error().message);
    const QRegularExpression re(u"(^|\n)4:\\d+: "_qs + QRegularExpression::escape(message));
    QVERIFY2(re.match(msg).hasMatch(), qPrintable(msg));
}

QTEST_GUILESS_MAIN(TestCampaignJson)
#include "tst_campaignjson.moc"
