// The simulator as a server that disagrees with the client (SimServerOptions::chatTemplate, throughline-sim
// --chat-template): it renders chat messages with another template than the client's formatter, and the
// difference must change with the system message and the number of turns (so a calibration cannot be a
// constant offset). Real HTTP over loopback to an in-process SimServer; the default simulator (the model's
// own template) is the client's mirror. Prompt calibration (TokenizerPromptSource::calibrate, on by default)
// asks the server how it counts before the first point: against the disagreeing server every request's
// usage.prompt_tokens is the intended ISL (Chat 128, Reasoning 1000, Summarization 8000; 1,000 requests each;
// user only, with a system message, and a multi-turn message list), whichever way the server is asked
// (vLLM-style /tokenize, llama.cpp /apply-template + /tokenize, a probe request). A server that cannot be
// asked usefully (bytes/4 counting, no count endpoints) still runs and carries the ISL validity note. Needs
// the fetched tokenizer files (fixture tst_tokenizerfetch).
#include "common/demoscenario.h"
#include "core/sim/simtestclient.h"
#include "exactsim.h"

#include "core/tokenizer/chattemplate.h"
#include "core/tokenizer/tokenizerstore.h"

#include <nlohmann/json.hpp>

#include <map>

using namespace Throughline;
using namespace Throughline::ExactTest;
using nlohmann::json;
using Throughline::TestSupport::errorText;
using namespace Qt::StringLiterals;

namespace {

const std::string kModel = "Llama-3.3-70B-Instruct";

std::unique_ptr<SimServer> startSim(const std::string &chatTemplate)
{
    auto o = SimServer::optionsFromCatalog(kModel, "H100", 1, "FP8");
    if (!o)
        return nullptr;
    o->timeScale = 1000;
    o->tokenizer = "auto";
    o->tokenizerDir = kCache;
    o->chatTemplate = chatTemplate;
    auto s = std::make_unique<SimServer>(std::move(*o));
    return s->start("127.0.0.1", 0) ? std::move(s) : nullptr;
}

// usage.prompt_tokens of a non-streamed chat completion, -1 on failure.
int serverCount(const SimServer &sim, const std::vector<ChatMessage> &msgs)
{
    json messages = json::array();
    for (const ChatMessage &m : msgs)
        messages.push_back({{"role", m.role}, {"content", m.content}});
    const json body = {{"model", kModel}, {"messages", messages}, {"max_tokens", 2}, {"stream", false}};
    const SimTest::Reply r = SimTest::request(
        "http://127.0.0.1:" + std::to_string(sim.port()) + "/v1/chat/completions", body.dump());
    if (r.status != 200)
        return -1;
    return json::parse(r.body).at("usage").at("prompt_tokens").get<int>();
}

// What the simulated server is: its chat template ("" = the model's own) and count endpoints; tokenizer false
// = it counts bytes/4 (it cannot say how the model's tokenizer counts).
struct ServerKind {
    std::string chatTemplate = "chatml";
    std::string countEndpoints = "vllm";
    bool tokenizer = true;
};

const std::vector<ChatMessage> kSystem = {{"system", "You are a terse assistant."}};
const std::vector<ChatMessage> kTurns = {{"system", "You are a terse assistant."},
                                         {"user", "Hi"},
                                         {"assistant", "Hello. What do you need?"},
                                         {"user", "Open the file."},
                                         {"assistant", "Done."}};

// Exact prompts as exactPromptSourceFactory makes them, with `earlier` before every user message.
PromptSourceFactory withEarlier(std::vector<ChatMessage> earlier)
{
    return [earlier](const Scenario &sc) -> PromptSourceChoice {
        PromptSourceChoice c;
        auto store = TokenizerStore::open(kCache);
        if (!store)
            return c;
        auto name = store->tokenizerName(sc.model.name);
        if (!name)
            return c;
        auto tok = store->load(*name);
        if (!tok)
            return c;
        auto src =
            std::make_shared<TokenizerPromptSource>(*tok, *name, sc.plan.seed, sc.plan.sharedPrefixRatio);
        src->setEarlierMessages(earlier);
        src->setChatTemplate(chatTemplateFor(sc, **tok).tpl);
        c.source = std::move(src);
        return c;
    };
}

Result<RunOutcome> runAgainst(const Scenario &s, const ServerKind &kind, std::vector<ChatMessage> earlier)
{
    RunOptions opt;
    opt.simLauncher = inProcessSim(1000, kind.chatTemplate, [kind](SimServerOptions &o) {
        o.countEndpoints = kind.countEndpoints;
        if (!kind.tokenizer)
            o.tokenizer.clear();
    });
    opt.promptFactory = withEarlier(std::move(earlier));
    opt.scrapeTelemetry = false;
    opt.stallTimeoutS = 3600; // lengths are checked here, not stalls (exactsim.h runAlone)
    return TestSupport::runAlone(s, opt);
}

const std::vector<ChatMessage> &conversation(const QString &name)
{
    static const std::vector<ChatMessage> none;
    return name == u"system"_s ? kSystem : name == u"turns"_s ? kTurns : none;
}

bool hasNote(const PointOutcome &po, const std::string &text)
{
    for (const std::string &n : po.result.validity.notes)
        if (n.find(text) != std::string::npos)
            return true;
    for (const std::string &n : po.result.validity.notes)
        qInfo("note: %s", n.c_str());
    return false;
}

// The first failed request, for the failure message.
void reportFailures(const PointOutcome &po)
{
    for (const RequestRecord &r : po.records)
        if (r.error != ErrorClass::None) {
            qInfo("request %llu failed: class %d, HTTP %d: %s", (unsigned long long)r.seq, int(r.error),
                  r.httpStatus, r.errorDetail.c_str());
            return;
        }
}

// provenance.json scenarios[0].prompt_calibration ({} when absent).
json calibrationOf(const RunOutcome &out)
{
    const json &sc = out.provenance.at("scenarios").at(0);
    return sc.contains("prompt_calibration") ? sc["prompt_calibration"] : json::object();
}

int intOf(const json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int>() : -1;
}

std::string textOf(const json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool flagOf(const json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_boolean() && it->get<bool>();
}

} // namespace

class TestDisagreeingSim : public QObject
{
    Q_OBJECT
private slots:
    void overheadChangesWithSystemAndTurns();
    void calibratedExact_data();
    void calibratedExact();
    void calibrationMethods_data();
    void calibrationMethods();
    void unaskableServerKeepsIslNote();
    void multiTurnSessionsExact();
    void overrideFileMatchesServer();
};

void TestDisagreeingSim::overheadChangesWithSystemAndTurns()
{
    REQUIRE_TOKENIZER_CACHE();
    auto tok = TokenizerStore::open(kCache)->load(kModel);
    QVERIFY(tok);
    const ChatTemplate client = ChatTemplate::forModel(**tok, kModel);
    const ChatTemplate chatml = *ChatTemplate::named("chatml");
    auto mirror = startSim({});
    auto other = startSim("chatml");
    QVERIFY(mirror && other);
    QCOMPARE(mirror->promptCounting(), std::string("tokenizer llama3_1 (chat template llama3.1)"));
    QCOMPARE(other->promptCounting(),
             std::string("tokenizer llama3_1 (chat template chatml, not the model's llama3.1)"));

    const std::string q = "Tell me a story about a lighthouse.";
    const std::vector<std::vector<ChatMessage>> conversations = {
        {{"user", q}},
        {{"system", "You are a terse assistant."}, {"user", q}},
        {{"system", "You are a terse assistant."},
         {"user", "Hi"},
         {"assistant", "Hello. What do you need?"},
         {"user", "Open the file."},
         {"assistant", "Done."},
         {"user", q}}};
    std::vector<int> disagreement;
    for (const auto &msgs : conversations) {
        const int mirrored = serverCount(*mirror, msgs);
        const int counted = serverCount(*other, msgs);
        QCOMPARE(mirrored, client.count(**tok, msgs)); // the default simulator is the client's mirror
        QCOMPARE(counted, chatml.count(**tok, msgs));  // the other one counts its own template
        disagreement.push_back(counted - client.count(**tok, msgs));
        qInfo("%zu messages: client %d, disagreeing server %d", msgs.size(), client.count(**tok, msgs),
              counted);
    }
    // Not a constant offset: it moves with the system message and with the turns.
    QVERIFY2(disagreement[0] != disagreement[1], qPrintable(QString::number(disagreement[0])));
    QVERIFY2(disagreement[1] != disagreement[2], qPrintable(QString::number(disagreement[1])));
    QVERIFY(disagreement[0] != 0);
}

// Calibration on by default: the disagreeing server is asked (POST /tokenize) and every request counts ISL.
void TestDisagreeingSim::calibratedExact_data()
{
    QTest::addColumn<int>("isl");
    QTest::addColumn<QString>("messages");
    const std::pair<const char *, int> phases[] = {
        {"chat", 128}, {"reasoning", 1000}, {"summarization", 8000}};
    for (const auto &[phase, isl] : phases)
        for (const char *m : {"user", "system", "turns"})
            QTest::addRow("%s/%d/%s", phase, isl, m) << isl << QString::fromLatin1(m);
}

void TestDisagreeingSim::calibratedExact()
{
    REQUIRE_TOKENIZER_CACHE();
    QFETCH(int, isl);
    QFETCH(QString, messages);
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), errorText(demo));
    Scenario s = exactScenario(*demo, kModel, isl, 16, 1000);
    s.endpoint.flavour = ApiFlavour::Chat;
    s.plan.requestTimeoutS =
        3600; // model time: 8M prompt tokens of simulated prefill at C=16 (tst_exactprompts)
    auto out = runAgainst(s, ServerKind{}, conversation(messages));
    QVERIFY2(out.ok(), errorText(out));
    const PointOutcome &po = out->scenarios.at(0).points.at(0);
    QCOMPARE(int(po.records.size()), 1000);
    reportFailures(po);
    int exact = 0;
    for (const RequestRecord &r : po.records)
        exact += r.error == ErrorClass::None && r.intendedIsl == isl && r.usage.promptTokens == isl ? 1 : 0;
    QCOMPARE(exact, 1000); // every request, as the server counted it
    QVERIFY(!po.result.prompts.islErrorFlagged);
    const json cal = calibrationOf(*out);
    qInfo("%s", cal.dump().c_str());
    QCOMPARE(textOf(cal, "method"), std::string("tokenize"));
    QVERIFY(flagOf(cal, "applied"));
    QCOMPARE(intOf(cal, "after_server_tokens"), isl);
    if (messages == u"system"_s) {
        // With a system message ChatML's tokens outside the texts happen to equal Meta's template's here (41
        // on clean text): the server still disagrees on other shapes, and nothing is to be corrected.
        QCOMPARE(intOf(cal, "server_fixed_tokens"), intOf(cal, "client_fixed_tokens"));
        return;
    }
    QVERIFY(intOf(cal, "before_server_tokens") != isl); // the formatter alone would have missed
    QVERIFY(intOf(cal, "server_fixed_tokens") != intOf(cal, "client_fixed_tokens"));
    QVERIFY(hasNote(po, "prompt calibration (POST /tokenize): the server counts"));
}

// Each way of asking, and the mirror (no note: the formatter already counts as the server does).
void TestDisagreeingSim::calibrationMethods_data()
{
    QTest::addColumn<QString>("chatTemplate");
    QTest::addColumn<QString>("endpoints");
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("note");
    QTest::newRow("vllm") << u"chatml"_s << u"vllm"_s << u"tokenize"_s << u"(POST /tokenize)"_s;
    QTest::newRow("llamacpp") << u"chatml"_s << u"llamacpp"_s << u"apply-template"_s
                              << u"(POST /apply-template + /tokenize)"_s;
    QTest::newRow("probe") << u"chatml"_s << u"none"_s << u"probe"_s
                           << u"(a probe request's usage.prompt_tokens)"_s;
    QTest::newRow("mirror") << QString() << u"vllm"_s << u"tokenize"_s << QString();
}

void TestDisagreeingSim::calibrationMethods()
{
    REQUIRE_TOKENIZER_CACHE();
    QFETCH(QString, chatTemplate);
    QFETCH(QString, endpoints);
    QFETCH(QString, method);
    QFETCH(QString, note);
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), errorText(demo));
    Scenario s = exactScenario(*demo, kModel, 128, 4, 100);
    s.endpoint.flavour = ApiFlavour::Chat;
    const ServerKind kind{chatTemplate.toStdString(), endpoints.toStdString(), true};
    auto out = runAgainst(s, kind, {});
    QVERIFY2(out.ok(), errorText(out));
    const PointOutcome &po = out->scenarios.at(0).points.at(0);
    QCOMPARE(int(po.records.size()), 100);
    for (const RequestRecord &r : po.records)
        QCOMPARE(r.usage.promptTokens, 128);
    const json cal = calibrationOf(*out);
    qInfo("%s", cal.dump().c_str());
    QCOMPARE(QString::fromStdString(textOf(cal, "method")), method);
    QVERIFY(flagOf(cal, "applied"));
    QCOMPARE(intOf(cal, "after_server_tokens"), 128);
    if (note.isEmpty()) { // the mirror: server and formatter agree, nothing to say
        QCOMPARE(intOf(cal, "before_server_tokens"), 128);
        QVERIFY(!hasNote(po, "prompt calibration"));
    } else {
        QVERIFY(hasNote(po, "prompt calibration " + note.toStdString()));
    }
}

// A server that cannot say how the model's tokenizer counts (no count endpoints; it counts bytes/4, so two
// probes disagree): calibration is refused and said so, the run still runs, and the ISL validity note stays.
void TestDisagreeingSim::unaskableServerKeepsIslNote()
{
    REQUIRE_TOKENIZER_CACHE();
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), errorText(demo));
    Scenario s = exactScenario(*demo, kModel, 128, 4, 40);
    s.endpoint.flavour = ApiFlavour::Chat;
    auto out = runAgainst(s, ServerKind{"chatml", "none", false}, {});
    QVERIFY2(out.ok(), errorText(out));
    const PointOutcome &po = out->scenarios.at(0).points.at(0);
    QCOMPARE(int(po.records.size()), 40);
    reportFailures(po);
    for (const RequestRecord &r : po.records)
        QCOMPARE(r.error, ErrorClass::None);
    const json cal = calibrationOf(*out);
    qInfo("%s", cal.dump().c_str());
    QVERIFY(!flagOf(cal, "applied"));
    QCOMPARE(textOf(cal, "method"), std::string("probe"));
    QVERIFY(hasNote(po, "the server's counts are not the model tokenizer's plus a fixed template"));
    QVERIFY(po.result.prompts.islErrorFlagged);
    QVERIFY(hasNote(po, "ISL error"));
}

// Multi-turn chat sessions whose history grows with the server's answers (SessionDriver): the disagreeing
// server is asked how it counts conversations of 0, 1 and 2 exchanges, and every turn reaches it with the
// count docs/workloads.md defines — turn 0 ISL, turn k the server's count of turn k−1 + its answer + ISL —
// 250 sessions × 4 turns = 1,000 requests, each checked against usage.prompt_tokens.
void TestDisagreeingSim::multiTurnSessionsExact()
{
    REQUIRE_TOKENIZER_CACHE();
    qputenv("THROUGHLINE_TOKENIZER_DIR", QByteArray::fromStdString(kCache)); // the driver's default cache
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), errorText(demo));
    const int isl = 128;
    const int osl = 16;
    Scenario s = exactScenario(*demo, kModel, isl, 16, 1000);
    s.endpoint.flavour = ApiFlavour::Chat;
    s.phase.osl = osl;
    s.phase.workload.kind = Workload::Kind::MultiTurn;
    s.phase.workload.turns = 4;
    s.phase.workload.sessions = 250;
    s.phase.workload.warmupSessions = 0;
    s.plan.requestTimeoutS = 3600;
    auto out = runAgainst(s, ServerKind{}, {});
    QVERIFY2(out.ok(), errorText(out));
    const PointOutcome &po = out->scenarios.at(0).points.at(0);
    QCOMPARE(int(po.records.size()), 1000);
    reportFailures(po);
    std::map<int, int> byTurn; // intended count → requests
    int exact = 0;
    for (const RequestRecord &r : po.records) {
        QCOMPARE(r.nOut, osl);
        exact += r.error == ErrorClass::None && r.usage.promptTokens == r.intendedIsl ? 1 : 0;
        ++byTurn[r.intendedIsl];
    }
    QCOMPARE(exact, 1000);
    const std::map<int, int> expected = {
        {isl, 250}, {isl + (isl + osl), 250}, {isl + 2 * (isl + osl), 250}, {isl + 3 * (isl + osl), 250}};
    QCOMPARE(byTurn, expected);
    QVERIFY(!po.result.prompts.islErrorFlagged);
    const json cal = calibrationOf(*out);
    qInfo("%s", cal.dump().c_str());
    QCOMPARE(textOf(cal, "method"), std::string("tokenize"));
    QVERIFY(flagOf(cal, "applied"));
    // The server disagrees, and differently per exchange (not a constant offset).
    QVERIFY(intOf(cal, "server_minus_client_fixed") != 0);
    QVERIFY(intOf(cal, "server_minus_client_per_exchange") != 0);
    QVERIFY(hasNote(po, "multi-turn prompt calibration (tokenize): the server counts"));
}

// The campaign names the server's template (endpoint.chat_template.file): the client counts with it, every
// request is exact again, and the run says how it read the file.
void TestDisagreeingSim::overrideFileMatchesServer()
{
    REQUIRE_TOKENIZER_CACHE();
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), errorText(demo));
    Scenario s = exactScenario(*demo, kModel, 128, 4, 40);
    s.endpoint.flavour = ApiFlavour::Chat;
    s.endpoint.chatTemplate.file = THROUGHLINE_SOURCE_DIR "/tests/tokenizer-ref/chatml_chat_template.jinja";
    auto out = runAlone(s, 1000, true, "chatml");
    QVERIFY2(out.ok(), errorText(out));
    const PointOutcome &po = out->scenarios.at(0).points.at(0);
    QCOMPARE(int(po.records.size()), 40);
    for (const RequestRecord &r : po.records)
        QCOMPARE(r.usage.promptTokens, 128);
    QVERIFY(!po.result.prompts.islErrorFlagged);
    bool noted = false;
    for (const std::string &n : po.result.validity.notes)
        noted = noted || n.find("chatml_chat_template.jinja counted as chatml") != std::string::npos;
    QVERIFY(noted);
}

QTEST_GUILESS_MAIN(TestDisagreeingSim)
#include "tst_disagreeingsim.moc"
