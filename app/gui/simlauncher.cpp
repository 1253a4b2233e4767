#include "app/gui/simlauncher.h"

#include <utility>

#include "core/sim/simserver.h"

namespace Throughline {

SimLauncher makeInProcessSimLauncher()
{
    return [](const Scenario &sc, int plannedStreams) -> Result<SimulatedEndpoint> {
        SimServerOptions o;
        o.model = sc.model;
        o.gpu = sc.gpu;
        o.gpus = sc.deployment.gpus;
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
        o.tokenizer = "auto";     // exact prompt counting when the model's tokenizer is fetched
        o.prefixBlockTokens = 16; // prefix caching as vLLM (docs/simulator.md)
        if (!sc.endpoint.sim.faults.empty()) {
            auto faults = FaultSpec::parse(sc.endpoint.sim.faults);
            if (!faults)
                return faults.error();
            o.faults = *faults;
        }
        o.limits.maxConnections = std::max(o.limits.maxConnections, plannedStreams + 64);
        auto server = std::make_shared<SimServer>(std::move(o));
        auto port = server->start("127.0.0.1", 0);
        if (!port)
            return port.error();
        SimulatedEndpoint ep;
        ep.baseUrl = "http://127.0.0.1:" + std::to_string(*port);
        ep.timeScale = sc.endpoint.sim.timeScale;
        ep.owner = server; // destroying the last reference stops the server
        ep.description = "in-process SimServer";
        return ep;
    };
}

} // namespace Throughline
