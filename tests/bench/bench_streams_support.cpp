#include "bench_streams_support.h"

#include "core/campaign/catalog.h"
#include "core/metrics/stats.h"
#include "core/sim/simprocess.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <thread>

namespace Throughline::StreamsBench {

Options g_opt;
std::atomic<int> g_simPort{0};

long long rssKb(int pid)
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
    return percentileSorted(v, p / 100.0);
}

std::int64_t firstContentNs(const RequestRecord &r)
{
    for (const auto &e : r.events)
        if (e.kind == StreamEvent::Kind::Content)
            return e.tNs;
    return kNoTime;
}

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
    s.deployment.gpus = g_opt.gpus;
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
        if (g_opt.simNice != 0 || g_opt.simCpu >= 0 || g_opt.clientCpu >= 0) {
            // The child inherited the client's --client-cpu pinning: undo that unless --sim-cpu says where
            // it goes.
            SimProcess::Placement where;
            where.nice = g_opt.simNice;
            if (g_opt.simCpu >= 0)
                where.cpus = {g_opt.simCpu};
            else if (g_opt.clientCpu >= 0)
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

PointRun runPoint(const Scenario &s, const std::string &truthPath)
{
    PointRun pr;
    pr.rssBeforeKb = rssKb();
    RunOptions opt;
    opt.simLauncher = childLauncher(truthPath);
    opt.graceS = 0;
    opt.workers = g_opt.workers;
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

} // namespace Throughline::StreamsBench
