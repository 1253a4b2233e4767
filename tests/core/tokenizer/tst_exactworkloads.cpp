// Exact workload prompts (core/workload/exactwords.h) end to end: RunController with a workload phase against
// the in-process SimServer counting with the model's own tokenizer (chat: templated). Trace replay: every
// request's usage.prompt_tokens equals the trace's input_length (shared hash-id blocks still hit the prefix
// cache); agentic: every call exactly its step's ISL; multi-turn: turn 0 exactly ISL, later turns the
// history's count + ISL, and the server agrees; dataset: the recorded ISL is the tokenizer's count of the
// real text. Chat and completions; the three shipped tokenizers.
#include "common/demoscenario.h"
#include "exactsim.h"

#include "core/engine/tokenizerpromptsource.h"
#include "core/workload/tracedriver.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <map>
#include <set>

using namespace Throughline;
using namespace Throughline::ExactTest;
using Throughline::TestSupport::errorText;
using namespace Qt::StringLiterals;

class TestExactWorkloads : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void traceExact_data();
    void traceExact();
    void sessionsExact_data();
    void sessionsExact();
    void runSaltKeepsLengthsChangesPrompts();

private:
    Scenario scenario(const std::string &model, int isl, int c, int requests) const;
    Scenario m_base;
};

void TestExactWorkloads::initTestCase()
{
    // Workload drivers load the model's tokenizer from the default cache (as the CLI does).
    qputenv("THROUGHLINE_TOKENIZER_DIR", QByteArray::fromStdString(kCache));
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), errorText(demo));
    m_base = *demo;
}

Scenario TestExactWorkloads::scenario(const std::string &model, int isl, int c, int requests) const
{
    return ExactTest::exactScenario(m_base, model, isl, c, requests);
}

void TestExactWorkloads::traceExact_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("chat");
    for (const char *m : {"Llama-3.3-70B-Instruct", "gpt-oss-120b", "DeepSeek-R1"}) {
        QTest::addRow("%s/chat", m) << QString::fromLatin1(m) << true;
        QTest::addRow("%s/text", m) << QString::fromLatin1(m) << false;
    }
}

void TestExactWorkloads::traceExact()
{
    REQUIRE_TOKENIZER_CACHE();
    QFETCH(QString, model);
    QFETCH(bool, chat);
    // A Mooncake-style trace: 48 requests 0.5 s apart (model time; earlier prefills finish first), input
    // lengths 100..3,100, hash ids in 8 groups that share leading blocks of 64 tokens (the last block often
    // partial), some requests without hash ids.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"trace.jsonl"_s);
    std::vector<int> lengths;
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 0; i < 48; ++i) {
            const int len = 100 + (i * 397) % 3000;
            lengths.push_back(len);
            nlohmann::json e = {{"timestamp", i * 500}, {"input_length", len}, {"output_length", 4}};
            if (i % 6 != 5) {
                nlohmann::json ids = nlohmann::json::array();
                const int group = i % 8, blocks = std::max(1, len / 64 - 1);
                for (int b = 0; b < blocks; ++b)
                    ids.push_back(b < 3 ? group * 100 + b : 10'000 + i * 100 + b); // 3 shared, rest own
                e["hash_ids"] = ids;
            }
            f.write(QByteArray::fromStdString(e.dump() + "\n"));
        }
    }
    Scenario s = scenario(model.toStdString(), 128, 1, 0);
    s.endpoint.flavour = chat ? ApiFlavour::Chat : ApiFlavour::Completions;
    s.backend.acceptsTokenIdPrompts = false;
    s.phase.workload.kind = Workload::Kind::Trace;
    s.phase.workload.path = path.toStdString();
    s.phase.workload.blockTokens = 64;
    s.deployment.gpus = 8; // DeepSeek-R1 on one GPU has no KV capacity, hence no prefix cache
    auto out = runAlone(s, 100, false);
    QVERIFY2(out.ok(), errorText(out));
    const ScenarioOutcome &so = out->scenarios.at(0);
    std::vector<RequestRecord> recs = so.points.at(0).records;
    QCOMPARE(recs.size(), lengths.size());
    std::sort(recs.begin(), recs.end(), [](const auto &a, const auto &b) { return a.tSched < b.tSched; });
    std::int64_t cached = 0;
    for (std::size_t i = 0; i < recs.size(); ++i) {
        QCOMPARE(recs[i].error, ErrorClass::None);
        QCOMPARE(recs[i].intendedIsl, lengths[i]);
        QCOMPARE(recs[i].usage.promptTokens, lengths[i]); // what the server counted (chat: templated)
        cached += recs[i].usage.cachedTokens;
    }
    QCOMPARE(so.points[0].result.prompts.islErrorMax, 0.0);
    // Shared hash-id blocks are shared prompt prefixes: the server's prefix cache sees them.
    QVERIFY2(cached > 64 * 40, qPrintable(QString::number(cached)));
}

void TestExactWorkloads::sessionsExact_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("chat");
    QTest::addRow("multi_turn/llama/chat")
        << u"Llama-3.3-70B-Instruct"_s << int(Workload::Kind::MultiTurn) << true;
    QTest::addRow("multi_turn/deepseek/text") << u"DeepSeek-R1"_s << int(Workload::Kind::MultiTurn) << false;
    QTest::addRow("agentic/gpt-oss/chat") << u"gpt-oss-120b"_s << int(Workload::Kind::Agentic) << true;
    QTest::addRow("agentic/llama/text")
        << u"Llama-3.3-70B-Instruct"_s << int(Workload::Kind::Agentic) << false;
    QTest::addRow("dataset/deepseek/chat") << u"DeepSeek-R1"_s << int(Workload::Kind::Dataset) << true;
}

void TestExactWorkloads::sessionsExact()
{
    REQUIRE_TOKENIZER_CACHE();
    QFETCH(QString, model);
    QFETCH(int, kind);
    QFETCH(bool, chat);
    Scenario s = scenario(model.toStdString(), 300, 2, 12);
    s.endpoint.flavour = chat ? ApiFlavour::Chat : ApiFlavour::Completions;
    s.backend.acceptsTokenIdPrompts = false;
    s.phase.osl = 24;
    s.phase.workload.kind = static_cast<Workload::Kind>(kind);
    s.plan.storeText = true; // multi-turn: the streamed answers join the history
    if (s.phase.workload.kind == Workload::Kind::MultiTurn) {
        s.phase.workload.turns = 3;
        s.phase.workload.sessions = 3;
    } else if (s.phase.workload.kind == Workload::Kind::Agentic) {
        s.phase.workload.sessions = 2;
        s.phase.workload.steps = {AgenticStep{200, 8, 1}, AgenticStep{1500, 8, 2}, AgenticStep{0, 8, 1}};
    } else {
        s.phase.workload.path = THROUGHLINE_TEST_DATA_DIR "/workload/sharegpt.jsonl";
    }
    auto out = runAlone(s, 20, false);
    QVERIFY2(out.ok(), errorText(out));
    const ScenarioOutcome &so = out->scenarios.at(0);
    const auto &recs = so.points.at(0).records;
    QVERIFY(recs.size() >= 8);
    std::set<int> isls;
    for (const RequestRecord &r : recs) {
        QCOMPARE(r.error, ErrorClass::None);
        QCOMPARE(r.usage.promptTokens, r.intendedIsl);
        isls.insert(r.intendedIsl);
    }
    QCOMPARE(so.points[0].result.prompts.islErrorMax, 0.0);
    if (s.phase.workload.kind == Workload::Kind::Agentic) // each call exactly its step's ISL
        QCOMPARE(isls, (std::set<int>{200, 1500, 300}));
    if (s.phase.workload.kind == Workload::Kind::MultiTurn) {
        // Turn 0 is exactly ISL; turn k adds "\nAssistant:", the answer (24 tokens) and exactly ISL more
        // tokens. Every session has the same lengths (3 sessions × 3 turns).
        std::map<int, int> byIsl;
        for (const RequestRecord &r : recs) {
            ++byIsl[r.intendedIsl];
            QCOMPARE(r.nOut, 24);
        }
        QCOMPARE(byIsl.size(), std::size_t(3));
        std::vector<int> turn;
        for (const auto &[isl, n] : byIsl) {
            QCOMPARE(n, 3);
            turn.push_back(isl);
        }
        QCOMPARE(turn[0], 300);
        QVERIFY2(turn[1] >= turn[0] + 24 + 300 && turn[1] <= turn[0] + 24 + 300 + 8,
                 qPrintable(QString::number(turn[1])));
        QVERIFY2(turn[2] >= turn[1] + 24 + 300 && turn[2] <= turn[1] + 24 + 300 + 8,
                 qPrintable(QString::number(turn[2])));
    }
}

void TestExactWorkloads::runSaltKeepsLengthsChangesPrompts()
{
    REQUIRE_TOKENIZER_CACHE();
    // Trace: requests 0 and 1 share hash ids [7, 8] (blocks of 32 tokens); the run salt changes every prompt
    // but not its length, and within one salt the shared blocks stay a common prefix.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"t.jsonl"_s);
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"timestamp": 0, "input_length": 100, "output_length": 4, "hash_ids": [7, 8, 9]})"
                "\n"
                R"({"timestamp": 5, "input_length": 90, "output_length": 4, "hash_ids": [7, 8]})"
                "\n");
    }
    Scenario s = scenario("Llama-3.3-70B-Instruct", 128, 1, 0);
    s.endpoint.flavour = ApiFlavour::Completions;
    s.phase.workload.kind = Workload::Kind::Trace;
    s.phase.workload.path = path.toStdString();
    s.phase.workload.blockTokens = 32;
    auto made = WorkloadDriver::create(s);
    QVERIFY2(made.ok(), made.ok() ? "" : made.error().message.c_str());
    auto *trace = dynamic_cast<TraceDriver *>(made->get());
    QVERIFY(trace && trace->exactPrompts());
    auto tok = TokenizerStore::open(kCache)->load(s.model.name);
    QVERIFY(tok);
    std::string first[2];
    for (int k = 0; k < 2; ++k) {
        trace->prompts()->setRunSalt(PromptSource::runSalt(k == 0 ? "run-a" : "run-b"));
        const Prompt a = trace->promptFor(0), b = trace->promptFor(1);
        QVERIFY(a.exact && b.exact);
        QCOMPARE(int((*tok)->encode(a.text).size()), 100);
        QCOMPARE(int((*tok)->encode(b.text).size()), 90);
        QVERIFY(std::equal(a.tokenIds.begin(), a.tokenIds.begin() + 64, b.tokenIds.begin())); // blocks 7, 8
        QVERIFY(a.tokenIds[64] != b.tokenIds[64] || a.tokenIds[65] != b.tokenIds[65]);
        first[k] = a.text;
    }
    QVERIFY(first[0].substr(0, 40) != first[1].substr(0, 40));

    // The engine's exact source and the synthetic fallback: same lengths, other text per run.
    TokenizerPromptSource exact(*tok, "llama3_1", 5);
    SyntheticPromptSource synthetic(5);
    for (const PromptSource *src :
         {static_cast<const PromptSource *>(&exact), static_cast<const PromptSource *>(&synthetic)}) {
        src->setRunSalt(PromptSource::runSalt("run-a"));
        const Prompt a = src->make(3, 200, false);
        src->setRunSalt(PromptSource::runSalt("run-b"));
        const Prompt b = src->make(3, 200, false);
        QVERIFY(a.text.substr(0, 30) != b.text.substr(0, 30));
        QCOMPARE(a.exact, b.exact);
        if (a.exact)
            QCOMPARE(int((*tok)->encode(b.text).size()), 200);
        src->setRunSalt(PromptSource::runSalt("run-a"));
        QCOMPARE(src->make(3, 200, false).text, a.text); // reproducible from (seed, run, seq)
    }
}

QTEST_GUILESS_MAIN(TestExactWorkloads)
#include "tst_exactworkloads.moc"
