#pragma once
// The simulator's scheduler on a virtual clock, driven by a closed-loop client: C slots, each sends its
// next request the moment the previous one finishes, until the budget is spent. No HTTP, no threads, no
// wall clock: a run is a pure function of (model, scheduler config, spec), the same seed gives the same
// run on every machine, and thousands of runs take seconds. The rules are BatchStepper's, the same the
// HTTP simulator runs, so the times are what the simulated server would produce (its ground truth:
// when each token was made), without the client and loopback delays a real run adds.
// Used by seeded statistical studies (interval coverage, false alarms, detection) and their
// ground truth: the long-run values are the same quantities over a very long run.

#include "core/sim/batchscheduler.h"
#include "core/sim/performancemodel.h"

#include <cstdint>
#include <vector>

namespace Throughline {

struct VirtualClosedLoopSpec {
    int concurrency = 1;
    int requests = 10; // whole budget, warm-up included
    int promptTokens = 128;
    int outputTokens = 128; // forced length (ignore_eos), or the shortest with outputTokensMax
    // > outputTokens: each request's length is drawn uniformly from [outputTokens, outputTokensMax] (seeded
    // from the config's seed) — natural lengths, which keep the C slots from moving in lock-step waves.
    int outputTokensMax = 0;
};

// One request, virtual ns from the run's t = 0.
struct VirtualRequest {
    std::int64_t sendNs = 0;           // the slot was free: sent and queued at once
    std::vector<std::int64_t> tokenNs; // end of each step that produced a token (token 1 first)
    std::int64_t doneNs = -1;
    int outputTokens = 0;
};

// Aggregated deployments (one pool). Requests in send order (index = sequence number).
std::vector<VirtualRequest> runVirtualClosedLoop(const PerformanceModel &model, const SchedulerConfig &config,
                                                 const VirtualClosedLoopSpec &spec);

} // namespace Throughline
