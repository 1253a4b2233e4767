#pragma once
// What-if deployments for the planner: operating points a simulator produced for a deployment that was not
// measured (core/sim/whatifcurve.h makes them; this folder does not know the simulator), calibrated to the
// user's own measured points where there are any, and always labelled `simulated` with the error band the
// calibration shows — or, without measured points, the band of the simulator's held-out calibration
// against published throughput (docs/simulator.md). The planner sizes them like measured points and states
// the band with every answer. Pure computation; any thread. Arithmetic in docs/capacity.md.

#include "core/capacity/planner.h"

#include <string>
#include <utility>
#include <vector>

namespace Throughline::Capacity {

struct SimulatedPoint {
    int concurrency = 0;
    double systemTps = 0;  // output tokens/s of one replica, as simulated
    LatencyValues latency; // ttft/tpot/e2e percentiles (ms), tps_user
};

// Throughput calibration of a simulator to measurements: measured ≈ simulated × factor, and the truth of a
// what-if lies within [tps × low, tps × high] (factor applied) as far as the calibration can tell.
struct WhatIfBand {
    double factor = 1;
    double low = 1, high = 1;
    std::string source; // "calibrated on 2 measured points (ratio 0.97–1.02)", "held-out calibration …"
};

// Pairs of (measured, simulated) output tok/s at the same deployment and load. factor = geometric mean of
// the ratios; band = the ratios' range around it, widened to at least ± minHalfWidth (a calibration on one
// or two points cannot claim to be exact). Errors: no pairs, a non-positive figure.
Result<WhatIfBand> calibrateToMeasured(const std::vector<std::pair<double, double>> &measuredVsSimulated,
                                       double minHalfWidth = 0.05);
// Without measured points: the simulator's predicted ÷ published ratios ranged over [minRatio, maxRatio] in
// its held-out calibration, so the truth lies within [predicted ÷ maxRatio, predicted ÷ minRatio].
WhatIfBand heldOutBand(double minRatio, double maxRatio, const std::string &source);
// The held-out band docs/simulator.md states for a GPU (leave-one-GPU-out ratio range), else the ratio range
// over all published rows.
WhatIfBand heldOutBandFor(const std::string &gpu);

// The what-if as a curve the planner takes: every point labelled Simulated with the band; throughput ×
// factor, latencies ÷ factor and tps_user × factor (the simulated timeline runs `factor` times faster).
DeploymentCurve whatIfCurve(const Deployment &deployment, int isl, int osl,
                            const std::vector<SimulatedPoint> &points, const WhatIfBand &band);

} // namespace Throughline::Capacity
