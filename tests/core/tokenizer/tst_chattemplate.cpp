// Chat templates (core/tokenizer/chattemplate.h) against the reference JavaScript implementation:
// tests/data/tokenizer/chat_cases.json (system + user, multi-turn, empty and whitespace content, unicode,
// special-token look-alikes) rendered and encoded by transformers.js' apply_chat_template
// (tests/tokenizer-ref/chat.mjs; the @lenml packages' own templates for llama3_1 and deepseek_v3, the
// reduced harmony template for gptoss) must give exactly the ids of ChatTemplate::render + encode.
#include "tokenizertestenv.h"

#include "core/tokenizer/chattemplate.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

using namespace Throughline;

namespace {

QString refDir()
{
    return QStringLiteral(THROUGHLINE_TOKENIZER_REF_DIR);
}

std::string readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

} // namespace

class TestChatTemplate : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void jsTrim();
    void detection();
    void referenceIds_data();
    void referenceIds();

private:
    TokenizerStore m_store;
    nlohmann::json m_cases;
    nlohmann::json m_expected;
};

void TestChatTemplate::initTestCase()
{
    THROUGHLINE_REQUIRE_TOKENIZERS(m_store);
    // The reference packages are installed into refDir by tst_tokenizerreference (the tokenizer_ref_node
    // fixture); this test adds its script and template there.
    QVERIFY2(QFileInfo::exists(refDir() + u"/node_modules/@lenml/tokenizers/package.json"_qs),
             "reference packages not installed (tst_tokenizerreference installs them)");
    const QString src = QStringLiteral(THROUGHLINE_SOURCE_DIR "/tests/tokenizer-ref");
    for (const QString &f : {u"chat.mjs"_qs, u"gptoss_chat_template.jinja"_qs}) {
        QFile::remove(refDir() + u'/' + f);
        QVERIFY(QFile::copy(src + u'/' + f, refDir() + u'/' + f));
    }
    const QString cases = QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/tokenizer/chat_cases.json");
    const QString expected = refDir() + u"/chat_expected.json"_qs;
    QFile::remove(expected);
    QProcess p;
    p.setWorkingDirectory(refDir());
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(u"node"_qs, {u"chat.mjs"_qs, cases, expected});
    QVERIFY2(p.waitForStarted(20'000), qPrintable(p.errorString()));
    QVERIFY(p.waitForFinished(5 * 60'000));
    const QString out = QString::fromLocal8Bit(p.readAll());
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(out));
    m_cases = nlohmann::json::parse(readAll(cases));
    m_expected = nlohmann::json::parse(readAll(expected));
    QVERIFY(m_cases["cases"].size() >= 10);
}

void TestChatTemplate::jsTrim()
{
    QCOMPARE(ChatTemplate::jsTrim("  a b \n\t"), std::string("a b"));
    QCOMPARE(ChatTemplate::jsTrim("\xE3\x80\x80x\xC2\xA0"), std::string("x")); // U+3000, U+00A0
    QCOMPARE(ChatTemplate::jsTrim("\xC2\x85y"), std::string("\xC2\x85y"));     // U+0085 is not JS space
    QCOMPARE(ChatTemplate::jsTrim(" \n "), std::string());
    QCOMPARE(ChatTemplate::jsTrim(""), std::string());
}

void TestChatTemplate::detection()
{
    const std::pair<const char *, ChatTemplate::Kind> want[] = {
        {"llama3_1", ChatTemplate::Kind::Llama3},
        {"gptoss", ChatTemplate::Kind::Harmony},
        {"deepseek_v3", ChatTemplate::Kind::DeepSeekV3},
        {"o200k_base", ChatTemplate::Kind::Plain}};
    for (const auto &[name, kind] : want) {
        auto tok = m_store.load(name);
        QVERIFY2(tok, tok ? "" : tok.error().message.c_str());
        QCOMPARE(int(ChatTemplate::forTokenizer(**tok).kind()), int(kind));
    }
}

void TestChatTemplate::referenceIds_data()
{
    QTest::addColumn<QString>("tokenizer");
    for (const char *t : TestEnv::kShippedTokenizers)
        QTest::newRow(t) << QString::fromLatin1(t);
}

void TestChatTemplate::referenceIds()
{
    QFETCH(QString, tokenizer);
    const std::string name = tokenizer.toStdString();
    auto tok = m_store.load(name);
    QVERIFY2(tok, tok ? "" : tok.error().message.c_str());
    const ChatTemplate tpl = ChatTemplate::forTokenizer(**tok, m_cases["date"].get<std::string>());
    QVERIFY(tpl.kind() != ChatTemplate::Kind::Plain);
    const auto &cases = m_cases["cases"];
    const auto &expected = m_expected.at(name);
    QCOMPARE(expected.size(), cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        std::vector<ChatMessage> msgs;
        for (const auto &m : cases[i]["messages"])
            msgs.push_back({m["role"].get<std::string>(), m["content"].get<std::string>()});
        const bool gen = cases[i]["add_generation_prompt"].get<bool>();
        const std::vector<TokenId> got = (*tok)->encode(tpl.render(msgs, gen));
        const std::vector<TokenId> want = expected[i].get<std::vector<TokenId>>();
        QVERIFY2(got == want, qPrintable(QStringLiteral("case %1 (%2): C++ %3\n    node %4")
                                             .arg(i)
                                             .arg(QString::fromStdString(cases[i]["messages"].dump()))
                                             .arg(QString::fromStdString(nlohmann::json(got).dump()))
                                             .arg(QString::fromStdString(nlohmann::json(want).dump()))));
        QCOMPARE(tpl.count(**tok, msgs, gen), int(want.size()));
    }
}

QTEST_GUILESS_MAIN(TestChatTemplate)
#include "tst_chattemplate.moc"
