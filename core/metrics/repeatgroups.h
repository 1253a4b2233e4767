#pragma once
// Repeats of one load (plan.repeats, docs/metrics.md "Repeats"): a scenario's points whose loads are the same
// apart from the repeat index. Each statistic's values over a load's repeats give the across-repeat
// interval (core/stats/repeatinterval.h) — the run-to-run noise one run's own interval cannot see. It is
// derived from the points, so it is recomputed wherever a scenario's points are put together (a finished
// run, results.json read back, merge, History) instead of being trusted from a file. Pure functions.

#include "core/metrics/pointresult.h"

#include <cstddef>
#include <optional>
#include <string_view>
#include <span>
#include <vector>

namespace Throughline {

// Indices of the points of each repeated load (load.repeat ≥ 1), in the order the loads first appear; each
// group's indices in point order. Points run once (repeat 0) are in no group.
std::vector<std::vector<std::size_t>> repeatGroups(std::span<const PointResult> points);

// Sets every point's acrossRepeats: for a load with ≥ 2 repeats, the Student-t interval of the mean of each
// statistic that carries a within-run interval and has a value on every repeat, at the points' interval
// level; empty on the other points.
void fillAcrossRepeatIntervals(std::span<PointResult> points);

// The interval a judgement of the point's statistic rests on: its own, or for a repeated load the wider of
// that and the across-repeat interval (widerInterval). sampleSize = the point's successful requests, or the
// repeats when the across-repeat interval is the wider. nullopt without a within-run interval. Used by the
// verdicts and History's Compare tab.
struct DecidingInterval {
    Interval interval;
    bool acrossRepeats = false; // the across-repeat interval decides
    bool hadAcrossRepeats = false;
    double sampleSize = 0;
};
std::optional<DecidingInterval> decidingInterval(const PointResult &point, std::string_view metric,
                                                 std::string_view stat);

} // namespace Throughline
