// The one-pass classifier must agree with the DOM classifier on every input: the real captured streams, hand
// cases around the content-event rule and JSON edge cases (duplicate keys, escapes, UTF-8, surrogates,
// numbers), and 200,000 random mutations of real events. It must also actually answer for ordinary events
// (else it would be a slow no-op).
#include "core/engine/sseevent.h"
#include "core/engine/ssefastclassifier.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <random>
#include <string>
#include <vector>

using namespace Throughline;
using namespace Qt::StringLiterals;

namespace {

// The DOM path alone: wantText forces it (text is then ignored in the comparison).
SseEventInfo viaDom(std::string_view d)
{
    return classifySseEvent(d, /*wantText=*/true);
}

std::string describe(const SseEventInfo &i)
{
    return "kind " + std::to_string(int(i.kind)) + " malformed " + std::to_string(i.malformed) + " usage " +
           std::to_string(i.hasUsage) + " " + std::to_string(i.usage.completionTokens) + "/" +
           std::to_string(i.usage.promptTokens) + "/" + std::to_string(i.usage.cachedTokens) + "/" +
           std::to_string(i.usage.reasoningTokens) + " error '" + i.errorMessage + "'";
}

// Same classification as the DOM path; returns an empty string or a description of the difference.
std::string compare(const std::string &d)
{
    SseEventInfo fast;
    if (!classifySseEventFast(d, fast))
        return {}; // declined: the DOM path answers, nothing to compare
    const SseEventInfo dom = viaDom(d);
    const std::string a = describe(fast), b = describe(dom);
    return a == b ? std::string() : "input <" + d + ">: fast " + a + " vs DOM " + b;
}

std::vector<std::string> sampleEvents()
{
    std::vector<std::string> out;
    const QDir dir(QStringLiteral(THROUGHLINE_SHARED_DIR "/data/samples/sse"));
    for (const QString &name : dir.entryList({u"*.sse"_s}, QDir::Files)) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QByteArray t = line.trimmed();
            if (t.startsWith("data:")) {
                const QByteArray payload = t.mid(5).trimmed();
                if (payload != "[DONE]")
                    out.push_back(payload.toStdString());
            }
        }
    }
    return out;
}

} // namespace

class TestSseFastClassifier : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realSamplesAgreeAndAreAnswered();
    void handCases_data();
    void handCases();
    void mutationsAgree();
};

void TestSseFastClassifier::realSamplesAgreeAndAreAnswered()
{
    const auto events = sampleEvents();
    QVERIFY2(events.size() > 150, qPrintable(QString::number(events.size())));
    int answered = 0;
    for (const std::string &e : events) {
        const std::string diff = compare(e);
        QVERIFY2(diff.empty(), diff.c_str());
        SseEventInfo info;
        answered += classifySseEventFast(e, info);
    }
    // Every real event is an ordinary chunk (no error events in the captures): all must take the fast path.
    QCOMPARE(answered, int(events.size()));
}

void TestSseFastClassifier::handCases_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<bool>("answered");
    QTest::addColumn<int>("kind");
    const int content = int(StreamEvent::Kind::Content), role = int(StreamEvent::Kind::RoleOnly),
              usage = int(StreamEvent::Kind::Usage), finish = int(StreamEvent::Kind::Finish),
              other = int(StreamEvent::Kind::Other);
    auto row = [](const char *name, const char *d, bool answered, int kind) {
        QTest::newRow(name) << QByteArray(d) << answered << kind;
    };
    row("content", R"({"choices":[{"delta":{"content":"hi"}}]})", true, content);
    row("empty content", R"({"choices":[{"delta":{"content":""}}]})", true, other);
    row("role only", R"({"choices":[{"delta":{"role":"assistant","content":""}}]})", true, role);
    row("role null counts", R"({"choices":[{"delta":{"role":null}}]})", true, role);
    row("reasoning", R"({"choices":[{"delta":{"reasoning":"x"}}]})", true, content);
    row("reasoning_content", R"({"choices":[{"delta":{"reasoning_content":"x"}}]})", true, content);
    row("refusal is not content", R"({"choices":[{"delta":{"refusal":"no"}}]})", true, other);
    row("completions text", R"({"choices":[{"text":" a","finish_reason":null}]})", true, content);
    row("finish", R"({"choices":[{"delta":{},"finish_reason":"stop"}]})", true, finish);
    row("finish null", R"({"choices":[{"delta":{},"finish_reason":null}]})", true, other);
    row("usage only", R"({"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7}})", true, usage);
    row("usage float", R"({"choices":[],"usage":{"completion_tokens":7.0}})", false, usage);
    row("usage huge", R"({"choices":[],"usage":{"completion_tokens":12345678901}})", false, other);
    row("usage null fields", R"({"usage":{"completion_tokens":null}})", true, other);
    row("tool call args",
        R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{"}}]}}]})", true,
        content);
    row("tool call empty",
        R"({"choices":[{"delta":{"tool_calls":[{"function":{"name":"","arguments":""}}]}}]})", true, other);
    row("second tool call",
        R"({"choices":[{"delta":{"tool_calls":[{"function":{}},{"function":{"name":"f"}}]}}]})", true,
        content);
    row("function_call", R"({"choices":[{"delta":{"function_call":{"name":"f"}}}]})", true, content);
    row("only choices[0]", R"({"choices":[{"delta":{}},{"delta":{"content":"x"}}]})", true, other);
    row("choice not object", R"({"choices":[1]})", true, other);
    row("duplicate key last wins", R"({"choices":[{"delta":{"content":"x","content":""}}]})", true, other);
    row("duplicate delta", R"({"choices":[{"delta":{"content":"x"},"delta":5}]})", true, other);
    row("escaped content", R"({"choices":[{"delta":{"content":"\n"}}]})", true, content);
    row("unicode escape", R"({"choices":[{"delta":{"content":"\u00e9"}}]})", true, content);
    row("surrogate pair", R"({"choices":[{"delta":{"content":"\ud83d\ude00"}}]})", true, content);
    row("lone high surrogate", R"({"choices":[{"delta":{"content":"\ud83d"}}]})", false, other);
    row("lone low surrogate", R"({"choices":[{"delta":{"content":"\ude00"}}]})", false, other);
    row("utf8 text", "{\"choices\":[{\"delta\":{\"content\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}}]}",
        true, content);
    row("bad utf8", "{\"choices\":[{\"delta\":{\"content\":\"\xc3\x28\"}}]}", false, other);
    row("overlong utf8", "{\"choices\":[{\"delta\":{\"content\":\"\xc0\xaf\"}}]}", false, other);
    row("utf8 surrogate", "{\"choices\":[{\"delta\":{\"content\":\"\xed\xa0\x80\"}}]}", false, other);
    row("control char", "{\"choices\":[{\"delta\":{\"content\":\"a\x01\"}}]}", false, other);
    row("error event", R"({"error":{"message":"boom"}})", false, int(StreamEvent::Kind::Error));
    row("error null", R"({"error":null,"choices":[{"delta":{"content":"x"}}]})", true, content);
    row("object error", R"({"object":"error","message":"boom"})", false, int(StreamEvent::Kind::Error));
    row("escaped key", R"({"choices":[{"delta":{"cont\u0065nt":"x"}}]})", false, content);
    row("trailing comma", R"({"choices":[],})", false, other);
    row("trailing garbage", R"({"choices":[]} x)", false, other);
    row("leading zero", R"({"n":01})", false, other);
    row("number overflow", R"({"n":1e999,"choices":[{"delta":{"content":"x"}}]})", false, other);
    row("long integer", R"({"n":123456789012345678901234567890,"choices":[{"delta":{"content":"x"}}]})", true,
        content);
    row("array top", R"([1,2])", false, other);
    row("numbers", R"({"a":-0.5e+3,"b":[true,false,null],"choices":[{"delta":{"content":"x"}}]})", true,
        content);
}

void TestSseFastClassifier::handCases()
{
    QFETCH(QByteArray, data);
    QFETCH(bool, answered);
    QFETCH(int, kind);
    const std::string d = data.toStdString();
    SseEventInfo fast;
    QCOMPARE(classifySseEventFast(d, fast), answered);
    const std::string diff = compare(d);
    QVERIFY2(diff.empty(), diff.c_str());
    // The public entry point's answer, whichever path gave it.
    QCOMPARE(int(classifySseEvent(d).kind), kind);
}

void TestSseFastClassifier::mutationsAgree()
{
    const auto events = sampleEvents();
    QVERIFY(!events.empty());
    // THROUGHLINE_FUZZ_SEED explores other mutations locally; CI uses the fixed seed.
    std::mt19937_64 rng(qEnvironmentVariableIsSet("THROUGHLINE_FUZZ_SEED")
                            ? qEnvironmentVariableIntValue("THROUGHLINE_FUZZ_SEED")
                            : 20261129);
    const std::string alphabet = "{}[]\",:\\ 0123456789-+.eEtrufalsn\xc3\xa9\xff\x01u";
    int answered = 0;
    constexpr int kInputs = 200000;
    for (int i = 0; i < kInputs; ++i) {
        std::string d = events[rng() % events.size()];
        const int edits = 1 + int(rng() % 3);
        for (int k = 0; k < edits && !d.empty(); ++k) {
            const std::size_t at = rng() % d.size();
            switch (rng() % 3) {
            case 0:
                d[at] = alphabet[rng() % alphabet.size()];
                break;
            case 1:
                d.erase(at, 1 + rng() % 4);
                break;
            default:
                d.insert(at, 1, alphabet[rng() % alphabet.size()]);
            }
        }
        const std::string diff = compare(d);
        QVERIFY2(diff.empty(), diff.c_str());
        SseEventInfo info;
        answered += classifySseEventFast(d, info);
    }
    qInfo("mutations: %d of %d answered by the fast path, all agreeing with the DOM", answered, kInputs);
    QVERIFY(answered > kInputs / 10);
}

QTEST_GUILESS_MAIN(TestSseFastClassifier)
#include "tst_ssefastclassifier.moc"
