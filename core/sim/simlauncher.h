#pragma once
// The simulator launcher of the desktop app and `throughline-cli run` alike (RunOptions::simLauncher): one
// connection rule and one process rule. Up to kInProcessStreamLimit planned streams (and unless the campaign
// asks for a child process) the simulator runs in process (SimServer on 127.0.0.1, an ephemeral port); above
// it runs as a throughline-sim child process, so its sockets and threads stay out of the client's open-file
// budget (20,000 per process: the client's 16k streams and the server's cannot share one).

#include "core/campaign/simulatedendpoint.h"

#include <string>
#include <vector>

namespace Throughline {

inline constexpr int kInProcessStreamLimit = 2000;

// Connections the simulator accepts for `plannedStreams` streams: twice the streams (a closed loop's
// finished connection may linger while its successor opens) plus 64 for probes and telemetry.
int simulatorMaxConnections(int plannedStreams);
// True when the scenario's simulator runs as a child process.
bool simulatorInChildProcess(const Scenario &scenario, int plannedStreams);

// The command line of a throughline-sim child for the scenario: its deployment, the campaign's simulator
// options, the server timing it publishes (Endpoint::serverTiming) and its connection limit.
std::vector<std::string> simulatorArguments(const Scenario &scenario, int plannedStreams);

// Starts the scenario's simulator; alive as long as the returned endpoint's owner. Called on the engine's
// run() thread.
Result<SimulatedEndpoint> launchSimulator(const Scenario &scenario, int plannedStreams);

} // namespace Throughline
