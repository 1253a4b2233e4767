// The kernel's floor under `bench_streams cpu`: what reading the same SSE streams costs a client that does
// nothing but epoll_wait + recv on plain sockets (no HTTP library, no parsing beyond counting events, no
// records). The same simulator, deployment, time scale, C and request count as `bench_streams cpu`, the same
// two output lengths and the same fit (cpu = requests × perRequest + events × perEvent), so
//   engine per-event CPU − floor per-event CPU = what libcurl and the engine add per event.
// Each ready socket gets one recv per wake-up; `--poll-after-read` adds the poll(0) libcurl 7.88 makes after
// every read (its "more data pending?" check), to price that call on its own.
// Usage: bench_readfloor [--streams C] (default 256) [--threads N] (reader threads, default 1)
//        [--requests-per-stream K] (default 2, as bench_streams) [--poll-after-read] [--reps R] (default 3)
// The load of tests/bench/bench_decoderate.sh instead (one output length, no fit: CPU per event all-in, as
// /usr/bin/time sees the client there): [--model M] (default gpt-oss-120b) [--gpus N] (8) [--time-scale S]
// (20) [--osl N] (one run of this length per rep) [--requests N] (in all, N / C per stream) [--chat] (chat
// completions with a text prompt of ISL × 4 bytes, as the engine's chat flavour sends).
#include "core/campaign/endpoint.h"
#include "core/sim/simprocess.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace Throughline;

namespace {

double processCpuS()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::string g_model = "gpt-oss-120b";
bool g_chat = false;

// A completion request as the engine sends it for the demo's token-id prompts (or, with --chat, a chat
// completion with a text prompt the simulator counts as ISL tokens): exact output length, usage on.
std::string requestText(int isl, int osl, long long id)
{
    std::string body = R"({"model":")" + g_model +
                       (g_chat ? R"(","messages":[{"role":"user","content":")" : R"(","prompt":[)");
    for (int i = 0; i < isl; ++i) {
        if (g_chat) {
            body += "w" + std::to_string(100 + (id * 7 + i) % 900); // 4 bytes: one token of ceil(bytes / 4)
            continue;
        }
        body += std::to_string(1000 + (id * 7 + i) % 50000);
        body += i + 1 < isl ? "," : "";
    }
    body += g_chat ? R"("}])" : "]";
    body += R"(,"max_tokens":)" + std::to_string(osl) + R"(,"min_tokens":)" + std::to_string(osl) +
            R"(,"ignore_eos":true,"stream":true,"stream_options":{"include_usage":true}})";
    return std::string("POST ") + (g_chat ? "/v1/chat/completions" : "/v1/completions") +
           " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           "X-Request-Id: floor-" +
           std::to_string(id) + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

struct Stream {
    int fd = -1;
    bool lastWasNewline = false; // an event ends at "\n\n", which may straddle two reads
    std::string tail;            // last bytes, to find the chunked terminator across reads
};

struct Totals {
    long long events = 0, reads = 0, requests = 0, wakeups = 0;
};

// One reader thread: its streams run closed loop (a finished response starts the next request on the same
// keep-alive connection) until `budget` requests have been sent in total.
void readLoop(std::vector<Stream> &streams, std::atomic<long long> &budget, int isl, int osl,
              bool pollAfterRead, Totals &t)
{
    const int ep = epoll_create1(EPOLL_CLOEXEC);
    for (std::size_t i = 0; i < streams.size(); ++i) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = i;
        epoll_ctl(ep, EPOLL_CTL_ADD, streams[i].fd, &ev);
    }
    std::size_t open = streams.size();
    std::vector<epoll_event> ready(512);
    char buf[16384];
    while (open > 0) {
        const int n = epoll_wait(ep, ready.data(), int(ready.size()), 5000);
        if (n <= 0) {
            std::fprintf(stderr, "[floor] no data for 5 s with %zu streams open\n", open);
            break;
        }
        ++t.wakeups;
        for (int k = 0; k < n; ++k) {
            Stream &s = streams[ready[k].data.u64];
            const ssize_t got = recv(s.fd, buf, sizeof buf, 0);
            ++t.reads;
            if (pollAfterRead) {
                pollfd p{s.fd, POLLIN, 0};
                poll(&p, 1, 0);
            }
            if (got <= 0) {
                epoll_ctl(ep, EPOLL_CTL_DEL, s.fd, nullptr);
                --open;
                continue;
            }
            for (ssize_t i = 0; i < got; ++i) {
                if (buf[i] == '\n' && s.lastWasNewline)
                    ++t.events;
                s.lastWasNewline = buf[i] == '\n';
            }
            s.tail.append(buf + std::max<ssize_t>(0, got - 7), buf + got);
            if (s.tail.size() > 7)
                s.tail.erase(0, s.tail.size() - 7);
            if (s.tail.size() == 7 && s.tail.compare(0, 7, "\r\n0\r\n\r\n") == 0) {
                ++t.requests;
                s.tail.clear();
                const long long id = budget.fetch_sub(1);
                if (id > 0) {
                    const std::string req = requestText(isl, osl, id);
                    if (send(s.fd, req.data(), req.size(), MSG_NOSIGNAL) != ssize_t(req.size()))
                        std::fprintf(stderr, "[floor] short send\n");
                } else {
                    epoll_ctl(ep, EPOLL_CTL_DEL, s.fd, nullptr);
                    --open;
                }
            }
        }
    }
    close(ep);
}

struct Run {
    int osl;
    double cpuS = 0, wallS = 0;
    Totals t{};
};

bool runOnce(int port, int c, int threads, int perStream, bool pollAfterRead, Run &run)
{
    std::vector<std::vector<Stream>> perThread(threads);
    for (int i = 0; i < c; ++i) {
        Stream s;
        s.fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int one = 1;
        setsockopt(s.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); // as libcurl does
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(std::uint16_t(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(s.fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
            std::fprintf(stderr, "[floor] connect: %s\n", std::strerror(errno));
            return false;
        }
        perThread[i % threads].push_back(std::move(s));
    }
    // Requests after the first wave; the first wave has its own ids, so a fast stream cannot take another's.
    std::atomic<long long> budget{static_cast<long long>(perStream - 1) * c};
    std::vector<Totals> totals(threads);
    const double cpu0 = processCpuS();
    const auto w0 = std::chrono::steady_clock::now();
    // The first wave spread evenly over 1 s, as bench_streams ramps it (rampUpS = 1); later requests follow
    // completions. The readers start first: a stream has no data before its request is sent.
    std::vector<std::thread> readers;
    for (int i = 0; i < threads; ++i)
        readers.emplace_back(
            [&, i] { readLoop(perThread[i], budget, 128, run.osl, pollAfterRead, totals[i]); });
    for (int i = 0; i < c; ++i) {
        std::this_thread::sleep_until(w0 + std::chrono::microseconds(1000000LL * i / c));
        const Stream &s = perThread[i % threads][i / threads];
        const std::string req = requestText(128, run.osl, 1000000LL + i);
        send(s.fd, req.data(), req.size(), MSG_NOSIGNAL);
    }
    for (auto &r : readers)
        r.join();
    run.cpuS = processCpuS() - cpu0;
    run.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    for (const Totals &t : totals) {
        run.t.events += t.events;
        run.t.reads += t.reads;
        run.t.requests += t.requests;
        run.t.wakeups += t.wakeups;
    }
    for (auto &list : perThread)
        for (Stream &s : list)
            close(s.fd);
    return run.t.requests == static_cast<long long>(perStream) * c;
}

// The bench_decoderate.sh load: one output length, CPU per event all-in (per-request work included, as the
// whole-client figure it is compared with), the median over the reps.
int runOneLength(int port, int c, int threads, int perStream, bool pollAfterRead, int osl, int reps, int gpus,
                 double timeScale)
{
    std::printf("[floor] %s on %d x H200, %s, ISL 128 / OSL %d, time scale %g\n", g_model.c_str(), gpus,
                g_chat ? "chat completions" : "completions", osl, timeScale);
    std::vector<double> perEvent, perRead;
    for (int rep = 0; rep < reps; ++rep) {
        Run run{osl};
        if (!runOnce(port, c, threads, perStream, pollAfterRead, run)) {
            std::fprintf(stderr, "[floor] OSL %d: not every request finished\n", osl);
            return 1;
        }
        const double events = double(std::max(1LL, run.t.events));
        const double reads = double(std::max(1LL, run.t.reads));
        std::printf(
            "[floor] rep %d: %lld requests, %lld events, %lld reads (%.2f events/read), %lld wake-ups, "
            "CPU %.3f s in %.2f s wall: %.2f us per event, %.2f us per read (all-in)\n",
            rep + 1, run.t.requests, run.t.events, run.t.reads, events / reads, run.t.wakeups, run.cpuS,
            run.wallS, run.cpuS * 1e6 / events, run.cpuS * 1e6 / reads);
        std::fflush(stdout);
        perEvent.push_back(run.cpuS * 1e6 / events);
        perRead.push_back(run.cpuS * 1e6 / reads);
    }
    std::sort(perEvent.begin(), perEvent.end());
    std::sort(perRead.begin(), perRead.end());
    std::printf("[floor] C=%d: median CPU per SSE event %.2f us, per read %.2f us over %d reps (the floor)\n",
                c, perEvent[perEvent.size() / 2], perRead[perRead.size() / 2], reps);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    int c = 256, threads = 1, perStream = 2, reps = 3, gpus = 8, oneOsl = 0, requests = 0;
    double timeScale = 20;
    bool pollAfterRead = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> const char * { return i + 1 < argc ? argv[++i] : "0"; };
        if (a == "--streams")
            c = std::atoi(next());
        else if (a == "--threads")
            threads = std::max(1, std::atoi(next()));
        else if (a == "--requests-per-stream")
            perStream = std::max(1, std::atoi(next()));
        else if (a == "--reps")
            reps = std::max(1, std::atoi(next()));
        else if (a == "--poll-after-read")
            pollAfterRead = true;
        else if (a == "--model")
            g_model = next();
        else if (a == "--gpus")
            gpus = std::max(1, std::atoi(next()));
        else if (a == "--time-scale")
            timeScale = std::atof(next());
        else if (a == "--osl")
            oneOsl = std::max(1, std::atoi(next()));
        else if (a == "--requests")
            requests = std::max(1, std::atoi(next()));
        else if (a == "--chat")
            g_chat = true;
        else {
            std::fprintf(stderr,
                         "usage: bench_readfloor [--streams C] [--threads N] [--requests-per-stream K] "
                         "[--poll-after-read] [--reps R] [--model M] [--gpus N] [--time-scale S] [--osl N] "
                         "[--requests N] [--chat]\n");
            return 2;
        }
    }
    if (requests > 0)
        perStream = std::max(1, requests / c);
    // By default the simulator exactly as `bench_streams cpu` starts it: gpt-oss-120b on 8× H200 FP8, the
    // demo's time scale 20, no jitter.
    SimulatorOptions sim;
    sim.timeScale = timeScale;
    sim.jitter = 0;
    sim.seed = 7;
    auto args = SimProcess::argumentsFor(g_model, "H200", gpus, "FP8", sim);
    args.insert(args.end(), {"--max-connections", std::to_string(c * 2 + 64)});
    SimProcess proc;
    auto port = proc.start(THROUGHLINE_SIM_EXE, args);
    if (!port) {
        std::fprintf(stderr, "[floor] simulator: %s\n", port.error().message.c_str());
        return 1;
    }
    std::printf("[floor] C=%d, %d reader thread(s), %d requests per stream, %s\n", c, threads, perStream,
                pollAfterRead ? "recv + poll(0) per read (as libcurl 7.88)" : "one recv per read");
    if (oneOsl > 0)
        return runOneLength(*port, c, threads, perStream, pollAfterRead, oneOsl, reps, gpus, timeScale);
    std::vector<double> perEvent;
    for (int rep = 0; rep < reps; ++rep) {
        std::vector<Run> runs{{16}, {256}};
        for (Run &run : runs) {
            if (!runOnce(*port, c, threads, perStream, pollAfterRead, run)) {
                std::fprintf(stderr, "[floor] OSL %d: not every request finished\n", run.osl);
                return 1;
            }
            std::printf("[floor] OSL %3d: %lld requests, %lld events, %lld reads (%.2f events/read), %lld "
                        "wake-ups, CPU %.3f s in %.2f s wall\n",
                        run.osl, run.t.requests, run.t.events, run.t.reads,
                        double(run.t.events) / double(std::max(1LL, run.t.reads)), run.t.wakeups, run.cpuS,
                        run.wallS);
        }
        const Run &a = runs[0], &b = runs[1];
        const double det =
            double(a.t.requests) * double(b.t.events) - double(b.t.requests) * double(a.t.events);
        const double us = (double(a.t.requests) * b.cpuS - double(b.t.requests) * a.cpuS) / det * 1e6;
        const double perReadUs = b.cpuS * 1e6 / double(std::max(1LL, b.t.reads));
        std::printf("[floor] rep %d: CPU per SSE event %.2f us (fit over OSL 16 and 256), per read %.2f us "
                    "(OSL 256 all-in)\n",
                    rep + 1, us, perReadUs);
        perEvent.push_back(us);
        std::fflush(stdout);
    }
    std::sort(perEvent.begin(), perEvent.end());
    std::printf("[floor] C=%d: median CPU per SSE event %.2f us over %d reps\n", c,
                perEvent[perEvent.size() / 2], reps);
    return 0;
}
