// Network-level engine benchmark against a throughline-sim child process (gpt-oss-120b on 8× H200, room for
// 16,384 running sequences), driven through RunController exactly as `throughline-cli run` drives it:
//   delay  client-added first-token delay (client first content event − the simulator's first token write,
//          joined by X-Request-Id through its ground-truth log) at C = 1, 64, 1,024 (time scale 1, no jitter)
//          and at 16,384 (time scale --time-scale), in steady state (the first wave of C requests is not
//          measured); goal p99 ≤ 1 ms at 1,024. Also prints the same delay for every later content event
//          (against the simulator's per-token writes), the client's send lateness, and its CPU per SSE event
//          at each level (whole process, user + system: curl, kernel reads, parsing, aggregation; goal ≤ 2
//          µs).
//   cpu    client CPU per SSE event and per request, separated by two output lengths, at C = 256 and
//          1,024 (or --levels).
//   hold   16,384 concurrent HTTP/1.1 streams held for --hold seconds: "held" = all open, zero client errors,
//          every stream receiving an event at least every 2 s (wall clock) during the hold window. Prints the
//          aggregate event rate, client CPU, and client RSS per in-flight stream.
//   rss    client RSS per in-flight stream at Chat 128/128 and Generation 512/8000 (goals 64 / 160 KiB).
// Usage: bench_streams [delay|cpu|hold|rss|rss-chat|rss-gen|all] [--streams N] [--hold S] [--time-scale X]
// [--ramp S] [--levels C1,C2,…] (delay: default 1,64,1024 plus --streams) [--workers N] (default: one per
// core this process may run on) [--sim-nice N] [--sim-cpu N] (niceness / CPU of the simulator's threads)
// [--client-cpu N] (pin this process, so every engine worker, to CPU N). By default the simulator shares
// this machine's cores with the client, so its bursts of writes preempt the client's reads and show up as
// client-added delay; a real server runs elsewhere. `--sim-cpu 1 --client-cpu 0` models that on 2 cores:
// simulator on one core, client (one worker) on the other. Hold only: [--gpus N] (H200s simulated, 2,048
// running sequences each: `--gpus 2 --streams 4096` is the 16,384 hold at a quarter of the scale, same step
// times) [--tail S] (the run lasts ramp + hold + S, default 100). When streams get no first token, hold
// prints where they stopped, the simulator's running/waiting gauges and the sockets of its port (`ss`).
// Delay only: [--first-token-priority on|off] (the engine's read order, LoadPlan::firstTokenPriority; default
// on) — compare first-token and later-token delays of the two orders.
// Figures print one line each; run several times and quote medians (this machine is noisy).
#include "core/campaign/campaignjson.h"
#include "core/campaign/catalog.h"
#include "core/campaign/matrixexpander.h"
#include "core/run/runcontroller.h"
#include "core/sim/simprocess.h"

#include <nlohmann/json.hpp>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <thread>
#include <vector>

using namespace Throughline;

namespace {

long long rssKb(int pid = 0)
{
    std::ifstream f(pid ? "/proc/" + std::to_string(pid) + "/status" : std::string("/proc/self/status"));
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::atoll(line.c_str() + 6);
    return 0;
}

double processCpuS()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double pct(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double rank = p / 100.0 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(rank);
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

std::int64_t firstContentNs(const RequestRecord &r)
{
    for (const auto &e : r.events)
        if (e.kind == StreamEvent::Kind::Content)
            return e.tNs;
    return kNoTime;
}

int g_gpus = 8;       // --gpus: H200s simulated (2,048 running sequences per GPU: 8 → 16,384)
double g_tailS = 100; // --tail: hold mode's run lasts ramp + hold + this (room for the prefill backlog)
std::atomic<int> g_simPort{0}; // port of the simulator child of the current point (hold diagnostics)

Scenario bigDeployment(const Scenario &base, int isl, int osl)
{
    Scenario s = base;
    for (const ModelSpec &m : Catalog::builtin().models())
        if (m.name == "gpt-oss-120b")
            s.model = m;
    for (const GpuSpec &g : Catalog::builtin().gpus())
        if (g.name == "H200")
            s.gpu = g;
    s.deployment.gpu = "H200";
    s.deployment.gpus = g_gpus;
    s.deployment.precision = "FP8";
    s.endpoint.kind = Endpoint::Kind::Simulated;
    s.endpoint.sim.jitter = 0;
    s.phase.isl = isl;
    s.phase.osl = osl;
    s.plan.mode = LoadPlan::Mode::Closed;
    s.plan.warmupRequests = 0;
    s.plan.minWindowS = 0.1;
    s.plan.cooldownS = 0;
    return s;
}

int g_workers = 0;                // --workers (0 = the engine's default: one per core)
int g_simNice = 0;                // --sim-nice: niceness of every simulator thread (0 = as started)
int g_simCpu = -1;                // --sim-cpu: pin every simulator thread to this CPU (-1 = as started)
bool g_firstTokenPriority = true; // --first-token-priority on|off (delay)
int g_clientCpu = -1; // --client-cpu: pin this process (every thread: engine workers, controller) to this CPU

SimLauncher childLauncher(const std::string &truthPath)
{
    return [truthPath](const Scenario &sc, int planned) -> Result<SimulatedEndpoint> {
        auto args = SimProcess::argumentsFor(sc.model.name, sc.gpu.name, sc.deployment.gpus,
                                             sc.deployment.precision, sc.endpoint.sim);
        args.insert(args.end(), {"--max-connections", std::to_string(planned * 2 + 64)});
        if (!truthPath.empty())
            args.insert(args.end(), {"--ground-truth", truthPath});
        auto proc = std::make_shared<SimProcess>();
        auto port = proc->start(THROUGHLINE_SIM_EXE, args);
        if (!port)
            return port.error();
        if (g_simNice != 0 || g_simCpu >= 0 || g_clientCpu >= 0) {
            // The child inherited the client's --client-cpu pinning: undo that unless --sim-cpu says where
            // it goes.
            SimProcess::Placement where;
            where.nice = g_simNice;
            if (g_simCpu >= 0)
                where.cpus = {g_simCpu};
            else if (g_clientCpu >= 0)
                for (unsigned cpu = 0; cpu < std::max(1u, std::thread::hardware_concurrency()); ++cpu)
                    where.cpus.push_back(static_cast<int>(cpu));
            if (const Status placed = proc->place(where); !placed)
                return placed.error();
        }
        SimulatedEndpoint e;
        e.baseUrl = proc->baseUrl();
        g_simPort = *port;
        e.timeScale = sc.endpoint.sim.timeScale;
        e.owner = proc;
        return e;
    };
}

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

// --- hold diagnostics: where streams without a first token are stuck ---

// Plain HTTP/1.0 GET on loopback (this bench links no curl): the simulator's /metrics. Empty on failure.
std::string loopbackGet(int port, const char *path)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return {};
    timeval tv{2, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::string out;
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&a), sizeof a) == 0) {
        const std::string req = std::string("GET ") + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
        if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(req.size())) {
            char buf[16384];
            for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
                out.append(buf, static_cast<std::size_t>(n));
        }
    }
    ::close(fd);
    return out;
}

// First sample of a Prometheus metric (name followed by labels or a space); -1 when absent.
double promValue(const std::string &text, const std::string &name)
{
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        if (at > 0 && text[at - 1] != '\n')
            continue;
        const std::size_t end = text.find('\n', at);
        const std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
        const char next = line.size() > name.size() ? line[name.size()] : '\0';
        if (next != ' ' && next != '{')
            continue;
        return std::atof(line.c_str() + line.rfind(' ') + 1);
    }
    return -1;
}

// TCP sockets of the simulator's port, from `ss` (whole machine, both ends): the listener's accept queue
// (Recv-Q: connections the simulator has not accepted yet), and per side the states and the sockets with
// data queued (client Send-Q > 0: a request the server never acknowledged; server Recv-Q > 0: a request
// the simulator has not read; client Recv-Q > 0: tokens the engine has not read).
std::string socketSummary(int port)
{
    const std::string cmd = "ss -Htan '( sport = :" + std::to_string(port) +
                            " or dport = :" + std::to_string(port) + " )' 2>/dev/null";
    FILE *f = ::popen(cmd.c_str(), "r");
    if (!f)
        return "ss unavailable";
    std::map<std::string, int> serverStates, clientStates;
    int listenQ = -1, listenBacklog = -1, clientSendQ = 0, clientRecvQ = 0, serverRecvQ = 0, serverSendQ = 0;
    char line[512];
    const std::string me = ":" + std::to_string(port);
    while (std::fgets(line, sizeof line, f)) {
        char state[32], local[128], peer[128];
        long recvQ = 0, sendQ = 0;
        if (std::sscanf(line, "%31s %ld %ld %127s %127s", state, &recvQ, &sendQ, local, peer) != 5)
            continue;
        const std::string l(local);
        const bool server = l.size() > me.size() && l.compare(l.size() - me.size(), me.size(), me) == 0;
        if (std::string(state) == "LISTEN") {
            listenQ = static_cast<int>(recvQ);
            listenBacklog = static_cast<int>(sendQ);
        } else if (server) {
            ++serverStates[state];
            serverRecvQ += recvQ > 0;
            serverSendQ += sendQ > 0;
        } else {
            ++clientStates[state];
            clientSendQ += sendQ > 0;
            clientRecvQ += recvQ > 0;
        }
    }
    ::pclose(f);
    auto states = [](const std::map<std::string, int> &m) {
        std::string s;
        for (const auto &[k, n] : m)
            s += (s.empty() ? "" : " ") + k + " " + std::to_string(n);
        return s.empty() ? std::string("none") : s;
    };
    return "listener accept queue " + std::to_string(listenQ) + " (backlog " + std::to_string(listenBacklog) +
           "); server side: " + states(serverStates) + ", Recv-Q>0 " + std::to_string(serverRecvQ) +
           ", Send-Q>0 " + std::to_string(serverSendQ) + "; client side: " + states(clientStates) +
           ", Send-Q>0 " + std::to_string(clientSendQ) + ", Recv-Q>0 " + std::to_string(clientRecvQ);
}

// Runs one closed-loop point; a sampler thread records the client's peak RSS and in-flight count meanwhile.
struct PointRun {
    Result<RunOutcome> outcome = makeError(ErrorCode::Internal, "not run");
    long long rssBeforeKb = 0;
    long long rssPeakKb = 0;
    long long rssAllInFlightKb = 0; // peak while every stream was still in flight (none finished yet)
    int peakInFlight = 0;
    long long simRssPeakKb = 0;
    std::uint64_t completions = 0; // requests the engine saw complete over the run (after run() returned)
};

PointRun runPoint(const Scenario &s, const std::string &truthPath)
{
    PointRun pr;
    pr.rssBeforeKb = rssKb();
    RunOptions opt;
    opt.simLauncher = childLauncher(truthPath);
    opt.graceS = 0;
    opt.workers = g_workers;
    opt.stallTimeoutS = 30;
    opt.keepRecords = true;
    RunController rc({s}, opt);
    std::atomic<bool> done{false};
    std::thread sampler([&] {
        while (!done.load()) {
            const LiveProgress p = rc.live().progress();
            pr.peakInFlight = std::max(pr.peakInFlight, p.inFlight);
            const long long rss = rssKb();
            pr.rssPeakKb = std::max(pr.rssPeakKb, rss);
            if (p.finishedRequests == 0 && p.inFlight > 0)
                pr.rssAllInFlightKb = std::max(pr.rssAllInFlightKb, rss);
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
    });
    pr.outcome = rc.run();
    done = true;
    sampler.join();
    pr.completions = rc.live().progress().finishedRequests;
    return pr;
}

int benchDelay(const Scenario &base, const std::vector<int> &levels, double bigTimeScale)
{
    for (int c : levels) {
        Scenario s = bigDeployment(base, 128, 32);
        s.endpoint.sim.timeScale = c > 2000 ? bigTimeScale : 1.0;
        s.plan.concurrencies = {c};
        // Steady state, not a thundering herd: three waves of C requests (two at 16,384), ramped in; only
        // requests after the first wave are measured, when first tokens arrive among running streams' tokens.
        s.plan.requestCount = std::max(c > 2000 ? 2 * c : 3 * c, 64);
        s.plan.rampUpS = c > 2000 ? 10 : (c > 64 ? 1 : 0);
        s.plan.maxDurationS = 900;
        s.plan.requestTimeoutS = 600;
        s.plan.firstTokenPriority = g_firstTokenPriority;
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
        const RunOutcome &out = *pr.outcome;
        const auto gt = firstWrites(truth);
        const double scale = out.timeScale; // records are scaled back to model time: undo for wall time
        std::vector<double> delayMs;
        std::vector<double> laterDelayMs; // content events after the first, same requests
        int errors = 0;
        long long events = 0;
        std::vector<double> stepMs; // per request: mean gap between content events ≈ the decode step
        for (const RequestRecord &r : out.scenarios[0].points[0].records) {
            events += static_cast<long long>(r.events.size());
            std::int64_t first = kNoTime, last = kNoTime;
            int content = 0;
            for (const StreamEvent &e : r.events)
                if (e.kind == StreamEvent::Kind::Content) {
                    first = first == kNoTime ? e.tNs : first;
                    last = e.tNs;
                    ++content;
                }
            if (content > 1)
                stepMs.push_back(static_cast<double>(last - first) / 1e6 / scale / (content - 1));
        }
        for (const RequestRecord &r : out.scenarios[0].points[0].records) {
            if (!r.ok()) {
                ++errors;
                continue;
            }
            if (c > 1 && r.seq < static_cast<std::uint64_t>(c))
                continue; // first wave: all start together
            const auto it = gt.find(out.runId + "-" + std::to_string(r.seq));
            const std::int64_t first = firstContentNs(r);
            if (it == gt.end() || first == kNoTime)
                continue;
            const double clientWallNs =
                static_cast<double>(first) / scale + static_cast<double>(out.t0SteadyNs);
            delayMs.push_back((clientWallNs - static_cast<double>(it->second.firstNs)) / 1e6);
            // Every later content event against its token's write (one token per chunk here): the first
            // token's figure must not be bought with a worse one for the others.
            std::size_t k = 0;
            for (const StreamEvent &e : r.events) {
                if (e.kind != StreamEvent::Kind::Content)
                    continue;
                if (k > 0 && k < it->second.tokenNs.size())
                    laterDelayMs.push_back((static_cast<double>(e.tNs) / scale +
                                            static_cast<double>(out.t0SteadyNs) -
                                            static_cast<double>(it->second.tokenNs[k])) /
                                           1e6);
                ++k;
            }
            if (std::getenv("BENCH_STREAMS_DEBUG"))
                std::fprintf(
                    stderr,
                    "[debug] seq %llu server write %.3f ms client first token %.3f ms delay %.3f ms\n",
                    static_cast<unsigned long long>(r.seq),
                    (static_cast<double>(it->second.firstNs) - static_cast<double>(out.t0SteadyNs)) / 1e6,
                    (clientWallNs - static_cast<double>(out.t0SteadyNs)) / 1e6, delayMs.back());
        }
        std::printf(
            "[delay] C=%5d time scale %.2f: n=%zu errors=%d client-added first-token delay p50 %.3f ms, "
            "p99 %.3f ms, max %.3f ms (decode step ~%.1f ms; first-token priority %s)\n",
            c, scale, delayMs.size(), errors, pct(delayMs, 50), pct(delayMs, 99), pct(delayMs, 100),
            pct(stepMs, 50), g_firstTokenPriority ? "on" : "off");
        if (const nlohmann::json &cl = out.scenarios[0].points[0].client; cl.is_object())
            std::printf("[delay] C=%5d: client send lateness p50 %.3f ms, p99 %.3f ms; loop lag p99 %.3f ms; "
                        "priority-set reads %llu\n",
                        c, cl.value("send_lateness_p50_ms", 0.0), cl.value("send_lateness_p99_ms", 0.0),
                        cl.value("loop_lag_p99_ms", 0.0),
                        static_cast<unsigned long long>(cl.value("priority_socket_reads", std::uint64_t(0))));
        std::printf("[delay] C=%5d: later tokens (content events 2..N vs their writes): n=%zu client-added "
                    "delay p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
                    c, laterDelayMs.size(), pct(laterDelayMs, 50), pct(laterDelayMs, 99),
                    pct(laterDelayMs, 100));
        // Whole client process (workers, controller, aggregation; user + system, so curl and the kernel's
        // socket reads are in it) per SSE event received; the simulator is another process.
        std::printf("[delay] C=%5d: client CPU %.2f s for %lld SSE events in %zu requests: %.2f us/event "
                    "all-in (per-request work and idle polling included; `cpu` mode separates them)\n",
                    c, cpuS, events, out.scenarios[0].points[0].records.size(),
                    events > 0 ? cpuS * 1e6 / static_cast<double>(events) : 0.0);
        std::fflush(stdout);
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

int benchHold(const Scenario &base, int streams, double holdS, double timeScale, double rampS)
{
    // OSL long enough to outlast ramp + hold at the step time of a full batch; KV must fit 16,384 ×
    // (ISL+OSL).
    Scenario s = bigDeployment(base, 128, 2000);
    s.endpoint.sim.timeScale = timeScale;
    s.plan.concurrencies = {streams};
    s.plan.requestCount = streams;
    s.plan.rampUpS = rampS;
    s.plan.maxDurationS =
        rampS + holdS + g_tailS; // room for the prefill backlog; the window starts at the last first token
    s.plan.requestTimeoutS = 3600;
    const double cpu0 = [] {
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
               double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    }();
    // The simulator's view, sampled every second (its scheduler gauges), and the sockets of its port a few
    // seconds before the run ends (every stream still open): where a stream without a first token is stuck.
    g_simPort = 0;
    std::atomic<bool> probeDone{false};
    double simRunningLast = -1, simWaitingLast = -1, simRunningPeak = -1;
    std::string sockets;
    std::thread probe([&] {
        const auto snapAt = std::chrono::steady_clock::now() +
                            std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(s.plan.maxDurationS - 3));
        while (!probeDone.load()) {
            if (const int port = g_simPort.load(); port > 0) {
                const std::string m = loopbackGet(port, "/metrics");
                if (const double r = promValue(m, "vllm:num_requests_running"); r >= 0) {
                    simRunningLast = r;
                    simRunningPeak = std::max(simRunningPeak, r);
                    simWaitingLast = promValue(m, "vllm:num_requests_waiting");
                }
                if (sockets.empty() && std::chrono::steady_clock::now() >= snapAt)
                    sockets = socketSummary(port);
            }
            for (int i = 0; i < 10 && !probeDone.load(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    PointRun pr = runPoint(s, {});
    probeDone = true;
    probe.join();
    if (!pr.outcome.ok() || pr.outcome->scenarios.empty() || pr.outcome->scenarios[0].points.empty()) {
        std::fprintf(stderr, "[hold] run failed: %s\n",
                     pr.outcome.ok() ? pr.outcome->scenarios.at(0).abortReason.c_str()
                                     : pr.outcome.error().message.c_str());
        return 1;
    }
    const RunOutcome &out = *pr.outcome;
    const auto &recs = out.scenarios[0].points[0].records;
    const double scale = out.timeScale;
    // The hold window: from the moment the last stream received its first token (its first content event: the
    // simulator answers with headers and a role chunk at once, but prefilling 16,384 prompts through chunked
    // prefill takes a while, as on a real server), for holdS seconds of wall time.
    std::int64_t allOpenNs = 0;
    int opened = 0, clientErrors = 0;
    std::map<std::string, int> notOpened;
    std::map<std::string, int> errorKinds;
    // Streams without a first token: curl connect time, t_send.
    std::vector<double> stuckConnectMs, stuckSendS;
    for (const RequestRecord &r : recs) {
        if (r.error != ErrorClass::None && r.error != ErrorClass::HarnessCancelled) {
            ++clientErrors;
            ++errorKinds[r.errorDetail.substr(0, 60)];
        }
        const std::int64_t first = firstContentNs(r);
        if (first != kNoTime) {
            ++opened;
            allOpenNs = std::max<std::int64_t>(allOpenNs, static_cast<std::int64_t>(first / scale));
        } else {
            // Where a stream without a first token stopped: never sent, sent but no byte back, or bytes
            // (headers, role chunk) but no content.
            ++notOpened[r.tSend == kNoTime        ? "never sent"
                        : r.tWire == kNoTime      ? "handed to libcurl, request never written"
                        : r.tFirstByte == kNoTime ? "sent, no byte back"
                                                  : "bytes but no content event"];
            if (r.tSend != kNoTime)
                stuckSendS.push_back(static_cast<double>(r.tSend) / scale / 1e9);
            if (r.curl.connectNs != kNoTime)
                stuckConnectMs.push_back(static_cast<double>(r.curl.connectNs) / 1e6);
        }
    }
    const std::int64_t windowEnd = allOpenNs + static_cast<std::int64_t>(holdS * 1e9);
    double worstGapS = 0;
    int streamsOverGap = 0;
    long long eventsInWindow = 0;
    std::int64_t lastEventNs = 0;
    for (const RequestRecord &r : recs) {
        std::int64_t prev = allOpenNs;
        double gapMax = 0;
        for (const StreamEvent &e : r.events) {
            const auto t = static_cast<std::int64_t>(e.tNs / scale);
            lastEventNs = std::max(lastEventNs, t);
            if (t < allOpenNs || t > windowEnd)
                continue;
            ++eventsInWindow;
            gapMax = std::max(gapMax, double(t - prev) / 1e9);
            prev = t;
        }
        const std::int64_t end =
            std::min(windowEnd, r.tEnd == kNoTime ? windowEnd : static_cast<std::int64_t>(r.tEnd / scale));
        gapMax = std::max(gapMax, double(end - prev) / 1e9);
        if (gapMax > worstGapS && std::getenv("BENCH_STREAMS_DEBUG")) {
            std::string times;
            for (const StreamEvent &e : r.events)
                times += std::to_string((double(e.tNs / scale) - double(allOpenNs)) / 1e9).substr(0, 6) + " ";
            std::printf("[debug] seq %llu events %zu tEnd %.2f: %s\n", (unsigned long long)r.seq,
                        r.events.size(), (double(r.tEnd / scale) - double(allOpenNs)) / 1e9,
                        times.substr(0, 2000).c_str());
        }
        worstGapS = std::max(worstGapS, gapMax);
        streamsOverGap += gapMax > 2.0;
    }
    const double windowS = double(std::min(windowEnd, lastEventNs) - allOpenNs) / 1e9;
    std::printf("[hold] every stream had its first token %.1f s after the run started (ramp %.0f s)\n",
                double(allOpenNs) / 1e9, rampS);
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const double cpuS = double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                        double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6 - cpu0;
    const bool held = opened == streams && clientErrors == 0 && streamsOverGap == 0 && windowS >= holdS - 0.5;
    std::printf("[hold] %d streams requested, %d streaming tokens, client errors %d, hold window %.1f s "
                "(asked %.0f), worst "
                "event gap %.2f s, streams with a gap > 2 s: %d -> %s\n",
                streams, opened, clientErrors, windowS, holdS, worstGapS, streamsOverGap,
                held ? "HELD" : "NOT HELD");
    for (const auto &[k, n] : errorKinds)
        std::printf("[hold]   error x%d: %s\n", n, k.c_str());
    // A stream whose record is not in the point was cancelled at the end (max duration) but its record came
    // back after the point had closed: it cannot be judged, and it is not a stream without a first token.
    if (recs.size() != static_cast<std::size_t>(streams) || pr.completions != recs.size())
        std::printf(
            "[hold]   records in the point: %zu of %d streams; completions the engine counted over the "
            "run: %llu (the difference came back after the point closed)\n",
            recs.size(), streams, static_cast<unsigned long long>(pr.completions));
    for (const auto &[k, n] : notOpened)
        std::printf("[hold]   no first token x%d: %s\n", n, k.c_str());
    if (!notOpened.empty())
        std::printf("[hold]   those streams: t_send %.1f .. %.1f s after the run started; curl connect time "
                    "p50 %.1f ms, max %.1f ms (n=%zu)\n",
                    pct(stuckSendS, 0), pct(stuckSendS, 100), pct(stuckConnectMs, 50),
                    pct(stuckConnectMs, 100), stuckConnectMs.size());
    std::printf(
        "[hold] simulator: running sequences %.0f (peak %.0f), waiting %.0f at its last sample before "
        "the end\n",
        simRunningLast, simRunningPeak, simWaitingLast);
    if (!sockets.empty())
        std::printf("[hold] sockets 3 s before the end: %s\n", sockets.c_str());
    {
        // The end of the run cancels every stream still open; each record's t_end is taken as the worker
        // finishes it, so their spread is how long cancelling them all took (it grows with the streams per
        // worker: every one closes its socket).
        std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = 0;
        int cancelled = 0;
        for (const RequestRecord &r : recs)
            if (r.error == ErrorClass::HarnessCancelled && r.tEnd != kNoTime) {
                ++cancelled;
                first = std::min<std::int64_t>(first, static_cast<std::int64_t>(r.tEnd / scale));
                last = std::max<std::int64_t>(last, static_cast<std::int64_t>(r.tEnd / scale));
            }
        if (cancelled > 0)
            std::printf("[hold] end-of-run cancellation: %d streams, their records finished over %.2f s\n",
                        cancelled, double(last - first) / 1e9);
    }
    std::printf(
        "[hold] aggregate event rate in the window %.0f events/s (time scale %.2f); client CPU %.1f s over "
        "the run; peak in flight %d; client RSS %.1f MiB -> %.1f MiB: %.1f KiB per stream\n",
        windowS > 0 ? double(eventsInWindow) / windowS : 0.0, scale, cpuS, pr.peakInFlight,
        pr.rssBeforeKb / 1024.0, pr.rssPeakKb / 1024.0,
        pr.peakInFlight ? double(pr.rssPeakKb - pr.rssBeforeKb) / pr.peakInFlight : 0.0);
    if (!out.scenarios[0].points[0].client.is_null())
        std::printf("[hold] client self-observation: %s\n", out.scenarios[0].points[0].client.dump().c_str());
    return held ? 0 : 3;
}

int benchRss(const Scenario &base, int streams, const std::string &only)
{
    // Each stream is held to its last token: the record keeps a timestamp per event, so a Generation stream's
    // memory peaks at its end. Sampled every 250 ms while no stream had finished yet (all start within the
    // 2 s ramp and have the same length, so the last sample is close to their ends); the peak over the whole
    // point, which also holds the finished records while they are aggregated, is printed beside it.
    struct Shape {
        const char *name;
        int isl, osl, streams;
        double timeScale, goalKiB;
    };
    const Shape shapes[] = {{"Chat 128/128", 128, 128, streams, 1.0, 64},
                            {"Generation 512/8000", 512, 8000, std::min(streams, 512), 4.0, 160}};
    for (const Shape &sh : shapes) {
        if ((only == "rss-chat" && sh.osl != 128) || (only == "rss-gen" && sh.osl == 128))
            continue; // one shape per process gives each a clean heap baseline
        Scenario s = bigDeployment(base, sh.isl, sh.osl);
        s.endpoint.sim.timeScale = sh.timeScale;
        s.plan.concurrencies = {sh.streams};
        s.plan.requestCount = sh.streams;
        s.plan.rampUpS = 2;
        s.plan.maxDurationS = 1200;
        s.plan.requestTimeoutS = 3600;
        PointRun pr = runPoint(s, {});
        if (!pr.outcome.ok()) {
            std::fprintf(stderr, "[rss] %s: %s\n", sh.name, pr.outcome.error().message.c_str());
            return 1;
        }
        const auto &recs = pr.outcome->scenarios.at(0).points.at(0).records;
        long long nOut = 0;
        int ok = 0;
        for (const RequestRecord &r : recs) {
            nOut += r.nOut;
            ok += r.ok();
        }
        std::printf(
            "[rss] %s: %d streams (%d ok, mean N_out %.0f), client RSS %.1f MiB -> %.1f MiB with all in "
            "flight: %.1f KiB per in-flight stream (goal <= %.0f); point peak incl. aggregation %.1f MiB\n",
            sh.name, sh.streams, ok, recs.empty() ? 0.0 : double(nOut) / double(recs.size()),
            pr.rssBeforeKb / 1024.0, pr.rssAllInFlightKb / 1024.0,
            double(pr.rssAllInFlightKb - pr.rssBeforeKb) / sh.streams, sh.goalKiB, pr.rssPeakKb / 1024.0);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    std::string part = "all";
    int streams = 16384;
    double holdS = 60, timeScale = 0.5, rampS = 20;
    std::vector<int> levels; // delay: --levels 1,64,1024 (default 1, 64, 1,024 and --streams)
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> const char * { return i + 1 < argc ? argv[++i] : "0"; };
        if (a == "--streams")
            streams = std::atoi(next());
        else if (a == "--hold")
            holdS = std::atof(next());
        else if (a == "--time-scale")
            timeScale = std::atof(next());
        else if (a == "--ramp")
            rampS = std::atof(next());
        else if (a == "--sim-nice")
            g_simNice = std::atoi(next());
        else if (a == "--sim-cpu")
            g_simCpu = std::atoi(next());
        else if (a == "--client-cpu")
            g_clientCpu = std::atoi(next());
        else if (a == "--workers")
            g_workers = std::atoi(next());
        else if (a == "--gpus")
            g_gpus = std::max(1, std::atoi(next()));
        else if (a == "--tail")
            g_tailS = std::atof(next());
        else if (a == "--first-token-priority" && i + 1 < argc &&
                 (std::string(argv[i + 1]) == "on" || std::string(argv[i + 1]) == "off"))
            g_firstTokenPriority = std::string(next()) == "on";
        else if (a == "--levels")
            for (std::string v = next(); !v.empty();) {
                const auto comma = v.find(',');
                levels.push_back(std::atoi(v.substr(0, comma).c_str()));
                v = comma == std::string::npos ? std::string() : v.substr(comma + 1);
            }
        else if (a == "delay" || a == "cpu" || a == "hold" || a == "rss" || a == "rss-chat" ||
                 a == "rss-gen" || a == "all")
            part = a;
        else {
            std::fprintf(
                stderr,
                "usage: bench_streams [delay|cpu|hold|rss|rss-chat|rss-gen|all] [--streams N] [--hold S] "
                "[--time-scale X] [--ramp S] [--levels C1,C2,...] [--workers N] [--sim-nice N] [--sim-cpu "
                "N] [--client-cpu N] [--gpus N] [--tail S] [--first-token-priority on|off]\n");
            return 2;
        }
    }
    // Before any thread exists, so every thread of this process (workers, controller, sampler) inherits it.
    if (g_clientCpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(g_clientCpu, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    rlimit rl{};
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);

    auto campaign = CampaignJson::readFile(":/campaigns/demo.json");
    if (!campaign.ok())
        return 1;
    auto list = MatrixExpander().expand(*campaign);
    if (!list.ok() || list->empty())
        return 1;
    const Scenario base = list->front();
    {
        // The conditions every figure below depends on: the simulator shares this machine's cores.
        std::ifstream la("/proc/loadavg");
        std::string load;
        std::getline(la, load);
        std::printf(
            "[bench_streams] %s: %u cores, client workers %s%s, simulator nice %d%s, load average %s\n",
            part.c_str(), std::thread::hardware_concurrency(),
            g_workers > 0 ? std::to_string(g_workers).c_str() : "one per usable core",
            g_clientCpu >= 0 ? (", client pinned to CPU " + std::to_string(g_clientCpu)).c_str() : "",
            g_simNice, g_simCpu >= 0 ? (", pinned to CPU " + std::to_string(g_simCpu)).c_str() : "",
            load.substr(0, load.find(' ', load.find(' ', load.find(' ') + 1) + 1)).c_str());
        std::fflush(stdout);
    }
    int rc = 0;
    if (part == "delay" || part == "all") {
        std::vector<int> delayLevels = levels;
        if (delayLevels.empty()) {
            delayLevels = {1, 64, 1024};
            if (streams != 1024)
                delayLevels.push_back(streams);
        }
        rc |= benchDelay(base, delayLevels, timeScale);
    }
    if (part == "cpu" || part == "all")
        for (int c : levels.empty() ? std::vector<int>{256, 1024} : levels)
            rc |= benchCpu(base, c);
    if (part.rfind("rss", 0) == 0 || part == "all")
        rc |= benchRss(base, std::min(streams, 4096), part);
    if (part == "hold" || part == "all")
        rc |= benchHold(base, streams, holdS, timeScale, rampS);
    return rc;
}
