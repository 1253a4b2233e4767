#pragma once
// What-if operating points of a deployment that was not measured (issue 24): the simulator's own scheduler
// (BatchStepper, the rules the HTTP simulator runs) on a virtual clock with a closed-loop client at each
// concurrency, summarised the way a load point is — output tokens/s over the steady window and TTFT, TPOT,
// E2E percentiles of the measured requests — plus the saturated point the calibration compares with
// published offline throughput. Plain numbers keyed like the planner's latency figures ("ttft_p90", ms), so
// core/capacity can size them without knowing the simulator. Pure computation; any thread.

#include "core/sim/batchscheduler.h"
#include "core/sim/performancemodel.h"

#include <map>
#include <string>
#include <vector>

namespace Throughline {

struct WhatIfSpec {
    int isl = 1000;
    int osl = 1000;
    std::vector<int> concurrencies;
    // Requests per point = wavesPerPoint × concurrency (the first wave is warm-up, the last drains).
    int wavesPerPoint = 8;
};

struct WhatIfPoint {
    int concurrency = 0;
    double outputTps = 0;                  // whole deployment, tokens in the steady window ÷ its length
    int requests = 0;                      // measured requests (warm-up and drain left out)
    std::map<std::string, double> latency; // ttft_p50 … e2e_p99 (ms), tpot_pNN (ms), tps_user
};

// Aggregated deployments. Concurrencies ≤ 0 are skipped. config.tokenBudget is per GPU: the pool's budget is
// that × the model's GPUs, as SimServer sets it.
std::vector<WhatIfPoint> whatIfCurve(const PerformanceModel &model, const WhatIfSpec &spec,
                                     const SchedulerConfig &config = {});

} // namespace Throughline
