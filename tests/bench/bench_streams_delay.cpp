// bench_streams delay and cpu (bench_streams.cpp says what they measure).
#include "bench_streams_support.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace Throughline::StreamsBench {

namespace {

// The simulator's ground truth per request id: first token write and every token write (steady clock ns).
struct TruthWrites {
    std::int64_t firstNs = 0;
    std::vector<std::int64_t> tokenNs;
};

std::map<std::string, TruthWrites> firstWrites(const std::string &path)
{
    std::map<std::string, TruthWrites> m;
    std::ifstream f(path);
    std::string line;
    while (std::getline(f, line)) {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j["t_first_token_write_ns"].is_number())
            continue;
        TruthWrites &w = m[j["request_id"].get<std::string>()];
        w.firstNs = j["t_first_token_write_ns"].get<std::int64_t>();
        if (j.contains("t_token_write_ns") && j["t_token_write_ns"].is_array())
            w.tokenNs = j["t_token_write_ns"].get<std::vector<std::int64_t>>();
    }
    return m;
}

Scenario delayScenario(const Scenario &base, int c, double bigTimeScale)
{
    Scenario s = bigDeployment(base, 128, 32);
    s.endpoint.sim.timeScale = c > 2000 ? bigTimeScale : 1.0;
    s.plan.concurrencies = {c};
    // Steady state, not a thundering herd: three waves of C requests (two at 16,384), ramped in; only
    // requests after the first wave are measured, when first tokens arrive among running streams' tokens.
    s.plan.requestCount = std::max(c > 2000 ? 2 * c : 3 * c, 64);
    s.plan.rampUpS = c > 2000 ? 10 : (c > 64 ? 1 : 0);
    s.plan.maxDurationS = 900;
    s.plan.requestTimeoutS = 600;
    s.plan.firstTokenPriority = g_opt.firstTokenPriority;
    return s;
}

struct DelayFigures {
    std::vector<double> firstMs; // client-added first-token delay, steady-state requests
    std::vector<double> laterMs; // content events after the first, same requests
    std::vector<double> stepMs;  // per request: mean gap between content events ≈ the decode step
    int errors = 0;
    long long events = 0;
};

// Per request with more than one content event: the mean gap between them, in wall time.
void tallyDecodeSteps(const std::vector<RequestRecord> &recs, double scale, DelayFigures &f)
{
    for (const RequestRecord &r : recs) {
        f.events += static_cast<long long>(r.events.size());
        std::int64_t first = kNoTime, last = kNoTime;
        int content = 0;
        for (const StreamEvent &e : r.events)
            if (e.kind == StreamEvent::Kind::Content) {
                first = first == kNoTime ? e.tNs : first;
                last = e.tNs;
                ++content;
            }
        if (content > 1)
            f.stepMs.push_back(static_cast<double>(last - first) / 1e6 / scale / (content - 1));
    }
}

// Every later content event against its token's write (one token per chunk here): the first token's figure
// must not be bought with a worse one for the others.
void tallyLaterTokens(const RequestRecord &r, const TruthWrites &truth, const RunOutcome &out,
                      DelayFigures &f)
{
    std::size_t k = 0;
    for (const StreamEvent &e : r.events) {
        if (e.kind != StreamEvent::Kind::Content)
            continue;
        if (k > 0 && k < truth.tokenNs.size())
            f.laterMs.push_back((static_cast<double>(e.tNs) / out.timeScale +
                                 static_cast<double>(out.t0SteadyNs) -
                                 static_cast<double>(truth.tokenNs[k])) /
                                1e6);
        ++k;
    }
}

// Client event times (model time on the run clock) against the simulator's writes (wall steady clock).
DelayFigures measureDelays(const RunOutcome &out, const std::map<std::string, TruthWrites> &gt, int c)
{
    DelayFigures f;
    const auto &recs = out.scenarios[0].points[0].records;
    const double scale = out.timeScale; // records are scaled back to model time: undo for wall time
    tallyDecodeSteps(recs, scale, f);
    for (const RequestRecord &r : recs) {
        if (!r.ok()) {
            ++f.errors;
            continue;
        }
        if (c > 1 && r.seq < static_cast<std::uint64_t>(c))
            continue; // first wave: all start together
        const auto it = gt.find(out.runId + "-" + std::to_string(r.seq));
        const std::int64_t first = firstContentNs(r);
        if (it == gt.end() || first == kNoTime)
            continue;
        const double clientWallNs = static_cast<double>(first) / scale + static_cast<double>(out.t0SteadyNs);
        f.firstMs.push_back((clientWallNs - static_cast<double>(it->second.firstNs)) / 1e6);
        tallyLaterTokens(r, it->second, out, f);
        if (std::getenv("BENCH_STREAMS_DEBUG"))
            std::fprintf(
                stderr, "[debug] seq %llu server write %.3f ms client first token %.3f ms delay %.3f ms\n",
                static_cast<unsigned long long>(r.seq),
                (static_cast<double>(it->second.firstNs) - static_cast<double>(out.t0SteadyNs)) / 1e6,
                (clientWallNs - static_cast<double>(out.t0SteadyNs)) / 1e6, f.firstMs.back());
    }
    return f;
}

void printDelays(int c, const RunOutcome &out, const DelayFigures &f, double cpuS)
{
    const PointOutcome &point = out.scenarios[0].points[0];
    std::printf("[delay] C=%5d time scale %.2f: n=%zu errors=%d client-added first-token delay p50 %.3f ms, "
                "p99 %.3f ms, max %.3f ms (decode step ~%.1f ms; first-token priority %s)\n",
                c, out.timeScale, f.firstMs.size(), f.errors, pct(f.firstMs, 50), pct(f.firstMs, 99),
                pct(f.firstMs, 100), pct(f.stepMs, 50), g_opt.firstTokenPriority ? "on" : "off");
    if (const nlohmann::json &cl = point.client; cl.is_object())
        std::printf("[delay] C=%5d: client send lateness p50 %.3f ms, p99 %.3f ms; loop lag p99 %.3f ms; "
                    "priority-set reads %llu\n",
                    c, cl.value("send_lateness_p50_ms", 0.0), cl.value("send_lateness_p99_ms", 0.0),
                    cl.value("loop_lag_p99_ms", 0.0),
                    static_cast<unsigned long long>(cl.value("priority_socket_reads", std::uint64_t(0))));
    std::printf("[delay] C=%5d: later tokens (content events 2..N vs their writes): n=%zu client-added "
                "delay p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
                c, f.laterMs.size(), pct(f.laterMs, 50), pct(f.laterMs, 99), pct(f.laterMs, 100));
    // Whole client process (workers, controller, aggregation; user + system, so curl and the kernel's socket
    // reads are in it) per SSE event received; the simulator is another process.
    std::printf("[delay] C=%5d: client CPU %.2f s for %lld SSE events in %zu requests: %.2f us/event "
                "all-in (per-request work and idle polling included; `cpu` mode separates them)\n",
                c, cpuS, f.events, point.records.size(),
                f.events > 0 ? cpuS * 1e6 / static_cast<double>(f.events) : 0.0);
    std::fflush(stdout);
}

} // namespace

int benchDelay(const Scenario &base, const std::vector<int> &levels, double bigTimeScale)
{
    for (int c : levels) {
        const Scenario s = delayScenario(base, c, bigTimeScale);
        const std::string truth = "/tmp/bench_streams_truth_" + std::to_string(c) + ".jsonl";
        std::remove(truth.c_str());
        const double cpu0 = processCpuS();
        PointRun pr = runPoint(s, truth);
        const double cpuS = processCpuS() - cpu0;
        if (!pr.outcome.ok() || pr.outcome->scenarios.empty() || pr.outcome->scenarios[0].points.empty()) {
            std::fprintf(stderr, "[delay] C=%d: run failed %s\n", c,
                         pr.outcome.ok() ? pr.outcome->scenarios.at(0).abortReason.c_str()
                                         : pr.outcome.error().message.c_str());
            return 1;
        }
        printDelays(c, *pr.outcome, measureDelays(*pr.outcome, firstWrites(truth), c), cpuS);
    }
    return 0;
}

// Client CPU per SSE event and per request, separated: the same C and request count at two output lengths;
// the CPU difference ÷ the event difference is the marginal cost of one more event (curl, the kernel's
// reads, SSE reassembly, classification, record), the rest per request (build, connection reuse, send,
// completion, aggregation). Whole client process, user + system; the simulator is another process.
int benchCpu(const Scenario &base, int c)
{
    struct Run {
        int osl;
        double cpuS = 0;
        long long events = 0, requests = 0;
        double wallS = 0;
    };
    std::vector<Run> runs{{16}, {256}};
    for (Run &run : runs) {
        Scenario s = bigDeployment(base, 128, run.osl);
        s.plan.concurrencies = {c};
        s.plan.requestCount = 2 * c;
        s.plan.rampUpS = 1;
        s.plan.maxDurationS = 900;
        s.plan.requestTimeoutS = 600;
        const double cpu0 = processCpuS();
        const auto w0 = std::chrono::steady_clock::now();
        PointRun pr = runPoint(s, {});
        run.cpuS = processCpuS() - cpu0;
        run.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
        if (!pr.outcome.ok() || pr.outcome->scenarios.empty() || pr.outcome->scenarios[0].points.empty()) {
            std::fprintf(stderr, "[cpu] OSL %d: run failed\n", run.osl);
            return 1;
        }
        for (const RequestRecord &r : pr.outcome->scenarios[0].points[0].records) {
            run.events += static_cast<long long>(r.events.size());
            ++run.requests;
        }
        std::printf("[cpu] C=%d OSL %4d: %lld requests, %lld SSE events, client CPU %.2f s in %.1f s wall: "
                    "%.2f us/event all-in\n",
                    c, run.osl, run.requests, run.events, run.cpuS, run.wallS,
                    run.cpuS * 1e6 / static_cast<double>(std::max(1LL, run.events)));
        std::fflush(stdout);
    }
    const Run &a = runs[0], &b = runs[1];
    // cpu = requests × perRequest + events × perEvent, solved from the two runs.
    const double det = double(a.requests) * double(b.events) - double(b.requests) * double(a.events);
    if (det == 0)
        return 1;
    const double perEventUs = (double(a.requests) * b.cpuS - double(b.requests) * a.cpuS) / det * 1e6;
    const double perRequestUs = (a.cpuS * double(b.events) - b.cpuS * double(a.events)) / det * 1e6;
    std::printf("[cpu] C=%d: client CPU per SSE event %.2f us (goal <= 2), per request %.0f us "
                "(fit over OSL 16 and 256; whole process, user + system)\n",
                c, perEventUs, perRequestUs);
    return 0;
}

} // namespace Throughline::StreamsBench
