#pragma once
// Simulated endpoints of `throughline-cli run`: the RunOptions::simLauncher that starts a scenario's
// simulator, in process (SimServer) or, above ~2,000 streams or when the campaign asks for it, as a
// throughline-sim child process (SimProcess). Wired here because throughline_core cannot link
// throughline_sim.

#include "core/engine/runcontroller.h"

namespace Throughline::Cli {

// SimLauncher: a simulator for `sc` sized for `plannedStreams` concurrent streams, alive as long as the
// returned endpoint's owner. Called on the engine's run() thread.
Result<SimulatedEndpoint> launchSim(const Scenario &sc, int plannedStreams);

} // namespace Throughline::Cli
