// SSE reassembly (hot path) and event classification: split-at-every-byte, line terminators, comments,
// multi-line data, [DONE], oversize bounding, real captured streams, and a 100,000-input differential fuzz
// against a whole-buffer reference parser.
#include "core/engine/sseevent.h"
#include "core/engine/sseparser.h"
#include "core/engine/streamaccumulator.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <chrono>
#include <random>
#include <string>
#include <vector>

using namespace Throughline;
using namespace Qt::StringLiterals;

namespace {

struct Got {
    std::vector<std::string> data;
    std::vector<std::int64_t> t;
};

// Feeds `input` in pieces cut at `cuts` (sorted offsets); read i has timestamp i.
Got parseWithCuts(const std::string &input, const std::vector<std::size_t> &cuts, SseParser &p)
{
    Got g;
    std::size_t prev = 0;
    std::int64_t read = 0;
    auto feedPiece = [&](std::size_t a, std::size_t b) {
        p.feed(input.data() + a, b - a, read);
        p.drain([&](const SseParser::Event &e) {
            g.data.emplace_back(e.data);
            g.t.push_back(e.tNs);
        });
        ++read;
    };
    for (std::size_t c : cuts) {
        feedPiece(prev, c);
        prev = c;
    }
    feedPiece(prev, input.size());
    return g;
}

// Reference: whole-buffer interpretation of the WHATWG rules, written independently of SseParser.
// Returns the payloads and, for each, the byte offset just past its terminating blank line's terminator
// start.
struct RefEvent {
    std::string data;
    std::size_t blankLineEnd; // index of the first byte of the blank line's terminator
};
std::vector<RefEvent> referenceParse(const std::string &s, bool *unterminated)
{
    std::vector<RefEvent> out;
    std::string buf;
    bool has = false;
    std::size_t i = 0;
    std::size_t lineStart = 0;
    while (i <= s.size()) {
        if (i == s.size()) {
            *unterminated = has || lineStart < s.size();
            break;
        }
        char c = s[i];
        if (c != '\r' && c != '\n') {
            ++i;
            continue;
        }
        std::string line = s.substr(lineStart, i - lineStart);
        std::size_t termStart = i;
        if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n')
            i += 2;
        else
            i += 1;
        lineStart = i;
        if (line.empty()) {
            if (has)
                out.push_back({buf, termStart});
            buf.clear();
            has = false;
            continue;
        }
        if (line[0] == ':')
            continue;
        auto colon = line.find(':');
        std::string name = line.substr(0, colon);
        std::string value = colon == std::string::npos ? std::string() : line.substr(colon + 1);
        if (!value.empty() && value[0] == ' ')
            value.erase(0, 1);
        if (name != "data")
            continue;
        if (has)
            buf += '\n';
        buf += value;
        has = true;
    }
    return out;
}

std::string readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray b = f.readAll();
    return std::string(b.constData(), static_cast<std::size_t>(b.size()));
}

StreamEvent::Kind kindFromName(const std::string &n)
{
    if (n == "content")
        return StreamEvent::Kind::Content;
    if (n == "role")
        return StreamEvent::Kind::RoleOnly;
    if (n == "usage")
        return StreamEvent::Kind::Usage;
    if (n == "finish")
        return StreamEvent::Kind::Finish;
    if (n == "error")
        return StreamEvent::Kind::Error;
    if (n == "done")
        return StreamEvent::Kind::Done;
    return StreamEvent::Kind::Other;
}

} // namespace

class TestSseParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void splitEverywhere_data();
    void splitEverywhere();
    void oversizeIsBounded();
    void overlongLineIsBounded();
    void capacityReusedAcrossDrains();
    void classify_data();
    void classify();
    void realSamples_data();
    void realSamples();
    void continuousUsageCounts();
    void errorEventAndMalformed();
    void compactEventStoreIsLossless();
    void fuzzDifferential();
};

void TestSseParser::splitEverywhere_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QStringList>("expected");
    QTest::addColumn<bool>("unterminated");
    auto row = [](const char *name, const char *in, QStringList exp, bool unterm = false) {
        QTest::newRow(name) << QByteArray(in) << exp << unterm;
    };
    row("lf", "data: a\n\ndata: b\n\n", {u"a"_s, u"b"_s});
    row("crlf", "data: a\r\n\r\ndata: b\r\n\r\n", {u"a"_s, u"b"_s});
    row("cr", "data: a\r\rdata: b\r\r", {u"a"_s, u"b"_s});
    row("mixed", "data: a\r\n\ndata: b\r\r\ndata: c\n\r", {u"a"_s, u"b"_s, u"c"_s});
    row("comments", ": ping\n\n:\ndata: x\n: mid\n\n", {u"x"_s});
    row("multiline", "data: l1\ndata: l2\ndata:l3\n\n", {u"l1\nl2\nl3"_s});
    row("no-space", "data:{\"a\":1}\n\n", {u"{\"a\":1}"_s});
    row("two-spaces", "data:  x\n\n", {u" x"_s});
    row("bare-data", "data\n\n", {QString()});
    row("empty-data-dispatches", "data:\n\n", {QString()});
    row("other-fields", "event: message\nid: 7\nretry: 10\ndata: y\n\n", {u"y"_s});
    row("event-only-no-dispatch", "event: ping\n\ndata: z\n\n", {u"z"_s});
    row("blank-lines", "\n\n\r\n\rdata: q\n\n\n\n", {u"q"_s});
    row("done", "data: {\"x\":1}\n\ndata: [DONE]\n\n", {u"{\"x\":1}"_s, u"[DONE]"_s});
    row("missing-blank-at-end", "data: a\n\ndata: b\n", {u"a"_s}, true);
    row("missing-newline-at-end", "data: a\n\ndata: b", {u"a"_s}, true);
    row("colon-in-value", "data: {\"k\":\"a:b\"}\n\n", {u"{\"k\":\"a:b\"}"_s});
    row("utf8", "data: \xe6\x88\x91\xe6\x98\xaf\n\n", {QString::fromUtf8("\xe6\x88\x91\xe6\x98\xaf")});
}

void TestSseParser::splitEverywhere()
{
    QFETCH(QByteArray, input);
    QFETCH(QStringList, expected);
    QFETCH(bool, unterminated);
    const std::string in(input.constData(), static_cast<std::size_t>(input.size()));
    std::vector<std::string> exp;
    for (const QString &s : expected)
        exp.push_back(s.toStdString());

    bool refUnterminated = false;
    const auto ref = referenceParse(in, &refUnterminated);
    QCOMPARE(ref.size(), exp.size()); // the reference agrees with the table
    QCOMPARE(refUnterminated, unterminated);

    // One cut at every position, two cuts at every pair, and one byte per read.
    std::vector<std::vector<std::size_t>> cutSets{{}};
    for (std::size_t i = 1; i < in.size(); ++i) {
        cutSets.push_back({i});
        for (std::size_t j = i + 1; j < in.size(); ++j)
            cutSets.push_back({i, j});
    }
    std::vector<std::size_t> every;
    for (std::size_t i = 1; i < in.size(); ++i)
        every.push_back(i);
    cutSets.push_back(every);

    for (const auto &cuts : cutSets) {
        SseParser p;
        const Got g = parseWithCuts(in, cuts, p);
        QCOMPARE(g.data, exp);
        QCOMPARE(p.hasUnterminatedEvent(), unterminated);
        // Each event carries the index of the read holding the first byte of its blank line's terminator.
        for (std::size_t k = 0; k < g.t.size(); ++k) {
            const std::size_t pos = ref[k].blankLineEnd;
            std::int64_t readIdx = 0;
            for (std::size_t c : cuts)
                if (pos >= c)
                    ++readIdx;
            QCOMPARE(g.t[k], readIdx);
        }
    }
}

void TestSseParser::oversizeIsBounded()
{
    const std::size_t limit = 64 * 1024;
    SseParser p(limit);
    std::string line = "data: " + std::string(1000, 'x') + "\n";
    bool ok = true;
    std::size_t fed = 0;
    for (int i = 0; i < 1000 && ok; ++i) { // 1 MB of data lines without a blank line
        ok = p.feed(line.data(), line.size(), i);
        fed += line.size();
    }
    QVERIFY(!ok);
    QVERIFY(p.overflowed());
    QVERIFY(fed < 2 * limit);
    QVERIFY(p.capacityBytes() <= 4 * limit);
    QVERIFY(!p.feed("\n\n", 2, 0)); // stays failed
    QCOMPARE(p.pendingEvents(), std::size_t(0));
}

void TestSseParser::overlongLineIsBounded()
{
    const std::size_t limit = 4096;
    SseParser p(limit);
    const std::string chunk(1000, 'y'); // no terminator at all
    bool ok = true;
    int n = 0;
    while (ok && n < 100) {
        ok = p.feed(chunk.data(), chunk.size(), n);
        ++n;
    }
    QVERIFY(!ok);
    QVERIFY(n <= 6);
    QVERIFY(p.capacityBytes() <= 4 * limit);
}

void TestSseParser::capacityReusedAcrossDrains()
{
    SseParser p;
    const std::string ev = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n";
    std::size_t cap = 0;
    for (int i = 0; i < 10000; ++i) {
        QVERIFY(p.feed(ev.data(), ev.size(), i));
        std::size_t n = 0;
        p.drain([&](const SseParser::Event &) { ++n; });
        QCOMPARE(n, std::size_t(1));
        if (i == 10)
            cap = p.capacityBytes();
    }
    QCOMPARE(p.capacityBytes(), cap); // no growth: the hot path does not allocate per event
}

void TestSseParser::classify_data()
{
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("completionTokens");
    // Cases live in a file (JSON fixtures stay out of Q_OBJECT sources).
    QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/engine/sse_classify_cases.jsonl"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    int line = 0;
    while (!f.atEnd()) {
        const QByteArray l = f.readLine().trimmed();
        ++line;
        if (l.isEmpty() || l.startsWith('#'))
            continue;
        const auto j = nlohmann::json::parse(l.toStdString());
        const std::string name = j.at("name").get<std::string>();
        QTest::newRow(name.c_str()) << QByteArray::fromStdString(j.at("payload").get<std::string>())
                                    << QString::fromStdString(j.at("kind").get<std::string>())
                                    << j.value("completion_tokens", -1);
    }
}

void TestSseParser::classify()
{
    QFETCH(QByteArray, payload);
    QFETCH(QString, kind);
    QFETCH(int, completionTokens);
    const auto info =
        classifySseEvent(std::string_view(payload.constData(), static_cast<std::size_t>(payload.size())));
    if (kind == u"malformed"_s) {
        QVERIFY(info.malformed);
        return;
    }
    QVERIFY(!info.malformed);
    QCOMPARE(int(info.kind), int(kindFromName(kind.toStdString())));
    QCOMPARE(info.hasUsage ? info.usage.completionTokens : -1, completionTokens);
}

void TestSseParser::realSamples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("events");  // dispatched data events
    QTest::addColumn<int>("content"); // content events per the rule
    QTest::addColumn<int>("nOut");
    QTest::addColumn<int>("source"); // TokenCountSource
    QTest::addColumn<bool>("done");
    QTest::addColumn<bool>("unterminated");
    QTest::addColumn<int>("cached");
    QTest::addColumn<int>("reasoning");
    const int usage = int(TokenCountSource::Usage);
    const int count = int(TokenCountSource::EventCount);
    // Expected figures counted by hand from the files (grep of data: lines and non-empty content fields).
    QTest::newRow("llamacpp-chat-usage") << u"llamacpp_80fb11a_chat_stream_include_usage.sse"_s << 10 << 6
                                         << 6 << usage << true << false << 0 << -1;
    QTest::newRow("llamacpp-chat-eos") << u"llamacpp_80fb11a_chat_stream_natural_eos.sse"_s << 25 << 21 << 22
                                       << usage << true << false << 30 << -1;
    QTest::newRow("llamacpp-completions") << u"llamacpp_80fb11a_completions_stream_include_usage.sse"_s << 8
                                          << 6 << 6 << usage << true << false << 1 << -1;
    QTest::newRow("openai-usage") << u"openai_api_gpt4o_chat_stream_content_with_usage.sse"_s << 34 << 30
                                  << 30 << usage << true << false << -1 << 0;
    // delta.refusal is not in the content-event rule: zero content events although 12 tokens were generated.
    QTest::newRow("openai-refusal") << u"openai_api_gpt4o_chat_stream_logprobs_refusal.sse"_s << 15 << 0 << 12
                                    << usage << true << false << -1 << 0;
    // n=3: only choices[0] of each chunk counts; every chunk carries one choice, so all 42 content chunks
    // count.
    QTest::newRow("openai-n3") << u"openai_api_gpt4o_chat_stream_n3_multiple_choices.sse"_s << 50 << 42 << 42
                               << usage << true << false << -1 << 0;
    QTest::newRow("openai-tools") << u"openai_api_gpt4o_chat_stream_parallel_tool_calls.sse"_s << 26 << 22
                                  << 60 << usage << true << false << -1 << 0;
    // Truncated excerpt: last event has no blank line, no usage, no [DONE]: 5 dispatched (role + 4 content).
    QTest::newRow("vllm-truncated") << u"vllm_0.5_issue6083_chat_stream_excerpt_truncated.sse"_s << 5 << 4
                                    << 4 << count << false << true << -1 << -1;
}

void TestSseParser::realSamples()
{
    QFETCH(QString, file);
    QFETCH(int, events);
    QFETCH(int, content);
    QFETCH(int, nOut);
    QFETCH(int, source);
    QFETCH(bool, done);
    QFETCH(bool, unterminated);
    QFETCH(int, cached);
    QFETCH(int, reasoning);
    const std::string in = readFile(QStringLiteral(THROUGHLINE_SHARED_DIR "/data/samples/sse/") + file);
    QVERIFY(!in.empty());
    // Feed in irregular reads (7, 13, 64, 1 … bytes) to exercise splitting on real data.
    const std::size_t sizes[] = {7, 13, 64, 1, 200, 3};
    for (int variant = 0; variant < 2; ++variant) {
        RequestRecord rec;
        SseParser p;
        StreamAccumulator acc(rec, true);
        std::size_t pos = 0;
        int i = 0;
        while (pos < in.size()) {
            const std::size_t n = variant == 0 ? std::min(in.size() - pos, sizes[i % 6]) : in.size();
            QVERIFY(p.feed(in.data() + pos, n, i));
            p.drain([&](const SseParser::Event &e) { acc.onEvent(e.data, e.tNs); });
            pos += n;
            ++i;
        }
        acc.finish();
        QCOMPARE(int(rec.events.size()), events);
        QCOMPARE(acc.contentEvents(), content);
        QCOMPARE(rec.nOut, nOut);
        QCOMPARE(int(rec.nOutSource), source);
        QCOMPARE(acc.sawDone(), done);
        QCOMPARE(p.hasUnterminatedEvent(), unterminated);
        QCOMPARE(rec.usage.cachedTokens, cached);
        QCOMPARE(rec.usage.reasoningTokens, reasoning);
        QCOMPARE(rec.error, ErrorClass::None);
        QVERIFY(content == 0 || !rec.text.empty());
    }
}

void TestSseParser::continuousUsageCounts()
{
    // vLLM continuous_usage_stats: cumulative completion_tokens on every chunk (first chunk holds 3 tokens,
    // e.g. speculative decoding). Fixture built from vLLM's documented shape (no real capture available).
    const std::string in =
        readFile(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/engine/vllm_continuous_usage.sse"));
    QVERIFY(!in.empty());
    RequestRecord rec;
    SseParser p;
    StreamAccumulator acc(rec, false);
    QVERIFY(p.feed(in.data(), in.size(), 5));
    p.drain([&](const SseParser::Event &e) { acc.onEvent(e.data, e.tNs); });
    acc.finish();
    std::vector<int> tokens;
    for (const auto &e : rec.events)
        if (e.kind == StreamEvent::Kind::Content)
            tokens.push_back(e.tokens);
    QCOMPARE(tokens, (std::vector<int>{3, 1, 2, 1}));
    QCOMPARE(rec.nOut, 7);
    QCOMPARE(rec.nFirst, 3);
    QVERIFY(!rec.nFirstApproximate);
    QCOMPARE(rec.usage.promptTokens, 12);
    QCOMPARE(rec.usage.reasoningTokens, 2);
}

void TestSseParser::errorEventAndMalformed()
{
    {
        RequestRecord rec;
        StreamAccumulator acc(rec, false);
        acc.onEvent(R"({"choices":[{"delta":{"content":"a"}}]})", 1);
        acc.onEvent(R"({"error":{"message":"KV cache exhausted","code":500}})", 2);
        acc.finish();
        QCOMPARE(rec.error, ErrorClass::ServerErrorEvent);
        QCOMPARE(rec.errorDetail, std::string("KV cache exhausted"));
    }
    {
        RequestRecord rec;
        StreamAccumulator acc(rec, false);
        acc.onEvent(R"({"choices":[{"delta":{"content":"a"}}]})", 1);
        acc.onEvent(R"({"choices":[{"delta":{"content":"b"})", 2);
        acc.finish();
        QCOMPARE(rec.error, ErrorClass::MalformedStream);
        QCOMPARE(acc.contentEvents(), 1);
    }
}

void TestSseParser::compactEventStoreIsLossless()
{
    // The accumulator keeps in-flight events in 5 bytes each (32-bit ns deltas, kind + small token counts)
    // and expands them at finish(): times and token counts must come back exactly, including the escapes
    // (gaps of 4.29 s and more, times going backwards, negative times, large per-event token counts).
    std::mt19937_64 rng(4);
    const std::int64_t far = 0xffffffffLL;
    std::vector<std::int64_t> times = {
        -5, 0, 0, 1, far - 1, 2 * far - 1, 2 * far - 1 + far, 7, 123456789012345};
    std::int64_t t = times.back();
    for (int i = 0; i < 5000; ++i) {
        t += static_cast<std::int64_t>(rng() % (i % 97 == 0 ? 20'000'000'000ULL : 50'000'000ULL));
        times.push_back(t);
    }
    RequestRecord rec;
    rec.events.push_back({42, StreamEvent::Kind::Other, 9}); // caller's events stay in front
    StreamAccumulator acc(rec, false);
    acc.reserveEvents(times.size());
    std::vector<StreamEvent> want = rec.events;
    int cumulative = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
        std::string data;
        StreamEvent e{times[i], StreamEvent::Kind::Content, -1};
        switch (i % 7) {
        case 0:
            data = R"({"choices":[{"delta":{"role":"assistant"}}]})";
            e.kind = StreamEvent::Kind::RoleOnly;
            break;
        case 1:
            data = R"({"choices":[{"delta":{"content":"x"}}]})";
            break;
        case 2: { // continuous usage: per-event count = increase of the cumulative count (0…40, some > 29)
            const int step = static_cast<int>(rng() % 41);
            cumulative += step;
            data =
                R"({"choices":[{"delta":{"content":"y"}}],"usage":{"prompt_tokens":3,"completion_tokens":)" +
                std::to_string(cumulative) + "}}";
            e.tokens = step;
            break;
        }
        case 3:
            data = R"({"choices":[{"delta":{},"finish_reason":"length"}]})";
            e.kind = StreamEvent::Kind::Finish;
            break;
        case 4:
            data = R"({"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":)" +
                   std::to_string(cumulative) + "}}";
            e.kind = StreamEvent::Kind::Usage;
            break;
        case 5:
            data = R"({"choices":[{"delta":{"content":""}}]})";
            e.kind = StreamEvent::Kind::Other;
            break;
        default:
            data = "[DONE]";
            e.kind = StreamEvent::Kind::Done;
            break;
        }
        acc.onEvent(data, times[i]);
        want.push_back(e);
    }
    QCOMPARE(acc.eventCount(), times.size());
    QVERIFY(rec.events.size() == 1); // nothing expanded while in flight
    QVERIFY(acc.capacityBytes() < times.size() * 6 + 64 * sizeof(std::int64_t) + 1024);
    acc.finish();
    QCOMPARE(rec.events.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (rec.events[i].tNs != want[i].tNs || rec.events[i].kind != want[i].kind ||
            rec.events[i].tokens != want[i].tokens)
            QFAIL(qPrintable(QStringLiteral("event %1: got (%2, %3, %4), want (%5, %6, %7)")
                                 .arg(i)
                                 .arg(qint64(rec.events[i].tNs))
                                 .arg(int(rec.events[i].kind))
                                 .arg(int(rec.events[i].tokens))
                                 .arg(qint64(want[i].tNs))
                                 .arg(int(want[i].kind))
                                 .arg(int(want[i].tokens))));
    }
    QCOMPARE(acc.eventCount(), std::size_t(0));
    QCOMPARE(acc.capacityBytes(), std::size_t(0));
}

void TestSseParser::fuzzDifferential()
{
    // 100,000 random streams from a grammar of SSE fragments, fed in random reads, compared with the
    // whole-buffer reference parser. Seeded, so failures reproduce.
    std::mt19937_64 rng(20261129);
    const char *fragments[] = {"data: ",    "data:",  "data", ": c", "event: e",    "id: 1", "x",
                               "{\"a\":1}", "[DONE]", "\r",   "\n",  "\r\n",        "\n\n",  "\r\n\r\n",
                               ":",         " ",      "dat",  "a",   "\xe6\x88\x91"};
    const auto t0 = std::chrono::steady_clock::now();
    std::string in;
    for (int iter = 0; iter < 100000; ++iter) {
        in.clear();
        const int nFrag = int(rng() % 24);
        for (int k = 0; k < nFrag; ++k)
            in += fragments[rng() % (sizeof(fragments) / sizeof(fragments[0]))];
        bool refUnterminated = false;
        const auto ref = referenceParse(in, &refUnterminated);
        std::vector<std::size_t> cuts;
        for (std::size_t i = 1; i < in.size(); ++i)
            if (rng() % 4 == 0)
                cuts.push_back(i);
        SseParser p;
        const Got g = parseWithCuts(in, cuts, p);
        if (g.data.size() != ref.size()) {
            QFAIL(qPrintable(QStringLiteral("iteration %1: %2 events, reference %3; input %4")
                                 .arg(iter)
                                 .arg(g.data.size())
                                 .arg(ref.size())
                                 .arg(QString::fromUtf8(QByteArray::fromStdString(in).toPercentEncoding()))));
        }
        for (std::size_t k = 0; k < ref.size(); ++k)
            QCOMPARE(g.data[k], ref[k].data);
        QCOMPARE(p.hasUnterminatedEvent(), refUnterminated);
        // Classification must never throw or crash on arbitrary payloads.
        for (const auto &d : g.data)
            (void)classifySseEvent(d);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    qInfo("fuzz: 100000 inputs in %.2f s", s);
    QVERIFY(s < 30);
}

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
