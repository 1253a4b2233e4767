// Clock alignment, order-and-time matching and the breakdown on synthetic requests whose truth is known:
// a server clock with an offset and a drift, random network delays each way, bursts of simultaneous sends,
// a bounded server queue that dropped entries, and foreign requests.

#include "core/campaign/catalog.h"
#include "core/engine/promptsource.h"
#include "core/engine/requestbuilder.h"
#include "core/servertiming/ordermatch.h"
#include "core/servertiming/timingjoin.h"

#include <QTest>

#include <algorithm>
#include <numeric>
#include <random>

using namespace Throughline;

namespace {

struct Truth {
    double upMs, downMs, queueMs, prefillMs, decodeMs;
};

struct World {
    std::vector<ClientTimes> clients;
    std::vector<ServerTiming> entries; // entry i belongs to client i (before any shuffling)
    std::vector<Truth> truth;
};

// n requests over `spanS` seconds, in bursts of `burst` sent within 50 µs of each other.
World makeWorld(int n, double spanS, int burst, double offsetS, double drift, ServerClock clock,
                unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> net(1.0 / 0.15); // ms
    std::uniform_real_distribution<double> u(0, 1);
    World w;
    auto server = [&](double clientS) { return offsetS + (1 + drift) * clientS; };
    for (int i = 0; i < n; ++i) {
        const double sendS = 0.5 + spanS * double(i / burst) / double(n / burst) + 50e-6 * u(rng);
        Truth t{0.03 + net(rng), 0.03 + net(rng), 5 * u(rng), 20 + 30 * u(rng), 100 + 400 * u(rng)};
        const double arr = sendS + t.upMs / 1e3;
        const double sched = arr + t.queueMs / 1e3;
        const double first = sched + t.prefillMs / 1e3;
        const double last = first + t.decodeMs / 1e3;
        ClientTimes c;
        c.seq = std::uint64_t(i);
        c.requestId = "run-" + std::to_string(i);
        c.tSched = std::int64_t((sendS - 0.001) * 1e9);
        c.tSend = std::int64_t((sendS - 0.0002) * 1e9);
        c.tWire = std::int64_t(sendS * 1e9);
        c.tFirstToken = std::int64_t((first + t.downMs / 1e3) * 1e9);
        c.tLastToken = std::int64_t((last + (0.03 + net(rng)) / 1e3) * 1e9);
        c.tEnd = c.tLastToken + 200'000;
        c.ok = true;
        ServerTiming e;
        e.format = TimingFormat::TrtllmPerf;
        e.clock = clock;
        e.engineId = std::to_string(1000 + i);
        e.tArrival = server(arr);
        e.tEngineQueued = server(arr);
        e.tScheduled = server(sched);
        e.tFirstToken = e.tFirstSent = server(first);
        e.tLastToken = server(last);
        w.clients.push_back(c);
        w.entries.push_back(e);
        w.truth.push_back(t);
    }
    return w;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double p99(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[size_t(double(v.size() - 1) * 0.99)];
}

} // namespace

class TestTimingJoin : public QObject
{
    Q_OBJECT

private slots:
    void clockFitRecoversOffsetAndDrift_data();
    void clockFitRecoversOffsetAndDrift();
    void clockFitNeedsBothBounds();
    void orderAndTimeMatchSurvivesDropsAndBursts();
    void breakdownPartsAndStatuses();
    void inlineJoinKeepsProblemsAndGoesOn();
    void clientIdJoin();
    void traceparentHeader();
    void requestsFollowTheBackendPreset();
};

void TestTimingJoin::clockFitRecoversOffsetAndDrift_data()
{
    QTest::addColumn<double>("offsetS");
    QTest::addColumn<double>("drift");
    QTest::newRow("steady, +80 ppm") << 5021.25 << 80e-6;
    QTest::newRow("epoch, -150 ppm") << 1796000000.0 << -150e-6;
    QTest::newRow("epoch, no drift") << 1796000000.0 << 0.0;
}

void TestTimingJoin::clockFitRecoversOffsetAndDrift()
{
    QFETCH(double, offsetS);
    QFETCH(double, drift);
    const World w = makeWorld(400, 60, 4, offsetS, drift, ServerClock::Steady, 7);
    TimingBatch b;
    b.timings = w.entries;
    const ServerTimingJoin j = joinFetchedTiming(TimingFormat::TrtllmPerf, w.clients, b);
    QVERIFY2(j.fit.valid && j.fit.consistent, j.fit.note.c_str());
    QCOMPARE(j.matched, 400);
    QVERIFY2(std::abs(j.fit.drift - drift) < 5e-6, qPrintable(QString::number(j.fit.drift * 1e6)));
    QVERIFY(j.fit.boundMs < 0.2);
    std::vector<double> upErr, downErr;
    for (size_t i = 0; i < w.clients.size(); ++i) {
        const RequestBreakdown &r = j.requests[i];
        QCOMPARE(r[BreakdownPart::NetworkUp].status, PartStatus::Measured);
        QVERIFY(r[BreakdownPart::NetworkUp].aligned);
        upErr.push_back(std::abs(r[BreakdownPart::NetworkUp].ms - w.truth[i].upMs));
        downErr.push_back(std::abs(r[BreakdownPart::NetworkDown].ms - w.truth[i].downMs));
        QVERIFY(std::abs(r[BreakdownPart::Prefill].ms - w.truth[i].prefillMs) < 0.01);
        QVERIFY(std::abs(r[BreakdownPart::Decode].ms - w.truth[i].decodeMs) < 0.01);
    }
    QVERIFY2(median(upErr) < 0.1 && p99(upErr) < 0.2, qPrintable(QString::number(p99(upErr))));
    QVERIFY2(median(downErr) < 0.1 && p99(downErr) < 0.2, qPrintable(QString::number(p99(downErr))));
}

void TestTimingJoin::clockFitNeedsBothBounds()
{
    ClockSamples s;
    ClockFit f = fitClock(s);
    QVERIFY(!f.valid);
    QCOMPARE(QString::fromStdString(f.note),
             u"no request with both a send time and a server arrival time"_qs);
    s.upper.push_back({1.0, 101.0});
    f = fitClock(s);
    QVERIFY(!f.valid);
    // Crossing bounds (a server that stamps arrivals before the client sent): flagged, bound widened.
    s.lower.push_back({1.5, 101.6});
    f = fitClock(s);
    QVERIFY(f.valid);
    QVERIFY(!f.consistent);
    QVERIFY(f.boundMs > 40);
}

void TestTimingJoin::orderAndTimeMatchSurvivesDropsAndBursts()
{
    World w = makeWorld(600, 40, 8, 7000.5, 40e-6, ServerClock::Steady, 11);
    // The server's bounded queue lost 10 % of the entries; 20 foreign requests (another client) arrived.
    std::vector<ServerTiming> entries;
    std::vector<int> owner;
    std::mt19937_64 rng(3);
    for (size_t i = 0; i < w.entries.size(); ++i)
        if (rng() % 10 != 0) {
            entries.push_back(w.entries[i]);
            owner.push_back(int(i));
        }
    World foreign = makeWorld(20, 40, 1, 7000.5 + 0.0133, 40e-6, ServerClock::Steady, 99);
    for (ServerTiming &e : foreign.entries) {
        entries.push_back(e);
        owner.push_back(-1);
    }
    std::vector<size_t> order(entries.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<ServerTiming> shuffled;
    std::vector<int> shuffledOwner;
    for (size_t k : order) {
        shuffled.push_back(entries[k]);
        shuffledOwner.push_back(owner[k]);
    }
    const std::vector<int> m = matchByOrderAndTime(w.clients, shuffled);
    int right = 0, wrong = 0, none = 0, expectedNone = 0;
    std::vector<bool> hasEntry(w.clients.size(), false);
    for (int o : shuffledOwner)
        if (o >= 0)
            hasEntry[size_t(o)] = true;
    for (size_t i = 0; i < w.clients.size(); ++i) {
        if (!hasEntry[i])
            ++expectedNone;
        if (m[i] < 0)
            ++none;
        else if (shuffledOwner[size_t(m[i])] == int(i))
            ++right;
        else
            ++wrong;
    }
    qInfo("right %d wrong %d none %d (expected none %d)", right, wrong, none, expectedNone);
    QVERIFY(right >= int(w.clients.size()) - expectedNone - 6); // ≥ 99 % of those with an entry
    QVERIFY(wrong <= 6 + (expectedNone - none));
}

void TestTimingJoin::breakdownPartsAndStatuses()
{
    ClientTimes c;
    c.seq = 4;
    c.tSched = 0;
    c.tSend = 2'000'000;
    c.tWire = 3'000'000;
    c.tFirstToken = 60'000'000;
    c.tLastToken = 260'000'000;
    c.tEnd = 261'000'000;
    c.ok = true;
    // No server timing: the client's parts and the remainder only.
    RequestBreakdown r = buildBreakdown(c, nullptr, ClockFit{});
    QCOMPARE(r[BreakdownPart::ClientQueue].ms, 2.0);
    QCOMPARE(r[BreakdownPart::ConnectSend].ms, 1.0);
    QCOMPARE(r[BreakdownPart::StreamTail].ms, 1.0);
    QCOMPARE(r[BreakdownPart::Prefill].status, PartStatus::Unknown);
    QCOMPARE(r[BreakdownPart::Unattributed].status, PartStatus::Derived);
    QCOMPARE(r[BreakdownPart::Unattributed].ms, 257.0);
    // vLLM-like durations: no clock, so no network part; the remainder is network + front end.
    ServerTiming v;
    v.format = TimingFormat::Vllm;
    v.queueMs = 4;
    v.prefillMs = 40;
    v.decodeMs = 199;
    r = buildBreakdown(c, &v, ClockFit{});
    QCOMPARE(r[BreakdownPart::ServerQueue].ms, 4.0);
    QCOMPARE(r[BreakdownPart::Prefill].ms, 40.0);
    QCOMPARE(r[BreakdownPart::Decode].ms, 199.0);
    QCOMPARE(r[BreakdownPart::NetworkUp].status, PartStatus::Unknown);
    QCOMPARE(r[BreakdownPart::Unattributed].ms, 261.0 - 2 - 1 - 1 - 4 - 40 - 199);
    QVERIFY(!hasValue(r.alignBoundMs));
    QCOMPARE(std::string(breakdownPartKey(BreakdownPart::KvTransfer)), std::string("kv_transfer"));
    QCOMPARE(std::string(breakdownPartKey(BreakdownPart::Unattributed)), std::string("unattributed"));
}

void TestTimingJoin::inlineJoinKeepsProblemsAndGoesOn()
{
    std::vector<ClientTimes> clients(3);
    for (int i = 0; i < 3; ++i) {
        clients[size_t(i)].seq = std::uint64_t(i);
        clients[size_t(i)].requestId = "r-" + std::to_string(i);
        clients[size_t(i)].tSched = 0;
        clients[size_t(i)].tEnd = 10'000'000;
        clients[size_t(i)].ok = true;
    }
    std::vector<Result<ServerTiming>> timing;
    timing.push_back(parseLlamaCppTimings(
        nlohmann::json::parse(
            R"({"timings":{"prompt_n":3,"prompt_ms":2.5,"predicted_n":4,"predicted_ms":6}})"),
        "r-0"));
    timing.push_back(parseLlamaCppTimings(nlohmann::json::parse(R"({"choices":[]})"), "r-1"));
    timing.push_back(parseLlamaCppTimings(
        nlohmann::json::parse(
            R"({"timings":{"prompt_n":1,"prompt_ms":"x","predicted_n":1,"predicted_ms":1}})"),
        "r-2"));
    const ServerTimingJoin j = joinInlineTiming(TimingFormat::LlamaCpp, clients, timing);
    QCOMPARE(j.matched, 1);
    QCOMPARE(j.missing, 2);
    QCOMPARE(j.problemCount, 2);
    QCOMPARE(j.requests[0][BreakdownPart::Prefill].ms, 2.5);
    QVERIFY(QString::fromStdString(j.requests[1].problem)
                .startsWith(u"request r-1: llama.cpp timings field `timings`"));
    QCOMPARE(QString::fromStdString(j.requests[2].problem),
             u"request r-2: llama.cpp timings field `timings.prompt_ms`: expected a number, got a string"_qs);
    QCOMPARE(j.requests[2][BreakdownPart::Unattributed].ms, 10.0); // the request still has its breakdown
}

void TestTimingJoin::clientIdJoin()
{
    World w = makeWorld(50, 10, 1, 1796000000.0, 20e-6, ServerClock::Epoch, 5);
    TimingBatch b;
    for (size_t i = 0; i < w.entries.size(); ++i) {
        ServerTiming e = w.entries[i];
        e.format = TimingFormat::DynamoTrace;
        e.clientId = w.clients[i].requestId;
        if (i != 7) // one request has no row
            b.timings.push_back(e);
    }
    ServerTiming stranger = w.entries[0];
    stranger.clientId = "someone-else";
    b.timings.push_back(stranger);
    const ServerTimingJoin j = joinFetchedTiming(TimingFormat::DynamoTrace, w.clients, b);
    QCOMPARE(j.matched, 49);
    QCOMPARE(j.missing, 1);
    QCOMPARE(j.extraEntries, 1);
    QCOMPARE(QString::fromStdString(j.requests[7].problem),
             u"request run-7: Dynamo request trace: no entry for this request"_qs);
    QVERIFY(std::abs(j.requests[3][BreakdownPart::NetworkUp].ms - w.truth[3].upMs) < 0.3);
}

void TestTimingJoin::traceparentHeader()
{
    // W3C trace context: version 00, the run's UUID as trace id, seq + 1 as parent id, sampled.
    QCOMPARE(RequestBuilder::traceparent("0f0e1d2c-3b4a-4958-8776-a5b4c3d2e1f0", 41),
             std::string("00-0f0e1d2c3b4a49588776a5b4c3d2e1f0-000000000000002a-01"));
    const std::string other = RequestBuilder::traceparent("run", 0);
    QCOMPARE(other.size(), size_t(55));
    QCOMPARE(other.substr(35), std::string("-0000000000000001-01"));
    QVERIFY(other.substr(3, 32).find_first_not_of("0123456789abcdef") == std::string::npos);
}

// The preset names the correlation headers; Dynamo's timing is asked for in the body when it is the format
// in force ("auto" = the preset's), next to the preset's own nvext fields; other formats leave nvext alone.
void TestTimingJoin::requestsFollowTheBackendPreset()
{
    Scenario sc;
    sc.model.name = "m";
    sc.phase = Phase{"Chat", 8, 4, {}, {}, {}};
    sc.endpoint.baseUrl = "http://127.0.0.1:9";
    sc.backend = *Catalog::builtin().backend("dynamo");
    sc.backend.requestIdHeader = "X-Correlation-Id";
    sc.backend.traceHeader = "Trace-Parent";
    sc.endpoint.serverTiming.format = "auto";
    auto prompts = std::make_shared<SyntheticPromptSource>(1);
    const HttpRequest r = RequestBuilder(sc, "run", prompts, "").build(5, 8, 4);
    auto has = [&](const std::string &line) {
        return std::find(r.headers.begin(), r.headers.end(), line) != r.headers.end();
    };
    QVERIFY(has("X-Correlation-Id: run-5"));
    QVERIFY(has("Trace-Parent: " + RequestBuilder::traceparent("run", 5)));
    const auto body = nlohmann::json::parse(r.body);
    QVERIFY(body["nvext"]["extra_fields"] == nlohmann::json::array({"timing"}));
    QVERIFY(body["nvext"]["ignore_eos"] == nlohmann::json(true));

    sc.endpoint.serverTiming.format = "vllm";
    const auto plain = nlohmann::json::parse(RequestBuilder(sc, "run", prompts, "").build(6, 8, 4).body);
    QVERIFY(!plain["nvext"].contains("extra_fields"));
    QCOMPARE(Catalog::builtin().backend("trtllm")->timingPath, std::string("/perf_metrics"));
    QCOMPARE(Catalog::builtin().backend("vllm")->timingFormat, std::string("vllm"));
    QVERIFY(Catalog::builtin().backend("openai")->timingFormat.empty());
}

QTEST_GUILESS_MAIN(TestTimingJoin)
#include "tst_timingjoin.moc"
