// bench_streams hold (bench_streams.cpp says what it measures), with the diagnostics of streams that get no
// first token.
#include "bench_streams_support.h"

#include <nlohmann/json.hpp>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace Throughline::StreamsBench {

namespace {

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

Scenario holdScenario(const Scenario &base, int streams, double holdS, double timeScale, double rampS)
{
    // OSL long enough to outlast ramp + hold at the step time of a full batch; KV must fit 16,384 ×
    // (ISL+OSL).
    Scenario s = bigDeployment(base, 128, 2000);
    s.endpoint.sim.timeScale = timeScale;
    s.plan.concurrencies = {streams};
    s.plan.requestCount = streams;
    s.plan.rampUpS = rampS;
    // Room for the prefill backlog; the window starts at the last first token.
    s.plan.maxDurationS = rampS + holdS + g_opt.tailS;
    s.plan.requestTimeoutS = 3600;
    return s;
}

// The simulator's view, sampled every second (its scheduler gauges), and the sockets of its port a few
// seconds before the run ends (every stream still open): where a stream without a first token is stuck.
class SimProbe
{
public:
    explicit SimProbe(double runS)
    {
        g_simPort = 0;
        const auto snapAt = std::chrono::steady_clock::now() +
                            std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(runS - 3));
        m_thread = std::thread([this, snapAt] {
            while (!m_done.load()) {
                if (const int port = g_simPort.load(); port > 0)
                    sample(port, std::chrono::steady_clock::now() >= snapAt);
                for (int i = 0; i < 10 && !m_done.load(); ++i)
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
        });
    }
    // Stops sampling; the figures below are read after this.
    void stop()
    {
        m_done = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    ~SimProbe() { stop(); }

    double runningLast = -1, waitingLast = -1, runningPeak = -1;
    std::string sockets;

private:
    void sample(int port, bool snapSockets)
    {
        const std::string m = loopbackGet(port, "/metrics");
        if (const double r = promValue(m, "vllm:num_requests_running"); r >= 0) {
            runningLast = r;
            runningPeak = std::max(runningPeak, r);
            waitingLast = promValue(m, "vllm:num_requests_waiting");
        }
        if (sockets.empty() && snapSockets)
            sockets = socketSummary(port);
    }

    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

// What the hold's records say. The hold window: from the moment the last stream received its first token
// (its first content event: the simulator answers with headers and a role chunk at once, but prefilling
// 16,384 prompts through chunked prefill takes a while, as on a real server), for holdS seconds of wall time.
struct HoldTally {
    std::int64_t allOpenNs = 0;
    int opened = 0, clientErrors = 0;
    std::map<std::string, int> notOpened, errorKinds;
    std::vector<double> stuckConnectMs, stuckSendS; // streams without a first token: curl connect, t_send
    double worstGapS = 0, windowS = 0;
    int streamsOverGap = 0;
    long long eventsInWindow = 0;
    int cancelled = 0;        // streams cancelled by the run's end ...
    double cancelSpreadS = 0; // ... and the spread of their records' t_end
};

void tallyOpenings(const std::vector<RequestRecord> &recs, double scale, HoldTally &t)
{
    for (const RequestRecord &r : recs) {
        if (r.error != ErrorClass::None && r.error != ErrorClass::HarnessCancelled) {
            ++t.clientErrors;
            ++t.errorKinds[r.errorDetail.substr(0, 60)];
        }
        const std::int64_t first = firstContentNs(r);
        if (first != kNoTime) {
            ++t.opened;
            t.allOpenNs = std::max<std::int64_t>(t.allOpenNs, static_cast<std::int64_t>(first / scale));
            continue;
        }
        // Where a stream without a first token stopped: never sent, sent but no byte back, or bytes
        // (headers, role chunk) but no content.
        ++t.notOpened[r.tSend == kNoTime        ? "never sent"
                      : r.tWire == kNoTime      ? "handed to libcurl, request never written"
                      : r.tFirstByte == kNoTime ? "sent, no byte back"
                                                : "bytes but no content event"];
        if (r.tSend != kNoTime)
            t.stuckSendS.push_back(static_cast<double>(r.tSend) / scale / 1e9);
        if (r.curl.connectNs != kNoTime)
            t.stuckConnectMs.push_back(static_cast<double>(r.curl.connectNs) / 1e6);
    }
}

void debugPrintStream(const RequestRecord &r, double scale, std::int64_t allOpenNs)
{
    std::string times;
    for (const StreamEvent &e : r.events)
        times += std::to_string((double(e.tNs / scale) - double(allOpenNs)) / 1e9).substr(0, 6) + " ";
    std::printf("[debug] seq %llu events %zu tEnd %.2f: %s\n", (unsigned long long)r.seq, r.events.size(),
                (double(r.tEnd / scale) - double(allOpenNs)) / 1e9, times.substr(0, 2000).c_str());
}

void tallyGaps(const std::vector<RequestRecord> &recs, double scale, double holdS, HoldTally &t)
{
    const std::int64_t windowEnd = t.allOpenNs + static_cast<std::int64_t>(holdS * 1e9);
    std::int64_t lastEventNs = 0;
    for (const RequestRecord &r : recs) {
        std::int64_t prev = t.allOpenNs;
        double gapMax = 0;
        for (const StreamEvent &e : r.events) {
            const auto at = static_cast<std::int64_t>(e.tNs / scale);
            lastEventNs = std::max(lastEventNs, at);
            if (at < t.allOpenNs || at > windowEnd)
                continue;
            ++t.eventsInWindow;
            gapMax = std::max(gapMax, double(at - prev) / 1e9);
            prev = at;
        }
        const std::int64_t end =
            std::min(windowEnd, r.tEnd == kNoTime ? windowEnd : static_cast<std::int64_t>(r.tEnd / scale));
        gapMax = std::max(gapMax, double(end - prev) / 1e9);
        if (gapMax > t.worstGapS && std::getenv("BENCH_STREAMS_DEBUG"))
            debugPrintStream(r, scale, t.allOpenNs);
        t.worstGapS = std::max(t.worstGapS, gapMax);
        t.streamsOverGap += gapMax > 2.0;
    }
    t.windowS = double(std::min(windowEnd, lastEventNs) - t.allOpenNs) / 1e9;
}

// The end of the run cancels every stream still open; each record's t_end is taken as the worker finishes it,
// so their spread is how long cancelling them all took (it grows with the streams per worker: every one
// closes its socket).
void tallyCancellation(const std::vector<RequestRecord> &recs, double scale, HoldTally &t)
{
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = 0;
    for (const RequestRecord &r : recs)
        if (r.error == ErrorClass::HarnessCancelled && r.tEnd != kNoTime) {
            ++t.cancelled;
            first = std::min<std::int64_t>(first, static_cast<std::int64_t>(r.tEnd / scale));
            last = std::max<std::int64_t>(last, static_cast<std::int64_t>(r.tEnd / scale));
        }
    if (t.cancelled > 0)
        t.cancelSpreadS = double(last - first) / 1e9;
}

HoldTally tallyHold(const std::vector<RequestRecord> &recs, double scale, double holdS)
{
    HoldTally t;
    tallyOpenings(recs, scale, t);
    tallyGaps(recs, scale, holdS, t);
    tallyCancellation(recs, scale, t);
    return t;
}

// Why streams failed or got no first token, what the simulator and the sockets showed.
void printHoldDiagnostics(const HoldTally &t, const SimProbe &probe, std::size_t records, int streams,
                          std::uint64_t completions)
{
    for (const auto &[k, n] : t.errorKinds)
        std::printf("[hold]   error x%d: %s\n", n, k.c_str());
    // A stream whose record is not in the point was cancelled at the end (max duration) but its record came
    // back after the point had closed: it cannot be judged, and it is not a stream without a first token.
    if (records != static_cast<std::size_t>(streams) || completions != records)
        std::printf(
            "[hold]   records in the point: %zu of %d streams; completions the engine counted over the "
            "run: %llu (the difference came back after the point closed)\n",
            records, streams, static_cast<unsigned long long>(completions));
    for (const auto &[k, n] : t.notOpened)
        std::printf("[hold]   no first token x%d: %s\n", n, k.c_str());
    if (!t.notOpened.empty())
        std::printf("[hold]   those streams: t_send %.1f .. %.1f s after the run started; curl connect time "
                    "p50 %.1f ms, max %.1f ms (n=%zu)\n",
                    pct(t.stuckSendS, 0), pct(t.stuckSendS, 100), pct(t.stuckConnectMs, 50),
                    pct(t.stuckConnectMs, 100), t.stuckConnectMs.size());
    std::printf(
        "[hold] simulator: running sequences %.0f (peak %.0f), waiting %.0f at its last sample before "
        "the end\n",
        probe.runningLast, probe.runningPeak, probe.waitingLast);
    if (!probe.sockets.empty())
        std::printf("[hold] sockets 3 s before the end: %s\n", probe.sockets.c_str());
    if (t.cancelled > 0)
        std::printf("[hold] end-of-run cancellation: %d streams, their records finished over %.2f s\n",
                    t.cancelled, t.cancelSpreadS);
}

} // namespace

int benchHold(const Scenario &base, int streams, double holdS, double timeScale, double rampS)
{
    const Scenario s = holdScenario(base, streams, holdS, timeScale, rampS);
    const double cpu0 = processCpuS();
    SimProbe probe(s.plan.maxDurationS);
    PointRun pr = runPoint(s, {});
    probe.stop();
    if (!pr.outcome.ok() || pr.outcome->scenarios.empty() || pr.outcome->scenarios[0].points.empty()) {
        std::fprintf(stderr, "[hold] run failed: %s\n",
                     pr.outcome.ok() ? pr.outcome->scenarios.at(0).abortReason.c_str()
                                     : pr.outcome.error().message.c_str());
        return 1;
    }
    const RunOutcome &out = *pr.outcome;
    const PointOutcome &point = out.scenarios[0].points[0];
    const double scale = out.timeScale;
    const HoldTally t = tallyHold(point.records, scale, holdS);
    const double cpuS = processCpuS() - cpu0;
    std::printf("[hold] every stream had its first token %.1f s after the run started (ramp %.0f s)\n",
                double(t.allOpenNs) / 1e9, rampS);
    const bool held =
        t.opened == streams && t.clientErrors == 0 && t.streamsOverGap == 0 && t.windowS >= holdS - 0.5;
    std::printf("[hold] %d streams requested, %d streaming tokens, client errors %d, hold window %.1f s "
                "(asked %.0f), worst event gap %.2f s, streams with a gap > 2 s: %d -> %s\n",
                streams, t.opened, t.clientErrors, t.windowS, holdS, t.worstGapS, t.streamsOverGap,
                held ? "HELD" : "NOT HELD");
    printHoldDiagnostics(t, probe, point.records.size(), streams, pr.completions);
    std::printf(
        "[hold] aggregate event rate in the window %.0f events/s (time scale %.2f); client CPU %.1f s over "
        "the run; peak in flight %d; client RSS %.1f MiB -> %.1f MiB: %.1f KiB per stream\n",
        t.windowS > 0 ? double(t.eventsInWindow) / t.windowS : 0.0, scale, cpuS, pr.peakInFlight,
        pr.rssBeforeKb / 1024.0, pr.rssPeakKb / 1024.0,
        pr.peakInFlight ? double(pr.rssPeakKb - pr.rssBeforeKb) / pr.peakInFlight : 0.0);
    if (!point.client.is_null())
        std::printf("[hold] client self-observation: %s\n", point.client.dump().c_str());
    return held ? 0 : 3;
}

} // namespace Throughline::StreamsBench
