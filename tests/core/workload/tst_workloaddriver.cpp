// Workload drivers without a network: multi-turn history growth (completions: one growing text; chat: the
// conversation as messages, as the request body carries it), agentic steps with fan-out and think time,
// chain metrics arithmetic, trace prompts sharing hash-id blocks, and the delayed dispatcher's timing.
#include "core/engine/requestbuilder.h"
#include "tests/common/jsonschemavalidator.h"
#include "core/metrics/pointresult.h"
#include "core/workload/delayeddispatcher.h"
#include "core/workload/tracedriver.h"
#include "core/workload/workloaddriver.h"

#include <QFile>
#include <QTest>

#include <atomic>
#include <thread>

using namespace Throughline;

namespace {

Scenario scenarioWith(const Workload &w, int isl, int osl, ApiFlavour flavour = ApiFlavour::Chat)
{
    Scenario s;
    s.endpoint.flavour = flavour;
    s.phase.name = "W";
    s.phase.isl = isl;
    s.phase.osl = osl;
    s.phase.workload = w;
    s.plan.seed = 5;
    return s;
}

RequestRecord done(std::uint64_t seq, int nOut, std::string text = {})
{
    RequestRecord r;
    r.seq = seq;
    r.nOut = nOut;
    r.intendedOsl = nOut;
    r.text = std::move(text);
    return r;
}

bool startsWith(const std::string &s, const std::string &p)
{
    return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

} // namespace

class TestWorkloadDriver : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void syntheticHasNoDriver();
    void multiTurnHistoryGrows();
    void multiTurnChatSendsConversation();
    void agenticStepsFanOutAndThink();
    void chainMetricsArithmetic();
    void tracePromptsShareBlocks();
    void missingFilesAreErrors();
    void dispatcherSendsOnTime();
    void resultsSchemaCarriesWorkloadBlock();
};

void TestWorkloadDriver::syntheticHasNoDriver()
{
    auto d = WorkloadDriver::create(scenarioWith(Workload{}, 10, 10));
    QVERIFY(d.ok());
    QVERIFY(!*d);
}

void TestWorkloadDriver::multiTurnHistoryGrows()
{
    Workload w;
    w.kind = Workload::Kind::MultiTurn;
    w.turns = 3;
    w.thinkTimeS = 1.0;
    auto made = WorkloadDriver::create(scenarioWith(w, 20, 10, ApiFlavour::Completions));
    QVERIFY(made.ok() && *made);
    WorkloadDriver &d = **made;
    WorkloadPointSetup setup;
    setup.concurrency = 1;
    setup.budgetTotal = 3; // one session of three turns
    setup.wallScale = 4;   // think time 1 s model = 250 ms wall
    QCOMPARE(d.begin(setup), 3);
    auto first = d.initial();
    QCOMPARE(first.size(), std::size_t(1));
    QCOMPARE(first[0].step, 0);
    d.bind(100, first[0]);
    const Prompt p0 = d.prompts()->make(100, first[0].isl, false);
    QVERIFY(!p0.text.empty());
    QVERIFY(p0.tokenIds.empty()); // text flavour
    QCOMPARE(first[0].isl, p0.tokens);

    // Turn 0 answered with streamed text: turn 1's prompt = turn 0's prompt + the answer + a new message.
    auto next = d.onComplete(done(100, 10, " the answer of turn zero"), 1'000'000'000);
    QCOMPARE(next.size(), std::size_t(1));
    QCOMPARE(next[0].step, 1);
    QCOMPARE(next[0].notBeforeNs, std::int64_t(1'250'000'000)); // now + think ÷ wall scale
    d.bind(101, next[0]);
    const Prompt p1 = d.prompts()->make(101, next[0].isl, false);
    QVERIFY(startsWith(p1.text, p0.text));
    QVERIFY(p1.text.find(" the answer of turn zero") != std::string::npos);
    QVERIFY(next[0].isl >= first[0].isl + 10 + 16); // history (prompt + 10 answer tokens) + new turn

    // Turn 1 answered without stored text: a stand-in of the produced length; the token-id form grows too.
    next = d.onComplete(done(101, 7), 2'000'000'000);
    QCOMPARE(next.size(), std::size_t(1));
    QCOMPARE(next[0].step, 2);
    d.bind(102, next[0]);
    const Prompt p2 = d.prompts()->make(102, next[0].isl, true);
    QVERIFY(p2.text.empty());
    QCOMPARE(int(p2.tokenIds.size()), next[0].isl);
    QVERIFY(next[0].isl > p1.tokens + 7);
    // Last turn done, no further sessions.
    QVERIFY(d.onComplete(done(102, 10), 3'000'000'000).empty());
}

void TestWorkloadDriver::multiTurnChatSendsConversation()
{
    Workload w;
    w.kind = Workload::Kind::MultiTurn;
    w.turns = 3;
    const Scenario sc = scenarioWith(w, 20, 10);
    auto made = WorkloadDriver::create(sc);
    QVERIFY(made.ok() && *made);
    WorkloadDriver &d = **made;
    WorkloadPointSetup setup;
    setup.concurrency = 1;
    setup.budgetTotal = 3;
    QCOMPARE(d.begin(setup), 3);
    auto req = d.initial();
    QCOMPARE(req.size(), std::size_t(1));
    d.bind(100, req[0]);
    const Prompt p0 = d.prompts()->make(100, req[0].isl, false);
    QVERIFY(p0.earlier.empty());
    // Turn 1: the first turn and its streamed answer are their own messages; the new turn is the last one.
    req = d.onComplete(done(100, 10, " the answer of turn zero"), 1'000'000'000);
    QCOMPARE(req.size(), std::size_t(1));
    d.bind(101, req[0]);
    const Prompt p1 = d.prompts()->make(101, req[0].isl, false);
    QCOMPARE(p1.earlier.size(), std::size_t(2));
    QCOMPARE(p1.earlier[0].role, std::string("user"));
    QCOMPARE(p1.earlier[0].content, p0.text);
    QCOMPARE(p1.earlier[1].role, std::string("assistant"));
    QCOMPARE(p1.earlier[1].content, std::string("the answer of turn zero")); // joins trimmed
    QVERIFY(p1.text.find(" the answer") == std::string::npos);
    QVERIFY(req[0].isl > p0.tokens + 10); // history (prompt + 10 answer tokens) + new turn
    // Turn 2 after an answer without stored text: a stand-in of 7 tokens as the assistant message.
    req = d.onComplete(done(101, 7), 2'000'000'000);
    QCOMPARE(req.size(), std::size_t(1));
    d.bind(102, req[0]);
    QVERIFY(req[0].isl > p1.tokens + 7);
    // The request body carries the conversation: 5 messages, roles alternating, the new turn last.
    const RequestBuilder builder(sc, "run", d.prompts(), {});
    const HttpRequest http = builder.build(102, req[0].isl, 10, "http://127.0.0.1:8000");
    const nlohmann::json body = nlohmann::json::parse(http.body);
    const auto &messages = body.at("messages");
    QCOMPARE(int(messages.size()), 5);
    for (int i = 0; i < 5; ++i)
        QCOMPARE(messages[i].at("role").get<std::string>(), std::string(i % 2 == 0 ? "user" : "assistant"));
    QCOMPARE(messages[0].at("content").get<std::string>(), p0.text);
    QCOMPARE(messages[1].at("content").get<std::string>(), std::string("the answer of turn zero"));
    QCOMPARE(messages[2].at("content").get<std::string>(), p1.text);
    QVERIFY(!messages[3].at("content").get<std::string>().empty()); // stand-in of the 7 answered tokens
    QVERIFY(!messages[4].at("content").get<std::string>().empty());
}

void TestWorkloadDriver::agenticStepsFanOutAndThink()
{
    Workload w;
    w.kind = Workload::Kind::Agentic;
    w.thinkTimeS = 0.2;
    w.steps = {AgenticStep{30, 5, 1}, AgenticStep{0, 0, 3}, AgenticStep{0, 8, 1}};
    w.chainLength = 3;
    w.sessions = 2;
    auto made = WorkloadDriver::create(scenarioWith(w, 40, 6));
    QVERIFY(made.ok() && *made);
    WorkloadDriver &d = **made;
    WorkloadPointSetup setup;
    setup.concurrency = 1;
    QCOMPARE(d.begin(setup), 2 * 5); // 2 chains × (1 + 3 + 1) calls
    auto r = d.initial();
    QCOMPARE(r.size(), std::size_t(1)); // concurrency 1: one chain at a time
    QCOMPARE(r[0].isl, 30);
    QCOMPARE(r[0].osl, 5);
    std::uint64_t seq = 0;
    d.bind(seq, r[0]);
    auto fan = d.onComplete(done(seq, 5), 500);
    QCOMPARE(fan.size(), std::size_t(3));
    for (int j = 0; j < 3; ++j) {
        QCOMPARE(fan[j].step, 1);
        QCOMPARE(fan[j].sub, j);
        QCOMPARE(fan[j].isl, 40); // the phase's
        QCOMPARE(fan[j].osl, 6);
        QCOMPARE(fan[j].notBeforeNs, std::int64_t(500 + 200'000'000));
        d.bind(++seq, fan[j]);
    }
    // The next step waits for every sub-call.
    QVERIFY(d.onComplete(done(seq - 2, 6), 1000).empty());
    QVERIFY(d.onComplete(done(seq, 6), 2000).empty());
    auto last = d.onComplete(done(seq - 1, 6), 3000);
    QCOMPARE(last.size(), std::size_t(1));
    QCOMPARE(last[0].step, 2);
    QCOMPARE(last[0].osl, 8);
    d.bind(++seq, last[0]);
    // Chain 0 done: its slot starts chain 1 at once (no think time before a new chain).
    auto chain1 = d.onComplete(done(seq, 8), 4000);
    QCOMPARE(chain1.size(), std::size_t(1));
    QCOMPARE(chain1[0].session, std::uint64_t(1));
    QCOMPARE(chain1[0].step, 0);
    QCOMPARE(chain1[0].notBeforeNs, std::int64_t(0));
}

void TestWorkloadDriver::chainMetricsArithmetic()
{
    Workload w;
    w.kind = Workload::Kind::Agentic;
    w.thinkTimeS = 0.1;
    w.steps = {AgenticStep{10, 2, 1}, AgenticStep{10, 2, 2}};
    w.sessions = 1;
    auto made = WorkloadDriver::create(scenarioWith(w, 10, 2));
    QVERIFY(made.ok());
    WorkloadDriver &d = **made;
    WorkloadPointSetup setup;
    QCOMPARE(d.begin(setup), 3);
    auto r = d.initial();
    d.bind(0, r[0]);
    auto fan = d.onComplete(done(0, 2), 0);
    d.bind(1, fan[0]);
    d.bind(2, fan[1]);
    // Step 0: [0, 400] ms; think 100 ms; step 1: [505, 900] and [510, 1000] (overlapping) → model wait 400 +
    // 495 = 895 ms, latency 1000, think 100, client gap 5 ms.
    auto rec = [](std::uint64_t seq, double sendMs, double firstMs, double endMs) {
        RequestRecord x;
        x.seq = seq;
        x.tSend = static_cast<std::int64_t>(sendMs * 1e6);
        x.tEnd = static_cast<std::int64_t>(endMs * 1e6);
        x.events.push_back(
            StreamEvent{static_cast<std::int64_t>(firstMs * 1e6), StreamEvent::Kind::Content, 1});
        return x;
    };
    const std::vector<RequestRecord> recs{rec(0, 0, 50, 400), rec(1, 505, 520, 900), rec(2, 510, 540, 1000)};
    const auto m = d.summarize(recs);
    QCOMPARE(m.at("sessions"), 1.0);
    QCOMPARE(m.at("sessions_ok"), 1.0);
    QCOMPARE(m.at("chain_latency_ms_p50"), 1000.0);
    QCOMPARE(m.at("model_wait_ms_mean"), 895.0);
    QCOMPARE(m.at("think_ms_mean"), 100.0);
    QVERIFY(std::abs(m.at("client_gap_ms_mean") - 5.0) < 1e-9);
    QCOMPARE(m.at("ttft_sum_ms_mean"), 50.0 + 15.0 + 30.0);
    QCOMPARE(m.at("calls_per_session_mean"), 3.0);
}

void TestWorkloadDriver::tracePromptsShareBlocks()
{
    Workload w;
    w.kind = Workload::Kind::Trace;
    w.path = THROUGHLINE_TEST_DATA_DIR "/workload/mooncake_trace.jsonl";
    w.blockTokens = 64;
    auto made = TraceDriver::create(scenarioWith(w, 1, 1));
    QVERIFY2(made.ok(), made.ok() ? "" : made.error().message.c_str());
    const TraceDriver &d = **made;
    // Sorted entries: 0 = [0,1,2] 1100 tokens, 1 = [3] 300, 2 = [0,1] 700, 3 = [0,1,4] 1200, 4 = none, 5 =
    // [3,5].
    const Prompt a = d.promptFor(0), b = d.promptFor(2), c = d.promptFor(3), x = d.promptFor(1);
    for (std::size_t i = 0; i < d.trace().entries().size(); ++i) {
        const Prompt p = d.promptFor(i);
        QCOMPARE(p.tokens, d.trace().entries()[i].inputLength);
        QCOMPARE(int(p.tokenIds.size()), p.tokens); // one id per filler word
    }
    // Two shared blocks (hash ids 0, 1) = 128 identical leading ids, then they differ.
    QVERIFY(std::equal(a.tokenIds.begin(), a.tokenIds.begin() + 128, b.tokenIds.begin()));
    QVERIFY(std::equal(a.tokenIds.begin(), a.tokenIds.begin() + 128, c.tokenIds.begin()));
    QVERIFY(!std::equal(a.tokenIds.begin() + 128, a.tokenIds.begin() + 192, c.tokenIds.begin() + 128));
    QVERIFY(a.tokenIds[0] != x.tokenIds[0] || a.tokenIds[1] != x.tokenIds[1]);
    // Text form shares the same prefix.
    const std::size_t common =
        std::mismatch(a.text.begin(), a.text.end(), b.text.begin()).first - a.text.begin();
    QVERIFY(common > 128 * 2);
    // Entry 5 ([3, 5]) starts with entry 1's block 3.
    const Prompt e5 = d.promptFor(5);
    QVERIFY(std::equal(x.tokenIds.begin(), x.tokenIds.begin() + 64, e5.tokenIds.begin()));
}

void TestWorkloadDriver::missingFilesAreErrors()
{
    Workload w;
    w.kind = Workload::Kind::Dataset;
    w.path = "/nonexistent/dir/data.jsonl";
    auto a = WorkloadDriver::create(scenarioWith(w, 1, 1));
    QVERIFY(!a.ok());
    QVERIFY(a.error().message.find("/nonexistent/dir/data.jsonl: dataset file not found") !=
            std::string::npos);
    w.kind = Workload::Kind::Trace;
    auto b = WorkloadDriver::create(scenarioWith(w, 1, 1));
    QVERIFY(!b.ok());
    QVERIFY(b.error().message.find("trace file not found") != std::string::npos);
}

void TestWorkloadDriver::dispatcherSendsOnTime()
{
    const auto t0 = std::chrono::steady_clock::now();
    std::mutex mu;
    std::vector<std::pair<std::uint64_t, std::int64_t>> got;
    DelayedDispatcher disp(t0, [&](WorkloadRequest &&r) {
        const std::int64_t now =
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
                .count();
        std::lock_guard lock(mu);
        got.emplace_back(r.session, now - r.notBeforeNs);
    });
    for (std::uint64_t i : {3, 1, 2}) {
        WorkloadRequest r;
        r.session = i;
        r.notBeforeNs = static_cast<std::int64_t>(i) * 40'000'000; // 40, 80, 120 ms
        disp.schedule(std::move(r));
    }
    QTRY_COMPARE_WITH_TIMEOUT(([&] {
                                  std::lock_guard lock(mu);
                                  return got.size();
                              }()),
                              std::size_t(3), 5000);
    std::lock_guard lock(mu);
    for (std::size_t i = 0; i < 3; ++i) {
        QCOMPARE(got[i].first, std::uint64_t(i + 1)); // earliest first
        QVERIFY(got[i].second >= 0);                  // never early
    }
    WorkloadRequest late;
    late.notBeforeNs = 3'600'000'000'000;
    disp.schedule(std::move(late));
    QCOMPARE(disp.pending(), std::size_t(1));
    disp.stop(); // drops it, joins promptly
    QCOMPARE(disp.pending(), std::size_t(0));
}

void TestWorkloadDriver::resultsSchemaCarriesWorkloadBlock()
{
    QFile f(QStringLiteral(":/schemas/results.schema.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const nlohmann::json full = nlohmann::json::parse(f.readAll().toStdString());
    // The point definition on its own (same $defs, so its $refs resolve).
    const nlohmann::json pointSchema{{"$ref", "#/$defs/point"}, {"$defs", full["$defs"]}};
    PointResult p;
    p.workload = {{"sessions", 3},
                  {"sessions_ok", 3},
                  {"chain_latency_ms_p50", 1234.5},
                  {"client_gap_ms_mean", 0.7},
                  {"ttft_sum_ms_mean", std::nan("")}};
    nlohmann::json j = p.toJson();
    QVERIFY(j.contains("workload"));
    QVERIFY(j["workload"]["ttft_sum_ms_mean"].is_null()); // NaN → null
    const JsonSchemaValidator v(pointSchema);
    auto problems = v.validate(j);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    j["workload"]["chain_latency_ms_p42"] = 1; // not a key of the vocabulary
    QVERIFY(!v.validate(j).empty());
    // Round trip through the reader; an empty block is not written.
    auto back = PointResult::fromJson(p.toJson());
    QVERIFY(back.ok());
    QCOMPARE(back->workload.at("chain_latency_ms_p50"), 1234.5);
    QVERIFY(std::isnan(back->workload.at("ttft_sum_ms_mean")));
    QVERIFY(!PointResult{}.toJson().contains("workload"));
}

QTEST_GUILESS_MAIN(TestWorkloadDriver)
#include "tst_workloaddriver.moc"
