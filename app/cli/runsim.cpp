#include "runsim.h"

#include "core/sim/faultspec.h"
#include "core/sim/simprocess.h"
#include "core/sim/simserver.h"

#include <algorithm>
#include <memory>
#include <string>

namespace Throughline::Cli {

Result<SimulatedEndpoint> launchSim(const Scenario &sc, int plannedStreams)
{
    // Above ~2,000 streams the simulator runs as a child process: its sockets and threads stay out of ours.
    if (plannedStreams > 2000 || sc.endpoint.sim.childProcess) {
        auto args = SimProcess::argumentsFor(sc.model.name, sc.gpu.name, std::max(1, sc.deployment.gpus),
                                             sc.deployment.precision, sc.endpoint.sim);
        args.insert(args.end(), {"--max-connections", std::to_string(plannedStreams * 2 + 64)});
        auto proc = std::make_shared<SimProcess>();
        auto port = proc->start(SimProcess::defaultExecutable(), args);
        if (!port)
            return port.error();
        SimulatedEndpoint e;
        e.baseUrl = proc->baseUrl();
        e.timeScale = sc.endpoint.sim.timeScale > 0 ? sc.endpoint.sim.timeScale : 1.0;
        e.description = "throughline-sim child process pid " + std::to_string(proc->pid());
        e.owner = proc;
        return e;
    }
    auto o = SimServer::optionsFromCatalog(sc.model.name, sc.gpu.name, std::max(1, sc.deployment.gpus),
                                           sc.deployment.precision);
    if (!o)
        return o.error();
    SimServerOptions opts = std::move(o).value();
    opts.model = sc.model;
    opts.prefillGpus = sc.deployment.prefillGpus;
    opts.decodeGpus = sc.deployment.decodeGpus;
    opts.timeScale = sc.endpoint.sim.timeScale;
    opts.jitter = sc.endpoint.sim.jitter;
    opts.seed = sc.endpoint.sim.seed;
    opts.servedModelName = sc.endpoint.servedModel.empty() ? sc.model.name : sc.endpoint.servedModel;
    opts.tokenizer = "auto";     // count prompts as the engine's exact prompts intend (when fetched)
    opts.prefixBlockTokens = 16; // prefix caching as vLLM (docs/simulator.md)
    if (!sc.endpoint.sim.faults.empty()) {
        auto f = FaultSpec::parse(sc.endpoint.sim.faults);
        if (!f)
            return f.error();
        opts.faults = *f;
    }
    opts.limits.maxConnections = std::max(opts.limits.maxConnections, plannedStreams * 2 + 64);
    auto server = std::make_shared<SimServer>(std::move(opts));
    auto port = server->start("127.0.0.1", 0);
    if (!port)
        return port.error();
    SimulatedEndpoint e;
    e.baseUrl = "http://127.0.0.1:" + std::to_string(*port);
    e.timeScale = sc.endpoint.sim.timeScale > 0 ? sc.endpoint.sim.timeScale : 1.0;
    e.owner = server;
    e.description = "in-process SimServer (" + std::to_string(plannedStreams) + " planned streams)";
    return e;
}

} // namespace Throughline::Cli
