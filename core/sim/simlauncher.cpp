#include "core/sim/simlauncher.h"

#include "core/sim/faultspec.h"
#include "core/sim/simprocess.h"
#include "core/sim/simserver.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

namespace Throughline {

int simulatorMaxConnections(int plannedStreams)
{
    return 2 * std::max(0, plannedStreams) + 64;
}

bool simulatorInChildProcess(const Scenario &scenario, int plannedStreams)
{
    return plannedStreams > kInProcessStreamLimit || scenario.endpoint.sim.childProcess;
}

namespace {

// The per-request timing the simulator publishes (Endpoint::serverTiming): the format in force with the
// scenario's backend, on the campaign's server clock.
std::vector<std::string> serverTimingArguments(const Scenario &sc)
{
    const std::string format = sc.endpoint.serverTiming.formatFor(sc.backend);
    if (format.empty())
        return {};
    char offset[64], drift[64];
    std::snprintf(offset, sizeof offset, "%.17g", sc.endpoint.sim.serverClockOffsetMs);
    std::snprintf(drift, sizeof drift, "%.17g", sc.endpoint.sim.serverClockDriftPpm);
    std::vector<std::string> a = {"--server-timing",          format, "--server-clock-offset-ms", offset,
                                  "--server-clock-drift-ppm", drift};
    if (!sc.endpoint.serverTiming.file.empty())
        a.insert(a.end(), {"--request-trace", sc.endpoint.serverTiming.file});
    return a;
}

double timeScaleOf(const Scenario &sc)
{
    return sc.endpoint.sim.timeScale > 0 ? sc.endpoint.sim.timeScale : 1.0;
}

Result<SimulatedEndpoint> launchChild(const Scenario &sc, int plannedStreams)
{
    auto proc = std::make_shared<SimProcess>();
    auto port = proc->start(SimProcess::defaultExecutable(), simulatorArguments(sc, plannedStreams));
    if (!port)
        return port.error();
    SimulatedEndpoint e;
    e.baseUrl = proc->baseUrl();
    e.timeScale = timeScaleOf(sc);
    e.description = "throughline-sim child process pid " + std::to_string(proc->pid());
    e.owner = proc;
    return e;
}

// In process: the scenario's own model and GPU specs (custom specs of the campaign included).
Result<SimulatedEndpoint> launchInProcess(const Scenario &sc, int plannedStreams)
{
    SimServerOptions o;
    o.model = sc.model;
    o.gpu = sc.gpu;
    o.gpus = std::max(1, sc.deployment.gpus);
    o.prefillGpus = sc.deployment.prefillGpus;
    o.decodeGpus = sc.deployment.decodeGpus;
    auto precision = parsePrecision(sc.deployment.precision);
    if (!precision)
        return precision.error();
    o.precision = *precision;
    o.servedModelName = sc.endpoint.servedModel.empty() ? sc.model.name : sc.endpoint.servedModel;
    o.timeScale = sc.endpoint.sim.timeScale;
    o.jitter = sc.endpoint.sim.jitter;
    o.seed = sc.endpoint.sim.seed;
    o.slowdownFactor = sc.endpoint.sim.slowdownFactor;
    o.slowdownAfterS = sc.endpoint.sim.slowdownAfterS;
    o.slowdownPerHour = sc.endpoint.sim.slowdownPerHour;
    o.fixedTtftMs = sc.endpoint.sim.fixedTtftMs;
    o.fixedItlMs = sc.endpoint.sim.fixedItlMs;
    o.tokenizer = "auto";     // exact prompt counting when the model's tokenizer is fetched
    o.prefixBlockTokens = 16; // prefix caching as vLLM (docs/simulator.md)
    o.serverTiming = sc.endpoint.serverTiming.formatFor(sc.backend);
    o.serverClockOffsetMs = sc.endpoint.sim.serverClockOffsetMs;
    o.serverClockDriftPpm = sc.endpoint.sim.serverClockDriftPpm;
    o.requestTracePath = sc.endpoint.serverTiming.file;
    if (!sc.endpoint.sim.faults.empty()) {
        auto faults = FaultSpec::parse(sc.endpoint.sim.faults);
        if (!faults)
            return faults.error();
        o.faults = *faults;
    }
    o.limits.maxConnections = std::max(o.limits.maxConnections, simulatorMaxConnections(plannedStreams));
    auto server = std::make_shared<SimServer>(std::move(o));
    auto port = server->start("127.0.0.1", 0);
    if (!port)
        return port.error();
    SimulatedEndpoint e;
    e.baseUrl = "http://127.0.0.1:" + std::to_string(*port);
    e.timeScale = timeScaleOf(sc);
    e.owner = server; // destroying the last reference stops the server
    e.description = "in-process SimServer (" + std::to_string(plannedStreams) + " planned streams)";
    return e;
}

} // namespace

std::vector<std::string> simulatorArguments(const Scenario &sc, int plannedStreams)
{
    auto args = SimProcess::argumentsFor(sc.model.name, sc.gpu.name, std::max(1, sc.deployment.gpus),
                                         sc.deployment.precision, sc.endpoint.sim);
    args.insert(args.end(), {"--max-connections", std::to_string(simulatorMaxConnections(plannedStreams))});
    if (sc.deployment.disaggregated())
        args.insert(args.end(), {"--prefill-gpus", std::to_string(sc.deployment.prefillGpus), "--decode-gpus",
                                 std::to_string(sc.deployment.decodeGpus)});
    const std::vector<std::string> timing = serverTimingArguments(sc);
    args.insert(args.end(), timing.begin(), timing.end());
    return args;
}

Result<SimulatedEndpoint> launchSimulator(const Scenario &sc, int plannedStreams)
{
    return simulatorInChildProcess(sc, plannedStreams) ? launchChild(sc, plannedStreams)
                                                       : launchInProcess(sc, plannedStreams);
}

} // namespace Throughline
