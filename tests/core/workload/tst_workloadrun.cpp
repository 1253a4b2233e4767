// Workloads run by RunController against the real simulated endpoint (throughline-sim child process, time
// scale 1, zero jitter, ground-truth JSONL joined by X-Request-Id): agentic chain latency vs the simulator's
// per-call t_accept → last token write plus think times (done-when: within 1 %, client gaps separately),
// multi-turn prompts growing turn by turn, trace replay on its own schedule, dataset lengths.
#include "common/demoscenario.h"
#include "common/runalone.h"
#include "core/run/runcontroller.h"
#include "core/engine/simchildlauncher.h" // tests/core/engine/ (a throughline-sim child per scenario)
#include "core/workload/tracefile.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace Throughline;
using namespace Qt::StringLiterals;

namespace {

struct Truth {
    std::int64_t tAccept = 0;
    std::int64_t tLastWrite = 0;
    int nPrompt = 0;
    int nOut = 0;
};

std::map<std::string, Truth> readTruth(const QString &path)
{
    std::map<std::string, Truth> m;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return m;
    while (!f.atEnd()) {
        const auto j = nlohmann::json::parse(f.readLine().toStdString(), nullptr, false);
        if (j.is_discarded())
            continue;
        Truth t;
        t.tAccept = j["t_accept_ns"].get<std::int64_t>();
        if (!j["t_token_write_ns"].empty())
            t.tLastWrite = j["t_token_write_ns"].back().get<std::int64_t>();
        t.nPrompt = j["n_prompt"].get<int>();
        t.nOut = j["n_out"].get<int>();
        m[j["request_id"].get<std::string>()] = t;
    }
    return m;
}

std::string data(const char *name)
{
    return std::string(THROUGHLINE_TEST_DATA_DIR "/workload/") + name;
}

} // namespace

class TestWorkloadRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void agenticChainMatchesGroundTruth();
    void agenticConcurrencyCountsChains();
    void multiTurnPromptsGrow();
    void traceReplaysOnItsSchedule();
    void datasetLengthsFromAssistantTurn();

private:
    Scenario base(int c, int requests);
    // Runs `sc` alone against a throughline-sim child that writes its ground truth to `truthPath`; an error
    // when the run fails or the scenario aborts. workers 0 = one per core.
    Result<RunOutcome> runAlone(const Scenario &sc, const QString &truthPath, int workers = 0);
    QTemporaryDir m_dir;
    Scenario m_chat;
};

void TestWorkloadRun::initTestCase()
{
    QVERIFY(m_dir.isValid());
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), TestSupport::errorText(demo));
    m_chat = *demo;
}

Scenario TestWorkloadRun::base(int c, int requests)
{
    Scenario s = m_chat;
    s.endpoint.kind = Endpoint::Kind::Simulated;
    s.endpoint.sim.timeScale = 1.0;
    s.endpoint.sim.jitter = 0;
    s.endpoint.telemetryIntervalS = 0;
    s.plan.mode = LoadPlan::Mode::Closed;
    s.plan.concurrencies = {c};
    s.plan.requestCount = requests;
    s.plan.warmupRequests = 0;
    s.plan.minWindowS = 0.1;
    s.plan.maxDurationS = 60;
    s.plan.requestTimeoutS = 30;
    s.phase.isl = 64;
    s.phase.osl = 24;
    return s;
}

Result<RunOutcome> TestWorkloadRun::runAlone(const Scenario &sc, const QString &truthPath, int workers)
{
    RunOptions opt;
    opt.simLauncher = simChildLauncher(truthPath);
    opt.workers = workers;
    return TestSupport::runAlone(sc, opt);
}

void TestWorkloadRun::agenticChainMatchesGroundTruth()
{
    // One chain at a time (C = 1) so chains are consecutive runs of sequence numbers: 4 steps, the second
    // fanning out to 3 parallel sub-calls → 6 calls per chain, 3 think gaps of 50 ms. The 1 % must hold on
    // one of three attempts (a descheduled read on this shared 2-core machine costs milliseconds); every
    // attempt's figures are printed.
    const int chains = 3, perChain = 6;
    const double thinkS = 0.05;
    bool met = false;
    for (int attempt = 1; attempt <= 3 && !met; ++attempt) {
        const QString truthPath = m_dir.filePath(u"truth_agentic_%1.jsonl"_s.arg(attempt));
        Scenario sc = base(1, 0);
        sc.phase.workload.kind = Workload::Kind::Agentic;
        sc.phase.workload.sessions = chains;
        sc.phase.workload.thinkTimeS = thinkS;
        sc.phase.osl = 48;
        sc.phase.workload.steps = {AgenticStep{96, 32, 1}, AgenticStep{0, 0, 3}, AgenticStep{32, 64, 1},
                                   AgenticStep{0, 0, 1}};
        sc.phase.workload.chainLength = 4;
        auto out = runAlone(sc, truthPath, 2);
        QVERIFY2(out.ok(), TestSupport::errorText(out));
        const auto &so = out->scenarios.at(0);
        QCOMPARE(so.points.size(), std::size_t(1));
        const PointOutcome &pt = so.points[0];
        std::vector<RequestRecord> recs = pt.records;
        QCOMPARE(int(recs.size()), chains * perChain);
        std::sort(recs.begin(), recs.end(), [](const auto &a, const auto &b) { return a.seq < b.seq; });
        const auto gt = readTruth(truthPath);
        double worstErrPct = 0, worstGapMs = 0;
        std::vector<double> latencies;
        for (int c = 0; c < chains; ++c) {
            std::int64_t firstSend = recs[c * perChain].tSend, lastEnd = 0;
            // Per step: first accept → last token write of its calls (sub-calls overlap).
            const int stepOf[perChain] = {0, 1, 1, 1, 2, 3};
            std::map<int, std::pair<std::int64_t, std::int64_t>> steps;
            for (int k = 0; k < perChain; ++k) {
                const RequestRecord &r = recs[c * perChain + k];
                QCOMPARE(r.error, ErrorClass::None);
                firstSend = std::min(firstSend, r.tSend);
                lastEnd = std::max(lastEnd, r.tEnd);
                const auto it = gt.find(out->runId + "-" + std::to_string(r.seq));
                QVERIFY(it != gt.end());
                QCOMPARE(it->second.nOut, r.intendedOsl);
                auto [s, inserted] =
                    steps.emplace(stepOf[k], std::make_pair(it->second.tAccept, it->second.tLastWrite));
                if (!inserted) {
                    s->second.first = std::min(s->second.first, it->second.tAccept);
                    s->second.second = std::max(s->second.second, it->second.tLastWrite);
                }
            }
            QCOMPARE(recs[c * perChain].intendedOsl, 32);
            QCOMPARE(recs[c * perChain + 1].intendedOsl, 48); // the phase's
            QCOMPARE(recs[c * perChain + 4].intendedOsl, 64);
            double modelNs = 0;
            for (const auto &[k, span] : steps)
                modelNs += static_cast<double>(span.second - span.first);
            const double latencyMs = static_cast<double>(lastEnd - firstSend) / 1e6;
            const double expectedMs = modelNs / 1e6 + 3 * thinkS * 1e3;
            const double errPct = std::abs(latencyMs - expectedMs) / latencyMs * 100;
            worstErrPct = std::max(worstErrPct, errPct);
            worstGapMs = std::max(worstGapMs, latencyMs - expectedMs);
            latencies.push_back(latencyMs);
            QVERIFY(latencyMs >=
                    expectedMs - 0.5); // the client cannot see a chain end before the server does
        }
        const auto &w = pt.result.workload;
        QCOMPARE(w.at("sessions"), double(chains));
        QCOMPARE(w.at("sessions_ok"), double(chains));
        QCOMPARE(w.at("calls_per_session_mean"), double(perChain));
        QCOMPARE(w.at("think_ms_mean"), 150.0);
        double meanLat = 0;
        for (double l : latencies)
            meanLat += l / chains;
        QVERIFY(std::abs(w.at("chain_latency_ms_mean") - meanLat) < 1e-6 * meanLat);
        QVERIFY(w.at("client_gap_ms_mean") >= 0);
        QVERIFY(w.at("ttft_sum_ms_mean") > 0);
        QVERIFY(w.at("model_wait_ms_mean") + w.at("think_ms_mean") <= w.at("chain_latency_ms_mean") + 1e-6);
        // results.json carries the block.
        const auto j = pt.result.toJson();
        QVERIFY(j.contains("workload"));
        QCOMPARE(j["workload"]["sessions"].get<double>(), double(chains));
        qInfo("attempt %d: chain latency mean %.1f ms vs ground truth + think: worst error %.3f %%, worst "
              "client "
              "gap %.2f ms; reported client gap mean %.2f ms (%.3f %%), model wait mean %.1f ms, Σ TTFT mean "
              "%.1f ms",
              attempt, meanLat, worstErrPct, worstGapMs, w.at("client_gap_ms_mean"),
              w.at("client_gap_pct_mean"), w.at("model_wait_ms_mean"), w.at("ttft_sum_ms_mean"));
        met = worstErrPct <= 1.0;
    }
    QVERIFY2(met, "chain latency did not match ground truth + think times within 1 % in 3 attempts");
}

void TestWorkloadRun::agenticConcurrencyCountsChains()
{
    const QString truthPath = m_dir.filePath(u"truth_agentic_c.jsonl"_s);
    Scenario sc = base(2, 0);
    sc.phase.osl = 12;
    sc.phase.workload.kind = Workload::Kind::Agentic;
    sc.phase.workload.chainLength = 3;
    sc.phase.workload.fanOut = 2;
    sc.phase.workload.sessions = 4;
    auto out = runAlone(sc, truthPath);
    QVERIFY2(out.ok(), TestSupport::errorText(out));
    const auto &so = out->scenarios.at(0);
    const PointOutcome &pt = so.points.at(0);
    QCOMPARE(int(pt.records.size()), 4 * 3 * 2);
    // Two chains in flight, each with a fan-out of 2: never more than 4 requests at once.
    std::vector<std::pair<std::int64_t, int>> edges;
    for (const auto &r : pt.records) {
        edges.emplace_back(r.tSend, 1);
        edges.emplace_back(r.tEnd, -1);
    }
    std::sort(edges.begin(), edges.end());
    int cur = 0, peak = 0;
    for (const auto &[t, d] : edges)
        peak = std::max(peak, cur += d);
    QVERIFY2(peak <= 4 && peak >= 3, qPrintable(QString::number(peak)));
    QCOMPARE(pt.result.workload.at("sessions_ok"), 4.0);
    QCOMPARE(pt.result.load.concurrency, 2);
}

void TestWorkloadRun::multiTurnPromptsGrow()
{
    const QString truthPath = m_dir.filePath(u"truth_multiturn.jsonl"_s);
    Scenario sc = base(1, 0);
    sc.phase.isl = 40;
    sc.phase.osl = 16;
    sc.phase.workload.kind = Workload::Kind::MultiTurn;
    sc.phase.workload.turns = 3;
    sc.phase.workload.sessions = 2;
    sc.phase.workload.thinkTimeS = 0.02;
    sc.plan.storeText = true; // the streamed answers become the history
    auto out = runAlone(sc, truthPath);
    QVERIFY2(out.ok(), TestSupport::errorText(out));
    const auto &so = out->scenarios.at(0);
    std::vector<RequestRecord> recs = so.points.at(0).records;
    QCOMPARE(recs.size(), std::size_t(6));
    std::sort(recs.begin(), recs.end(), [](const auto &a, const auto &b) { return a.seq < b.seq; });
    const auto gt = readTruth(truthPath);
    for (int s = 0; s < 2; ++s) {
        for (int k = 1; k < 3; ++k) {
            const RequestRecord &prev = recs[s * 3 + k - 1], &cur = recs[s * 3 + k];
            // Intended ISL: previous prompt + its answer + a new message of the phase's ISL.
            QVERIFY(cur.intendedIsl >= prev.intendedIsl + prev.nOut + 40 - 4);
            // The server saw the prompt grow by at least the answer's text (its counter: ≈ bytes / 4).
            const Truth &tp = gt.at(out->runId + "-" + std::to_string(prev.seq));
            const Truth &tc = gt.at(out->runId + "-" + std::to_string(cur.seq));
            QVERIFY2(tc.nPrompt > tp.nPrompt + static_cast<int>(prev.text.size() / 4),
                     qPrintable(u"%1 vs %2"_s.arg(tc.nPrompt).arg(tp.nPrompt)));
            // Think time: the next turn was scheduled no earlier than 20 ms after the answer ended.
            QVERIFY(cur.tSched - prev.tEnd >= 20'000'000);
        }
    }
    QCOMPARE(so.points[0].result.workload.at("sessions_ok"), 2.0);
}

void TestWorkloadRun::traceReplaysOnItsSchedule()
{
    const QString truthPath = m_dir.filePath(u"truth_trace.jsonl"_s);
    Scenario sc = base(1, 0);
    sc.phase.workload.kind = Workload::Kind::Trace;
    sc.phase.workload.path = data("mooncake_trace.jsonl");
    sc.phase.workload.speedUp = 2;
    sc.phase.workload.blockTokens = 64;
    auto out = runAlone(sc, truthPath);
    QVERIFY2(out.ok(), TestSupport::errorText(out));
    const auto &so = out->scenarios.at(0);
    QCOMPARE(so.points.size(), std::size_t(1)); // one point whatever the plan's concurrencies
    const PointOutcome &pt = so.points[0];
    auto trace = TraceFile::load(data("mooncake_trace.jsonl"));
    QVERIFY(trace.ok());
    const auto offsets = trace->offsetsNs(2.0);
    std::vector<RequestRecord> recs = pt.records;
    QCOMPARE(recs.size(), trace->entries().size());
    std::sort(recs.begin(), recs.end(), [](const auto &a, const auto &b) { return a.tSched < b.tSched; });
    const auto gt = readTruth(truthPath);
    for (std::size_t i = 0; i < recs.size(); ++i) {
        const TraceEntry &e = trace->entries()[i];
        QCOMPARE(recs[i].intendedIsl, e.inputLength);
        QCOMPARE(recs[i].intendedOsl, e.outputLength);
        QCOMPARE(recs[i].tSched - recs[0].tSched, offsets[i]); // the trace's schedule ÷ speed-up
        QVERIFY(recs[i].tSend - recs[i].tSched < 50'000'000);  // sent on time (loaded 2-core machine)
        QCOMPARE(gt.at(out->runId + "-" + std::to_string(recs[i].seq)).nOut, e.outputLength);
    }
    QCOMPARE(pt.result.load.mode, PointLoad::Mode::Rate);
    QCOMPARE(pt.result.load.rate, 6 / 0.25); // the trace's mean rate at speed-up 2
}

void TestWorkloadRun::datasetLengthsFromAssistantTurn()
{
    const QString truthPath = m_dir.filePath(u"truth_dataset.jsonl"_s);
    Scenario sc = base(2, 8);
    sc.phase.workload.kind = Workload::Kind::Dataset;
    sc.phase.workload.path = data("sharegpt.jsonl");
    auto out = runAlone(sc, truthPath);
    QVERIFY2(out.ok(), TestSupport::errorText(out));
    const auto &so = out->scenarios.at(0);
    const auto &recs = so.points.at(0).records;
    QCOMPARE(recs.size(), std::size_t(8));
    // Output lengths ≈ the assistant turns' characters ÷ 4: a, b, c, e → 8, 2, 22, 14 (without replacement,
    // every sample once per 4 requests).
    std::map<int, int> seen;
    const auto gt = readTruth(truthPath);
    for (const auto &r : recs) {
        QCOMPARE(r.error, ErrorClass::None);
        ++seen[r.intendedOsl];
        QCOMPARE(gt.at(out->runId + "-" + std::to_string(r.seq)).nOut, r.intendedOsl);
    }
    QCOMPARE(seen, (std::map<int, int>{{2, 2}, {8, 2}, {14, 2}, {22, 2}}));
    QCOMPARE(so.requestTemplate["prompt_source"].get<std::string>(), std::string("dataset"));
}

QTEST_GUILESS_MAIN(TestWorkloadRun)
#include "tst_workloadrun.moc"
