#pragma once
// Adaptive point placement for an MLPerf Endpoints curve (issue 23): after the mandatory points, the next
// concurrency goes where the frontier is least known. Between two points adjacent in concurrency, a point
// not yet measured can only move the step function inside the rectangle the two span — interactivity
// (tokens/s/user) from one to the other, throughput likewise — so its area |Δx| × |Δy| is the most frontier
// area that interval can still change: the area gap weighted by the interval's width on the frontier's axis.
// The largest gap with an integer concurrency strictly inside it gets the next point, at the geometric mean
// of its ends (throughput and TPOT move with log concurrency, the axis the rules cut the regions on).
// Only concurrencies within [cLo, cHi] are proposed (the regions' range; never the margin), and none once the
// budget is spent. Pure; any thread.

#include "core/mlperf/frontier.h"

#include <optional>
#include <vector>

namespace Throughline::Mlperf {

struct AdaptiveChoice {
    int concurrency = 0;
    double gapArea = 0;       // |Δ tps_per_user| × |Δ system_tps| of the interval it splits
    int lowerConcurrency = 0; // the interval's ends
    int upperConcurrency = 0;
};

// `measured`: the fixed-concurrency points so far (any order; concurrency > 0, repeated ones ignored after
// the first). `pointsLeft`: points the budget still allows (≤ 0 = none). nullopt when nothing is left to
// place: no budget, or every interval with a gap has no integer concurrency inside.
std::optional<AdaptiveChoice> nextAdaptivePoint(const std::vector<CurvePoint> &measured, int cLo, int cHi,
                                                int pointsLeft);

} // namespace Throughline::Mlperf
