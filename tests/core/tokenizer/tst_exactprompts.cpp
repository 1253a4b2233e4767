// Exact-length prompts end to end: RunController with exactPromptSourceFactory() against an in-process
// SimServer that counts prompts with the model's own tokenizer (chat: through the model's chat template, so
// ISL includes the template's tokens). Every request must reach the server with exactly the drawn ISL
// (usage.prompt_tokens = intended; the point's ISL error 0), chat and completions, for every catalog model
// at ISL 128 / 1000 / 8000 (1,000 prompts each; gpt-oss-20b shares gpt-oss-120b's tokenizer and runs a
// quarter); ≈ 40 s on the 2-core machine under load (time scale 1000: simulated prefill does not count).
// A sample is also re-encoded here, independently of the simulator.
// Prefix reuse: shared_prefix_ratio 0.5 gives a cache hit rate of ≈ 50 % and a lower TTFT than ratio 0.
// Needs the fetched tokenizer files (fixture tst_tokenizerfetch); skips with a message when the cache is
// empty.
#include "common/demoscenario.h"
#include "exactsim.h"

#include "core/engine/tokenizerpromptsource.h"
#include "core/tokenizer/chattemplate.h"

#include <QTemporaryDir>

#include <chrono>
#include <string_view>

using namespace Throughline;
using namespace Throughline::ExactTest;
using Throughline::TestSupport::errorText;
using namespace Qt::StringLiterals;

class TestExactPrompts : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void fallbackWithoutTokenizer();
    void exactIsl_data();
    void exactIsl();
    void prefixReuse();

private:
    Scenario scenario(const std::string &model, int isl, int c, int requests) const;
    Scenario m_base;
};

void TestExactPrompts::initTestCase()
{
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), errorText(demo));
    m_base = *demo;
}

Scenario TestExactPrompts::scenario(const std::string &model, int isl, int c, int requests) const
{
    return ExactTest::exactScenario(m_base, model, isl, c, requests);
}

void TestExactPrompts::fallbackWithoutTokenizer()
{
    // An empty cache: the factory falls back to the synthetic source and says why.
    QTemporaryDir empty;
    QVERIFY(empty.isValid());
    const PromptSourceChoice c =
        exactPromptSourceFactory(empty.path().toStdString())(scenario("Llama-3.3-70B-Instruct", 128, 1, 1));
    QVERIFY(!c.source);
    QCOMPARE(c.note, std::string("approximate ISL: tokenizer llama3_1 not fetched; run `throughline-cli "
                                 "tokenizers fetch`"));
}

void TestExactPrompts::exactIsl_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("isl");
    QTest::addColumn<int>("count");
    QTest::addColumn<bool>("tokenIds");
    QTest::addColumn<bool>("chat");
    for (const char *m : {"Llama-3.3-70B-Instruct", "gpt-oss-120b", "gpt-oss-20b", "DeepSeek-R1"}) {
        // gpt-oss-20b has gpt-oss-120b's tokenizer (same prompts for the same seed): a smaller sample.
        const int scale = std::string_view(m) == "gpt-oss-20b" ? 4 : 1;
        // Chat (the demo's flavour): ISL counts the templated prompt.
        QTest::addRow("%s/chat/128", m) << QString::fromLatin1(m) << 128 << 1000 / scale << false << true;
        QTest::addRow("%s/chat/1000", m) << QString::fromLatin1(m) << 1000 << 1000 / scale << false << true;
        QTest::addRow("%s/chat/8000", m) << QString::fromLatin1(m) << 8000 << 1000 / scale << false << true;
        // Completions with text: ISL counts the text tokens.
        QTest::addRow("%s/text/1000", m) << QString::fromLatin1(m) << 1000 << 250 / scale << false << false;
    }
    // Completions on a preset that takes token-id prompts: ids are sent, the server counts them.
    QTest::addRow("gpt-oss-120b/ids/1000") << u"gpt-oss-120b"_s << 1000 << 200 << true << false;
}

void TestExactPrompts::exactIsl()
{
    REQUIRE_TOKENIZER_CACHE();
    QFETCH(QString, model);
    QFETCH(int, isl);
    QFETCH(int, count);
    QFETCH(bool, tokenIds);
    QFETCH(bool, chat);
    // Only lengths are checked here: C=16 at time scale 1000 keeps 8M prompt tokens of simulated prefill
    // from dominating the wall time (synthesis and the two tokenizers' encodes are what is left).
    Scenario s = scenario(model.toStdString(), isl, 16, count);
    s.plan.requestTimeoutS = 3600;
    QCOMPARE(s.model.name, model.toStdString());
    s.endpoint.flavour = chat ? ApiFlavour::Chat : ApiFlavour::Completions;
    s.backend.acceptsTokenIdPrompts = tokenIds;
    const auto t0 = std::chrono::steady_clock::now();
    auto out = runAlone(s, 1000, true);
    QVERIFY2(out.ok(), errorText(out));
    const ScenarioOutcome &so = out->scenarios.at(0);
    const std::string source = so.requestTemplate.value("prompt_source", std::string());
    QVERIFY2(source.rfind(chat ? "exact-chat:" : "exact:", 0) == 0, source.c_str());
    const PointOutcome &po = so.points.at(0);
    QCOMPARE(int(po.records.size()), count);
    auto tok = TokenizerStore::open(kCache)->load(s.model.name);
    QVERIFY(tok);
    const ChatTemplate tpl = ChatTemplate::forModel(**tok, s.model.name);
    QVERIFY(tpl.kind() != ChatTemplate::Kind::Plain);
    // Chat: the template's leading tokens are the same in every request (gpt-oss: a ~70-token system
    // message), so whole 16-token blocks of it may be served from the prefix cache; nothing else may.
    const int commonTokens = chat ? tpl.count(**tok, {ChatMessage{"user", {}}}) : 0;
    for (const RequestRecord &r : po.records) {
        QCOMPARE(r.error, ErrorClass::None);
        QCOMPARE(r.intendedIsl, isl);
        QCOMPARE(r.usage.promptTokens, isl); // the simulator's tokenizer count of what was sent
        QVERIFY(r.usage.cachedTokens >= 0);
        QVERIFY2(r.usage.cachedTokens <= commonTokens, qPrintable(QString::number(r.usage.cachedTokens)));
    }
    const PromptTokenStats &ps = po.result.prompts;
    QCOMPARE(ps.nUsage, po.result.nOk);
    QCOMPARE(ps.islErrorMean, 0.0);
    QCOMPARE(ps.islErrorMax, 0.0);
    QVERIFY(!ps.islErrorFlagged);
    QVERIFY(ps.cacheHitRate <= double(commonTokens) / isl + 0.01); // unique prefix per request
    for (const std::string &n : po.result.validity.notes)
        QVERIFY2(n.find("ISL") == std::string::npos, n.c_str());
    const double runS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // Independent re-encode of a sample with the same seed: exactly ISL ids (completions: text tokens, no
    // special tokens; chat: the templated prompt).
    TokenizerPromptSource src(*tok, "x", s.plan.seed);
    if (chat)
        src.setChatTemplate(tpl);
    const auto first = po.records.front().seq;
    for (std::uint64_t i = 0; i < 10; ++i) {
        const Prompt p = src.make(first + i, isl, false);
        QVERIFY(p.exact);
        if (chat) {
            QCOMPARE(tpl.count(**tok, {ChatMessage{"user", p.text}}), isl);
            QVERIFY(int((*tok)->encode(p.text).size()) < isl); // the template's tokens are part of ISL
        } else {
            QCOMPARE(int((*tok)->encode(p.text).size()), isl);
        }
    }
    qInfo("%s ISL %d: %d requests exact in %.1f s (%.0f prompts/s end to end)", qPrintable(model), isl, count,
          runS, count / runS);
}

void TestExactPrompts::prefixReuse()
{
    REQUIRE_TOKENIZER_CACHE();
    // ISL 2048 at C=4: ratio 0.5 shares 1,024 leading tokens; the simulator's 16-token blocks reuse 1,024 of
    // them from the second wave of requests on. TTFT is model time (time scale 20).
    double hit[2] = {0, 0}, ttft[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
        Scenario s = scenario("Llama-3.3-70B-Instruct", 2048, 4, 80);
        s.plan.sharedPrefixRatio = k == 0 ? 0.0 : 0.5;
        auto out = runAlone(s, 20, true);
        QVERIFY2(out.ok(), errorText(out));
        const ScenarioOutcome &so = out->scenarios.at(0);
        const PointResult &r = so.points.at(0).result;
        QVERIFY(r.nOk >= 70); // measured set: t_send in [W0, W1) leaves out the last request
        QCOMPARE(r.prompts.nUsage, r.nOk);
        QCOMPARE(r.prompts.islErrorMax, 0.0);
        QCOMPARE(r.prompts.nCachedReported, r.nOk);
        hit[k] = r.prompts.cacheHitRate;
        ttft[k] = r.metrics.ttftMs.p[0]; // p50
        qInfo("shared_prefix_ratio %.1f: cache hit rate %.3f, TTFT p50 %.1f ms, mean %.1f ms",
              s.plan.sharedPrefixRatio, hit[k], ttft[k], r.metrics.ttftMs.mean);
    }
    QVERIFY(hit[0] < 0.01);
    QVERIFY2(hit[1] > 0.45 && hit[1] <= 0.5, qPrintable(QString::number(hit[1])));
    QVERIFY2(ttft[1] < 0.8 * ttft[0], qPrintable(u"%1 vs %2 ms"_s.arg(ttft[1]).arg(ttft[0])));
}

QTEST_GUILESS_MAIN(TestExactPrompts)
#include "tst_exactprompts.moc"
