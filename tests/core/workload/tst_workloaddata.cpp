// Dataset import (ShareGPT JSONL, OpenAI messages JSON), length filters, sampling, and Mooncake trace
// parsing: real fixture files under tests/data/workload, errors that name file:line:field.
#include "core/workload/conversationdataset.h"
#include "core/workload/tracefile.h"

#include <QTest>

#include <set>

using namespace Throughline;

namespace {
std::string data(const char *name)
{
    return std::string(THROUGHLINE_TEST_DATA_DIR "/workload/") + name;
}
bool contains(const std::string &hay, const std::string &needle)
{
    return hay.find(needle) != std::string::npos;
}
} // namespace

class TestWorkloadData : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shareGptJsonl();
    void openAiMessagesArray();
    void lengthFiltersChars();
    void lengthFiltersTokens();
    void badLinesNameFileLineField();
    void samplerWithoutReplacementCoversAll();
    void samplerWithReplacementIsSeeded();
    void traceParsesAndSorts();
    void traceSpeedUp();
    void traceErrors();
};

void TestWorkloadData::shareGptJsonl()
{
    auto ds = ConversationDataset::load(data("sharegpt.jsonl"), Workload::DatasetFormat::Auto, {});
    QVERIFY2(ds.ok(), ds.ok() ? "" : ds.error().message.c_str());
    // 5 conversations; "d" has no human turn.
    QCOMPARE(ds->stats().conversations, 5);
    QCOMPARE(ds->stats().withoutUserTurn, 1);
    QCOMPARE(ds->size(), std::size_t(4));
    const auto &s = ds->samples();
    QCOMPARE(s[0].prompt, std::string("What is the capital of France?"));
    QCOMPARE(s[0].output, std::string("The capital of France is Paris."));
    QCOMPARE(s[0].promptLen, 30);
    QCOMPARE(s[0].line, 1);
    // System turn + first human turn form the prompt; the reply to that turn is the output.
    QCOMPARE(s[1].prompt, std::string("You are terse.\n\nName three primes."));
    QCOMPARE(s[1].output, std::string("2, 3, 5."));
    QCOMPARE(s[1].line, 2);
    QCOMPARE(s[2].line, 4); // blank line 3 skipped, lines still counted
    // Characters are code points: the curly quotes count one each.
    QCOMPARE(s[2].promptLen, ConversationDataset::charCount(s[2].prompt));
    QVERIFY(s[2].promptLen < static_cast<int>(s[2].prompt.size()));
}

void TestWorkloadData::openAiMessagesArray()
{
    auto ds =
        ConversationDataset::load(data("openai_messages.json"), Workload::DatasetFormat::OpenAiMessages, {});
    QVERIFY2(ds.ok(), ds.ok() ? "" : ds.error().message.c_str());
    QCOMPARE(ds->size(), std::size_t(3));
    QCOMPARE(ds->samples()[0].prompt, std::string("Be brief.\n\nExplain TCP slow start in one sentence."));
    QCOMPARE(ds->samples()[1].prompt, std::string("Describe this picture:")); // image part skipped
    QCOMPARE(ds->samples()[1].line, 5);
    QCOMPARE(ds->samples()[2].output, std::string("1 2 3 4 5"));
    // Auto detects the format per conversation too.
    auto autod = ConversationDataset::load(data("openai_messages.json"), Workload::DatasetFormat::Auto, {});
    QVERIFY(autod.ok());
    QCOMPARE(autod->size(), std::size_t(3));
    // Forcing the other format names the missing member.
    auto wrong =
        ConversationDataset::load(data("openai_messages.json"), Workload::DatasetFormat::ShareGpt, {});
    QVERIFY(!wrong.ok());
    QVERIFY2(contains(wrong.error().message, "openai_messages.json:2: conversations: missing"),
             wrong.error().message.c_str());
}

void TestWorkloadData::lengthFiltersChars()
{
    ConversationDataset::Filter f;
    f.minPrompt = 10; // drops "Hi"
    f.maxOutput = 40; // drops e's long reply and c's haiku (77 chars)
    auto ds = ConversationDataset::load(data("sharegpt.jsonl"), Workload::DatasetFormat::ShareGpt, f);
    QVERIFY(ds.ok());
    QCOMPARE(ds->size(), std::size_t(2));
    QCOMPARE(ds->stats().filteredByLength, 2);
    for (const auto &s : ds->samples()) {
        QVERIFY(s.promptLen >= 10);
        QVERIFY(s.outputLen <= 40);
    }
    f.minPrompt = 1000;
    auto none = ConversationDataset::load(data("sharegpt.jsonl"), Workload::DatasetFormat::ShareGpt, f);
    QVERIFY(!none.ok());
    QVERIFY2(contains(none.error().message, "no usable conversation (5 read, 4 outside the length filters, 1 "
                                            "without a user turn)"),
             none.error().message.c_str());
}

void TestWorkloadData::lengthFiltersTokens()
{
    ConversationDataset::Filter f;
    f.unit = Workload::LengthUnit::Tokens;
    auto noCounter = ConversationDataset::load(data("sharegpt.jsonl"), Workload::DatasetFormat::Auto, f);
    QVERIFY(!noCounter.ok());
    QVERIFY(contains(noCounter.error().message, "need a tokenizer"));
    // A counter stands in for a tokenizer: whitespace-separated words.
    int calls = 0;
    auto words = [&calls](std::string_view s) {
        ++calls;
        std::size_t n = 0;
        bool in = false;
        for (char c : s) {
            const bool sp = c == ' ' || c == '\n';
            n += !sp && !in;
            in = !sp;
        }
        return n;
    };
    f.maxPrompt = 5; // words
    auto ds = ConversationDataset::load(data("sharegpt.jsonl"), Workload::DatasetFormat::Auto, f, words);
    QVERIFY(ds.ok());
    QVERIFY(calls > 0);
    for (const auto &s : ds->samples())
        QVERIFY(s.promptLen <= 5);
    QCOMPARE(ds->size(), std::size_t(1)); // only "Hi" (1 word); France has 6, primes 6, haiku 14
    QCOMPARE(ds->samples()[0].promptLen, 1);
    QCOMPARE(ds->samples()[0].outputLen, 11);
}

void TestWorkloadData::badLinesNameFileLineField()
{
    auto a = ConversationDataset::load(data("sharegpt_bad_field.jsonl"), Workload::DatasetFormat::Auto, {});
    QVERIFY(!a.ok());
    QVERIFY2(contains(a.error().message, "sharegpt_bad_field.jsonl:3: conversations[1].value: missing"),
             a.error().message.c_str());
    auto b = ConversationDataset::load(data("openai_bad_role.json"), Workload::DatasetFormat::Auto, {});
    QVERIFY(!b.ok());
    QVERIFY2(contains(b.error().message, "openai_bad_role.json:3: messages[0].role: missing"),
             b.error().message.c_str());
    auto c = ConversationDataset::load(data("bad_json.jsonl"), Workload::DatasetFormat::Auto, {});
    QVERIFY(!c.ok());
    QVERIFY2(contains(c.error().message, "bad_json.jsonl:2: not valid JSON"), c.error().message.c_str());
    auto d = ConversationDataset::load(data("does-not-exist.jsonl"), Workload::DatasetFormat::Auto, {});
    QVERIFY(!d.ok());
    QCOMPARE(d.error().code, ErrorCode::NotFound);
    auto e = ConversationDataset::parse("[{\"messages\": [{\"role\": \"user\", \"content\": 5}]}]",
                                        "inline.json", Workload::DatasetFormat::Auto, {});
    QVERIFY(!e.ok());
    QVERIFY2(contains(e.error().message, "inline.json:1: messages[0].content: expected a string or an array"),
             e.error().message.c_str());
}

void TestWorkloadData::samplerWithoutReplacementCoversAll()
{
    const std::size_t n = 37;
    DatasetSampler s(n, false, 42);
    std::set<std::size_t> first, second;
    for (std::uint64_t i = 0; i < n; ++i)
        first.insert(s.index(i));
    for (std::uint64_t i = n; i < 2 * n; ++i)
        second.insert(s.index(i));
    QCOMPARE(first.size(), n); // every sample once before any repeats
    QCOMPARE(second.size(), n);
    // Seeded: same seed same order, another seed another order.
    DatasetSampler same(n, false, 42), other(n, false, 43);
    bool differs = false;
    for (std::uint64_t i = 0; i < n; ++i) {
        QCOMPARE(same.index(i), s.index(i));
        differs = differs || other.index(i) != s.index(i);
    }
    QVERIFY(differs);
}

void TestWorkloadData::samplerWithReplacementIsSeeded()
{
    DatasetSampler s(5, true, 7), again(5, true, 7);
    std::vector<int> counts(5, 0);
    bool repeatEarly = false;
    std::set<std::size_t> firstFive;
    for (std::uint64_t i = 0; i < 1000; ++i) {
        const std::size_t k = s.index(i);
        QVERIFY(k < 5);
        QCOMPARE(again.index(i), k);
        ++counts[k];
        if (i < 5)
            repeatEarly = repeatEarly || !firstFive.insert(k).second;
    }
    for (int c : counts)
        QVERIFY2(c > 140 && c < 260, qPrintable(QString::number(c))); // ≈ uniform (200 each)
    Q_UNUSED(repeatEarly); // with replacement repeats may come early; not asserted either way
}

void TestWorkloadData::traceParsesAndSorts()
{
    auto t = TraceFile::load(data("mooncake_trace.jsonl"));
    QVERIFY2(t.ok(), t.ok() ? "" : t.error().message.c_str());
    const auto &e = t->entries();
    QCOMPARE(e.size(), std::size_t(6));
    // Sorted by timestamp: line 3 (60 ms) before line 2 (120 ms).
    QCOMPARE(e[1].line, 3);
    QCOMPARE(e[1].timestampMs, 60.0);
    QCOMPARE(e[2].line, 2);
    QCOMPARE(e[0].inputLength, 1100);
    QCOMPARE(e[0].outputLength, 12);
    QCOMPARE(e[0].hashIds, (std::vector<std::int64_t>{0, 1, 2}));
    QVERIFY(e[4].hashIds.empty());
}

void TestWorkloadData::traceSpeedUp()
{
    auto t = TraceFile::load(data("mooncake_trace.jsonl"));
    QVERIFY(t.ok());
    const auto o1 = t->offsetsNs(1.0);
    const auto o2 = t->offsetsNs(2.0);
    QCOMPARE(o1.back(), std::int64_t(500'000'000));
    QCOMPARE(o2.back(), std::int64_t(250'000'000));
    QCOMPARE(o2[1], std::int64_t(30'000'000));
    QCOMPARE(t->durationS(4.0), 0.125);
}

void TestWorkloadData::traceErrors()
{
    auto a = TraceFile::load(data("trace_bad.jsonl"));
    QVERIFY(!a.ok());
    QVERIFY2(contains(a.error().message, "trace_bad.jsonl:2: input_length: missing"),
             a.error().message.c_str());
    auto b = TraceFile::load(data("trace_bad_hash.jsonl"));
    QVERIFY(!b.ok());
    QVERIFY2(contains(b.error().message, "trace_bad_hash.jsonl:1: hash_ids[1]: expected an integer"),
             b.error().message.c_str());
    auto c = TraceFile::parse("{\"timestamp\": 1, \"input_length\": 2.5, \"output_length\": 1}\n", "x.jsonl");
    QVERIFY(!c.ok());
    QVERIFY2(contains(c.error().message, "x.jsonl:1: input_length: expected a positive integer"),
             c.error().message.c_str());
    auto d = TraceFile::parse("\n\n", "empty.jsonl");
    QVERIFY(!d.ok());
    QVERIFY(contains(d.error().message, "no request"));
}

QTEST_GUILESS_MAIN(TestWorkloadData)
#include "tst_workloaddata.moc"
