#pragma once
// A started simulated endpoint and the function type that starts one. The engine asks for one per scenario
// with an `endpoint.kind = simulated`; core/sim/simlauncher.h is the launcher both apps wire in (core cannot
// link throughline_sim, so it is injected through RunOptions::simLauncher).

#include "core/campaign/scenario.h"
#include "core/util/result.h"

#include <functional>
#include <memory>
#include <string>

namespace Throughline {

// A started simulated endpoint; destroying `owner` stops it.
struct SimulatedEndpoint {
    std::string baseUrl;
    double timeScale = 1.0;
    std::shared_ptr<void> owner;
    std::string description; // e.g. "in-process SimServer" or "throughline-sim child process pid 123"
};
// plannedStreams: the largest concurrency the scenario will offer (launchers pick a child process above
// ~2,000).
using SimLauncher = std::function<Result<SimulatedEndpoint>(const Scenario &, int plannedStreams)>;

} // namespace Throughline
