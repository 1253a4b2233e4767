#pragma once
// Test support: one RunController run of `scenarios` against the app's simulator launcher (in process up to
// its stream limit, core/sim/simlauncher.h), telemetry scraping off. Header-only; link throughline_sim.
#include "core/run/runcontroller.h"
#include "core/sim/simlauncher.h"

#include <vector>

namespace Throughline::TestSupport {

inline Result<RunOutcome> runOnSimulator(const std::vector<Scenario> &scenarios)
{
    RunOptions opt;
    opt.scrapeTelemetry = false;
    opt.simLauncher = SimLauncher(&launchSimulator);
    RunController rc(scenarios, opt);
    return rc.run();
}

} // namespace Throughline::TestSupport
