#pragma once
// Adaptive point placement for an MLPerf Endpoints curve (issue 23): after the mandatory points, the next
// concurrency goes where the frontier is least known. Between two points adjacent in concurrency, a point
// not yet measured can only move the step function inside the rectangle the two span — interactivity
// (tokens/s/user) from one to the other, throughput likewise — so its area |Δx| × |Δy| is the most frontier
// area that interval can still change: the area gap weighted by the interval's width on the frontier's axis.
//
// Which interval, and where in it: the point that adds the most *expected* area. Candidates are predicted
// from a model that is structurally right for closed-loop decode — both time-per-token quantities are close
// to linear in concurrency:
//   TPOT(c) = 1 / x(c)          the decode step is a fixed cost plus a cost per running sequence;
//   c / y(c)                    by Little's law the per-user time per output token (TPOT + TTFT / OSL),
//                               which grows with c the same way (y = system tokens/s);
// each interpolated in c through the measured points (monotone cubic, PCHIP: linear between two points;
// with more, the neighbours' slopes carry the curvature, e.g. a MoE model's TPOT rising steeply while more
// experts wake up) and held inside the rectangle of the interval's ends. Inserting p between a (lower
// concurrency) and b replaces a's step (x_b, x_a] at y_a by (x_b, x_p] at y_p and (x_p, x_a] at y_a: the
// gain is (y_p − y_a)(x_p − x_b), never more than the rectangle |Δx|·|Δy|.
// Greedy on that gain alone is myopic (it takes the point that is best if it were the last, and leaves the
// area between it and its neighbours to points that fit badly), so the choice looks ahead: the remaining
// budget (up to 16 points) is planned on the predicted curve — the best staircase inside each interval for
// 0…m points (dynamic programming over up to 128 candidates per interval), then the best share of the
// points among the intervals — and of the planned points the one that alone would add the most is measured
// next, refined to the best integer between its neighbours in the plan. With one point left this is the
// greedy choice: every integer concurrency is evaluated. The next call plans again with the new
// measurement. An interval whose ends are not in frontier order (noise: the higher concurrency is also the
// more interactive, or less productive) expects nothing; only when no interval expects any gain does the
// largest rectangle get the point, at the geometric mean of its ends (the earlier rule).
// Only concurrencies within [cLo, cHi] are proposed (the regions' range; never the margin), and none once the
// budget is spent. Pure and deterministic (ties keep the lower concurrency); a call costs well under a
// millisecond at C_max 16,384. Any thread.

#include "core/mlperf/frontier.h"

#include <optional>
#include <vector>

namespace Throughline::Mlperf {

struct AdaptiveChoice {
    int concurrency = 0;
    double expectedGain = 0; // predicted area the point alone adds to the step function (0: the fallback)
    double gapArea = 0; // |Δ tps_per_user| × |Δ system_tps| of the interval it splits (bounds the gain)
    int lowerConcurrency = 0; // the interval's ends
    int upperConcurrency = 0;
};

// The model's point at concurrency c from the measured points (any order, distinct concurrencies, positive
// coordinates, at least two; c inside their range): TPOT and c / system tok/s interpolated (PCHIP) in c.
// Not clamped; with two points it is exact on a curve whose TPOT and c / y are linear in c.
CurvePoint predictAt(const std::vector<CurvePoint> &measured, int c);

// Area the step function gains when p is inserted between a (more interactive, lower throughput) and b,
// adjacent on the frontier: (y_p − y_a)(x_p − x_b), 0 when p would not be on the frontier between them.
double insertionGain(const CurvePoint &a, const CurvePoint &b, const CurvePoint &p);

// `measured`: the fixed-concurrency points so far (any order; concurrency > 0, repeated ones ignored after
// the first). `pointsLeft`: points the budget still allows (≤ 0 = none). nullopt when nothing is left to
// place: no budget, or every interval with a gap has no integer concurrency inside.
std::optional<AdaptiveChoice> nextAdaptivePoint(const std::vector<CurvePoint> &measured, int cLo, int cHi,
                                                int pointsLeft);

} // namespace Throughline::Mlperf
