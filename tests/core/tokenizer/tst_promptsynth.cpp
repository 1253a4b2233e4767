// Exact-length prompt synthesis on the shipped tokenizers: every prompt encodes to exactly ISL
// tokens, prompts are deterministic from the seed and unique per request, and a shared-prefix
// ratio makes the leading ids identical. ctest samples 40/12/3 prompts at ISL 128/1000/8000 per
// tokenizer (time budget); tests/bench/bench_tokenizer --prompts runs the full 1,000 each.
#include "tokenizertestenv.h"

#include "core/tokenizer/promptsynth.h"
#include "core/tokenizer/utf8.h"

using namespace Throughline;

class TestPromptSynth : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void exactLength_data();
    void exactLength();
    void deterministicAndUnique();
    void sharedPrefix();
    void badInput();

private:
    TokenizerStore m_store;
};

void TestPromptSynth::initTestCase()
{
    THROUGHLINE_REQUIRE_TOKENIZERS(m_store);
}

void TestPromptSynth::exactLength_data()
{
    QTest::addColumn<QString>("tokenizer");
    QTest::addColumn<int>("isl");
    QTest::addColumn<int>("count");
    for (const char *t : TestEnv::kShippedTokenizers) {
        QTest::addRow("%s/128", t) << QString::fromLatin1(t) << 128 << 40;
        QTest::addRow("%s/1000", t) << QString::fromLatin1(t) << 1000 << 12;
        QTest::addRow("%s/8000", t) << QString::fromLatin1(t) << 8000 << 3;
    }
}

void TestPromptSynth::exactLength()
{
    QFETCH(QString, tokenizer);
    QFETCH(int, isl);
    QFETCH(int, count);
    auto tok = m_store.load(tokenizer.toStdString());
    QVERIFY2(tok, tok ? "" : tok.error().message.c_str());
    PromptSynth synth(*tok, {isl, 0.0, 20240630});
    for (int i = 0; i < count; ++i) {
        auto p = synth.make(static_cast<std::uint64_t>(i));
        QVERIFY2(p, p ? "" : p.error().message.c_str());
        QVERIFY(Utf8::isValid(p->text));
        const auto ids = (*tok)->encode(p->text); // re-encode independently of the synthesiser
        QCOMPARE(static_cast<int>(ids.size()), isl);
        QCOMPARE(ids, p->ids);
        for (const TokenId id : ids)
            QVERIFY(!(*tok)->isAdded(id));
    }
}

void TestPromptSynth::deterministicAndUnique()
{
    auto tok = m_store.load("gptoss");
    QVERIFY(tok);
    PromptSynth a(*tok, {128, 0.0, 7});
    PromptSynth b(*tok, {128, 0.0, 7});
    PromptSynth c(*tok, {128, 0.0, 8});
    const auto a5 = a.make(5);
    QVERIFY(a5);
    (void)b.make(1); // call order must not matter
    QCOMPARE(b.make(5)->text, a5->text);
    QVERIFY(c.make(5)->text != a5->text);
    QVERIFY(a.make(6)->ids.front() != a5->ids.front() || a.make(6)->ids[1] != a5->ids[1]);
    // A different ISL for the same index is its own prompt, also exact.
    const auto longer = a.make(5, 300);
    QVERIFY(longer);
    QCOMPARE(longer->ids.size(), std::size_t(300));
}

void TestPromptSynth::sharedPrefix()
{
    for (const char *name : TestEnv::kShippedTokenizers) {
        auto tok = m_store.load(name);
        QVERIFY(tok);
        PromptSynth synth(*tok, {1000, 0.5, 99});
        const auto p0 = synth.make(0);
        const auto p1 = synth.make(1);
        QVERIFY(p0 && p1);
        QCOMPARE(p0->sharedPrefixTokens, 500);
        QCOMPARE(p0->ids.size(), std::size_t(1000));
        QCOMPARE(p1->ids.size(), std::size_t(1000));
        QVERIFY(std::equal(p0->ids.begin(), p0->ids.begin() + 500, p1->ids.begin()));
        QVERIFY(!std::equal(p0->ids.begin() + 500, p0->ids.end(), p1->ids.begin() + 500));
        QCOMPARE((*tok)->encode(p1->text), p1->ids);
    }
}

void TestPromptSynth::badInput()
{
    auto tok = m_store.load("llama3_1");
    QVERIFY(tok);
    PromptSynth synth(*tok, {0, 0.0, 1});
    auto p = synth.make(0);
    QVERIFY(!p);
    QCOMPARE(p.error().code, ErrorCode::InvalidInput);
    QVERIFY(p.error().message.find("ISL") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestPromptSynth)
#include "tst_promptsynth.moc"
