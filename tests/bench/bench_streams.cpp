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
#include "bench_streams_support.h"

#include "core/campaign/campaignjson.h"
#include "core/campaign/matrixexpander.h"

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace Throughline;
using namespace Throughline::StreamsBench;

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
            g_opt.simNice = std::atoi(next());
        else if (a == "--sim-cpu")
            g_opt.simCpu = std::atoi(next());
        else if (a == "--client-cpu")
            g_opt.clientCpu = std::atoi(next());
        else if (a == "--workers")
            g_opt.workers = std::atoi(next());
        else if (a == "--gpus")
            g_opt.gpus = std::max(1, std::atoi(next()));
        else if (a == "--tail")
            g_opt.tailS = std::atof(next());
        else if (a == "--first-token-priority" && i + 1 < argc &&
                 (std::string(argv[i + 1]) == "on" || std::string(argv[i + 1]) == "off"))
            g_opt.firstTokenPriority = std::string(next()) == "on";
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
    if (g_opt.clientCpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(g_opt.clientCpu, &set);
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
            g_opt.workers > 0 ? std::to_string(g_opt.workers).c_str() : "one per usable core",
            g_opt.clientCpu >= 0 ? (", client pinned to CPU " + std::to_string(g_opt.clientCpu)).c_str() : "",
            g_opt.simNice,
            g_opt.simCpu >= 0 ? (", pinned to CPU " + std::to_string(g_opt.simCpu)).c_str() : "",
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
