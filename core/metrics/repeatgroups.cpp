#include "core/metrics/repeatgroups.h"

#include "core/stats/repeatinterval.h"

#include <algorithm>

namespace Throughline {

std::vector<std::vector<std::size_t>> repeatGroups(std::span<const PointResult> points)
{
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (points[i].load.repeat < 1)
            continue;
        auto same = [&](const std::vector<std::size_t> &g) {
            return points[g.front()].load.sameLoad(points[i].load);
        };
        if (auto it = std::find_if(groups.begin(), groups.end(), same); it != groups.end())
            it->push_back(i);
        else
            groups.push_back({i});
    }
    return groups;
}

namespace {
PointIntervals acrossRepeatsOf(std::span<const PointResult> points, const std::vector<std::size_t> &group)
{
    PointIntervals across;
    const PointResult &first = points[group.front()];
    across.level = first.intervals.level > 0 ? first.intervals.level : kDefaultConfidenceLevel;
    for (const auto &[metric, stats] : first.intervals.byMetric)
        for (const auto &entry : stats) {
            const std::string &stat = entry.first;
            std::vector<double> values;
            for (std::size_t i : group)
                if (const auto v = points[i].metricValue(metric, stat))
                    values.push_back(*v);
            if (values.size() != group.size())
                continue; // a repeat without the value: its mean would not be the load's
            Interval iv = repeatMeanInterval(values, across.level);
            iv.effectiveN = double(values.size());
            across.set(metric, stat, iv);
        }
    return across;
}
} // namespace

void fillAcrossRepeatIntervals(std::span<PointResult> points)
{
    for (PointResult &p : points)
        p.acrossRepeats = {};
    for (const auto &group : repeatGroups(points)) {
        if (group.size() < 2)
            continue;
        const PointIntervals across = acrossRepeatsOf(points, group);
        for (std::size_t i : group)
            points[i].acrossRepeats = across;
    }
}

std::optional<DecidingInterval> decidingInterval(const PointResult &point, std::string_view metric,
                                                 std::string_view stat)
{
    const std::optional<Interval> within = point.metricInterval(metric, stat);
    if (!within)
        return std::nullopt;
    DecidingInterval d{*within, false, false, double(point.nOk)};
    if (const std::optional<Interval> across = point.acrossRepeatInterval(metric, stat)) {
        d.hadAcrossRepeats = true;
        if (&widerInterval(*within, *across) == &*across)
            d = {*across, true, true, across->effectiveN};
    }
    return d;
}

} // namespace Throughline
