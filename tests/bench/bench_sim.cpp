// Benchmark of the simulated endpoint (never timed in CI). A small curl-multi harness measures:
//   1. streams held open by a throughline-sim child process (goal 16,384 at time scale <= 1) and RSS per
//   stream,
//   2. SSE events/s per server CPU core (goal >= 150,000),
//   3. token-write lateness vs the scheduler's step ends at 1,024 streams (goal p99 <= 1 ms), in-process
//   server.
// Usage: bench_sim [--streams N] [--events-streams N] [--seconds S]
#include "core/campaign/endpoint.h"
#include "core/sim/simprocess.h"
#include "core/sim/simserver.h"

#include <QCoreApplication>

#include <curl/curl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace Throughline;

namespace {

double nowS()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Stream {
    CURL *easy = nullptr;
    long long events = 0;
    char tail = 0; // last byte seen, to find "\n\n" across reads
};

size_t onData(char *p, size_t s, size_t n, void *ud)
{
    auto *st = static_cast<Stream *>(ud);
    const size_t len = s * n;
    char prev = st->tail;
    for (size_t i = 0; i < len; ++i) {
        if (p[i] == '\n' && prev == '\n')
            ++st->events;
        prev = p[i];
    }
    st->tail = prev;
    return len;
}

// Curl-multi driver holding `count` streaming chat requests.
class Harness
{
public:
    Harness(const std::string &url, int count, int maxTokens)
        : m_streams(size_t(count))
    {
        m_multi = curl_multi_init();
        curl_multi_setopt(m_multi, CURLMOPT_MAXCONNECTS, long(count));
        m_headers = curl_slist_append(m_headers, "Content-Type: application/json");
        m_headers = curl_slist_append(m_headers, "Expect:");
        m_body = "{\"messages\":[{\"role\":\"user\",\"content\":\"" + std::string(400, 'a') +
                 "\"},{\"role\":\"user\",\"content\":\"go\"}],"
                 "\"max_tokens\":" +
                 std::to_string(maxTokens) + ",\"ignore_eos\":true,\"stream\":true}";
        for (auto &st : m_streams) {
            st.easy = curl_easy_init();
            curl_easy_setopt(st.easy, CURLOPT_URL, url.c_str());
            curl_easy_setopt(st.easy, CURLOPT_HTTPHEADER, m_headers);
            curl_easy_setopt(st.easy, CURLOPT_POSTFIELDS, m_body.c_str());
            curl_easy_setopt(st.easy, CURLOPT_WRITEFUNCTION, onData);
            curl_easy_setopt(st.easy, CURLOPT_WRITEDATA, &st);
            curl_easy_setopt(st.easy, CURLOPT_NOSIGNAL, 1L);
            curl_easy_setopt(st.easy, CURLOPT_CONNECTTIMEOUT, 60L);
        }
    }
    ~Harness()
    {
        for (auto &st : m_streams) {
            curl_multi_remove_handle(m_multi, st.easy);
            curl_easy_cleanup(st.easy);
        }
        curl_multi_cleanup(m_multi);
        curl_slist_free_all(m_headers);
    }
    // Adds handles gradually (listen backlogs are finite).
    void run(double seconds, int rampPerTick = 512)
    {
        size_t added = 0;
        const double t0 = nowS();
        int running = 0;
        while (nowS() - t0 < seconds) {
            for (int i = 0; i < rampPerTick && added < m_streams.size(); ++i)
                curl_multi_add_handle(m_multi, m_streams[added++].easy);
            curl_multi_perform(m_multi, &running);
            CURLMsg *m;
            int left;
            while ((m = curl_multi_info_read(m_multi, &left)))
                if (m->msg == CURLMSG_DONE)
                    ++m_done;
            curl_multi_poll(m_multi, nullptr, 0, 10, nullptr);
        }
    }
    long long events() const
    {
        long long n = 0;
        for (const auto &s : m_streams)
            n += s.events;
        return n;
    }
    int streamsWithData() const
    {
        int n = 0;
        for (const auto &s : m_streams)
            n += s.events > 0;
        return n;
    }
    int done() const { return m_done; }

private:
    std::vector<Stream> m_streams;
    CURLM *m_multi = nullptr;
    curl_slist *m_headers = nullptr;
    std::string m_body;
    int m_done = 0;
};

long long rssKb(long long pid)
{
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::atoll(line.c_str() + 6);
    return 0;
}

double cpuSeconds(long long pid)
{
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string s((std::istreambuf_iterator<char>(f)), {});
    const auto close = s.rfind(')');
    std::istringstream in(s.substr(close + 2));
    std::string tok;
    long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && in >> tok; ++i) {
        if (i == 14)
            utime = std::atoll(tok.c_str());
        if (i == 15)
            stime = std::atoll(tok.c_str());
    }
    return double(utime + stime) / double(sysconf(_SC_CLK_TCK));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int streams = 16384, eventStreams = 1024, latenessStreams = 1024;
    std::string part = "all";
    double seconds = 20;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--streams"))
            streams = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--events-streams"))
            eventStreams = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--lateness-streams"))
            latenessStreams = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--part"))
            part = argv[++i];
        else if (!std::strcmp(argv[i], "--seconds"))
            seconds = std::atof(argv[++i]);
    }
    rlimit rl{};
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    curl_global_init(CURL_GLOBAL_ALL);

    // 1. Streams held (child process, time scale 1, 8 GPUs so 16,384 sequences fit), RSS per stream.
    if (part == "all" || part == "held") {
        SimulatorOptions sim;
        sim.timeScale = 1.0;
        SimProcess p;
        auto port =
            p.start(THROUGHLINE_SIM_EXE, SimProcess::argumentsFor("gpt-oss-120b", "H200", 8, "FP8", sim));
        if (!port) {
            std::fprintf(stderr, "%s\n", port.error().message.c_str());
            return 1;
        }
        const long long rss0 = rssKb(p.pid());
        Harness h(p.baseUrl() + "/v1/chat/completions", streams, 2000);
        h.run(seconds);
        const long long rss1 = rssKb(p.pid());
        const int held = h.streamsWithData();
        std::printf(
            "[held] streams requested %d, streaming (>= 1 event) %d, finished early %d after %.0f s\n",
            streams, held, h.done(), seconds);
        std::printf("[rss] server RSS %.1f MiB idle -> %.1f MiB with %d streams: %.1f KiB per stream\n",
                    rss0 / 1024.0, rss1 / 1024.0, held, held ? double(rss1 - rss0) / held : 0.0);
        p.stop();
    }
    // 2. SSE events/s per server core (child process, fast time scale so tokens flow densely).
    if (part == "all" || part == "events") {
        SimulatorOptions sim;
        sim.timeScale = 200;
        SimProcess p;
        auto port =
            p.start(THROUGHLINE_SIM_EXE, SimProcess::argumentsFor("gpt-oss-20b", "B200", 1, "FP4", sim));
        if (!port) {
            std::fprintf(stderr, "%s\n", port.error().message.c_str());
            return 1;
        }
        Harness h(p.baseUrl() + "/v1/chat/completions", eventStreams, 100000 - 200);
        h.run(2.0); // connect and warm up
        const long long e0 = h.events();
        const double c0 = cpuSeconds(p.pid()), t0 = nowS();
        h.run(seconds / 2);
        const double cpu = cpuSeconds(p.pid()) - c0, wall = nowS() - t0;
        const long long ev = h.events() - e0;
        std::printf("[events] %d streams: %.0f SSE events/s delivered, server CPU %.2f cores -> %.0f "
                    "events/s per core\n",
                    eventStreams, ev / wall, cpu / wall, cpu > 0 ? ev / cpu : 0.0);
        p.stop();
    }
    // 3. Token-write lateness at 1,024 streams (in-process server, time scale 1).
    if (part == "all" || part == "lateness") {
        auto o = SimServer::optionsFromCatalog("gpt-oss-120b", "H200", 1, "FP8");
        o->timeScale = 1.0;
        SimServer s(*o);
        auto port = s.start("127.0.0.1", 0);
        Harness h("http://127.0.0.1:" + std::to_string(*port) + "/v1/chat/completions", latenessStreams,
                  4000);
        h.run(seconds);
        const auto st = s.stats();
        std::printf(
            "[lateness] %d streams, %lld tokens in %lld writes: write - step end p50 %.3f ms, p99 %.3f ms, "
            "max %.3f ms\n",
            latenessStreams, (long long)st.tokensWritten, (long long)st.writes, st.latenessP50Ms,
            st.latenessP99Ms, st.latenessMaxMs);
        s.stop();
    }
    return 0;
}
