#include "core/mlperf/pointplanner.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>

namespace Throughline::Mlperf {

namespace {

Error invalid(const std::string &message)
{
    return makeError(ErrorCode::InvalidInput, message);
}

std::string rangeText(const ConcurrencyRange &r)
{
    return std::to_string(r.lo) + "…" + std::to_string(r.hi);
}

// n distinct concurrencies in `range`, spread in log space of the offset c − C_min (the space in which
// the rules cut the regions). With `includeTop` the last one is range.hi (the C_max point of High);
// otherwise they sit at the midpoints of n equal log slices. Collisions after rounding move to the
// nearest free concurrency of the range (n ≤ range.size() is guaranteed by the caller).
std::vector<int> spread(const ConcurrencyRange &range, int cMin, int n, bool includeTop, std::set<int> &taken)
{
    const double a = std::log(static_cast<double>(std::max(1, range.lo - cMin)));
    const double b = std::log(static_cast<double>(std::max(1, range.hi - cMin)));
    std::vector<int> out;
    for (int j = 1; j <= n; ++j) {
        const double t = includeTop ? (n == 1 ? 1.0 : static_cast<double>(j - 1) / (n - 1)) : (j - 0.5) / n;
        int c =
            std::clamp(cMin + static_cast<int>(std::lround(std::exp(a + t * (b - a)))), range.lo, range.hi);
        for (int d = 1; taken.count(c) && d <= range.size(); ++d) {
            // Search outwards: c + d, then c − d.
            const int up = c + d, down = c - d;
            if (up <= range.hi && !taken.count(up)) {
                c = up;
                break;
            }
            if (down >= range.lo && !taken.count(down)) {
                c = down;
                break;
            }
        }
        taken.insert(c);
        out.push_back(c);
    }
    return out;
}

} // namespace

int minimumPoints(const RulesPreset &preset, OfflineMode offline)
{
    return offline == OfflineMode::Dedicated ? preset.minPointsWithDedicatedOffline
                                             : preset.minPointsWithElectedOffline;
}

Result<PointPlan> planPoints(const PointPlanRequest &req, const RulesPreset &preset)
{
    auto bounds = regionBounds(req.cMin, req.cMax, preset.regions);
    if (!bounds)
        return bounds.error();
    if (!preset.offlinePoint && req.offline != OfflineMode::None)
        return invalid(preset.id + " has no Offline point: plan with OfflineMode::None");
    if (preset.offlinePoint && req.offline == OfflineMode::None)
        return invalid("EPR-26: a single-turn curve under " + preset.id +
                       " declares exactly one Offline result (dedicated or elected)");
    PointPlan plan;
    plan.bounds = *bounds;
    plan.offline = req.offline;
    plan.minPoints = minimumPoints(preset, req.offline);
    const int total = req.points > 0 ? req.points : plan.minPoints;
    const char *minRule = req.offline == OfflineMode::Dedicated ? "EPR-08" : "EPR-09";
    if (total < plan.minPoints)
        return invalid(std::string(minRule) + ": " + std::to_string(total) + " points planned, at least " +
                       std::to_string(plan.minPoints) + " required");
    if (total > preset.maxPoints)
        return invalid("EPR-10: " + std::to_string(total) + " points planned, at most " +
                       std::to_string(preset.maxPoints) + " allowed (Offline included)");

    const std::array<std::pair<Region, const char *>, 3> regions{
        {{Region::Low, "EPR-15"}, {Region::Medium, "EPR-16"}, {Region::High, "EPR-17"}}};
    for (const auto &[region, rule] : regions)
        if (plan.bounds.range(region).empty())
            return invalid(std::string(rule) + ": the " + std::string(regionKey(region)) + " region " +
                           rangeText(plan.bounds.range(region)) + " of C_min " + std::to_string(req.cMin) +
                           " / C_max " + std::to_string(req.cMax) + " holds no concurrency");

    // One point per region, then the choice points round-robin from High down (the widest regions in
    // concurrency first), skipping full regions.
    const int fixedPoints = total - (req.offline == OfflineMode::Dedicated ? 1 : 0);
    std::array<int, 3> perRegion{1, 1, 1};
    for (int extra = fixedPoints - 4; extra > 0;) {
        bool placed = false;
        for (int r = 2; r >= 0 && extra > 0; --r) {
            if (perRegion[r] < plan.bounds.range(regions[r].first).size()) {
                ++perRegion[r];
                --extra;
                placed = true;
            }
        }
        if (!placed)
            return invalid("the regions of C_min " + std::to_string(req.cMin) + " / C_max " +
                           std::to_string(req.cMax) + " hold fewer than " + std::to_string(fixedPoints) +
                           " distinct concurrencies");
    }

    std::set<int> taken{req.cMin};
    plan.points.push_back(
        {req.cMin, Region::UltraLow, PlannedPoint::Role::UltraLow, preset.minDurationFor(Region::UltraLow)});
    for (int r = 2; r >= 0; --r) { // High first, so C_max is placed before anything can take it
        const Region region = regions[r].first;
        const auto cs =
            spread(plan.bounds.range(region), req.cMin, perRegion[r], region == Region::High, taken);
        for (std::size_t i = 0; i < cs.size(); ++i) {
            const bool mandatory = region == Region::High ? cs[i] == req.cMax : i == (cs.size() - 1) / 2;
            plan.points.push_back({cs[i], region,
                                   mandatory ? PlannedPoint::Role::Mandatory : PlannedPoint::Role::Choice,
                                   preset.minDurationFor(region)});
        }
    }
    std::sort(plan.points.begin(), plan.points.end(),
              [](const PlannedPoint &a, const PlannedPoint &b) { return a.concurrency < b.concurrency; });

    if (req.offline == OfflineMode::Dedicated) {
        if (req.datasetSize <= 0)
            return invalid("EPR-25: the dedicated Offline point runs at the dataset's size; none given");
        if (preset.offline && preset.offline->minConcurrencyIsCMax && req.datasetSize < req.cMax)
            return invalid("EPR-24: the Offline point's concurrency (dataset size " +
                           std::to_string(req.datasetSize) + ") is below C_max " + std::to_string(req.cMax));
        plan.points.push_back({req.datasetSize, Region::OutOfRange, PlannedPoint::Role::Offline, 0});
    }
    return plan;
}

} // namespace Throughline::Mlperf
