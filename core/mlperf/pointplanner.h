#pragma once
// Which concurrencies an MLPerf Endpoints curve measures (rules §5.3–5.7): C_min as the Ultra Low point,
// at least one point in each of Low, Medium and High (C_max itself is the High point), submitter's-choice
// points spread over the three regions in log space, and the Offline result — a dedicated run at the
// dataset's cardinality (counted as a point, EPR-08) or the C_max point elected (EPR-09). Point counts,
// region bounds and durations come from the rules preset. Pure computation; any thread.

#include "core/mlperf/regions.h"
#include "core/mlperf/rulespreset.h"
#include "core/util/result.h"

#include <vector>

namespace Throughline::Mlperf {

enum class OfflineMode {
    Dedicated, // a separate run at concurrency = dataset size (v1.0 default)
    Elected,   // the C_max point is the Offline result (one point fewer)
    None       // the preset's version has no Offline point (v0.7)
};

struct PlannedPoint {
    enum class Role { UltraLow, Mandatory, Choice, Offline };
    int concurrency = 0;
    Region region = Region::OutOfRange; // Offline: OutOfRange (it is not on the concurrency axis' regions)
    Role role = Role::Choice;
    double minDurationS = 0; // steady-state issue span the preset requires (0 = none)
    bool operator==(const PlannedPoint &) const = default;
};

struct PointPlanRequest {
    int cMin = 1;
    int cMax = 0;
    int points = 0; // total, Offline included; 0 = the preset's minimum
    OfflineMode offline = OfflineMode::Dedicated;
    int datasetSize = 0; // samples per pass; the dedicated Offline point's concurrency (EPR-25)
};

struct PointPlan {
    RegionBounds bounds;
    OfflineMode offline = OfflineMode::Dedicated;
    std::vector<PlannedPoint> points; // fixed-concurrency points ascending, then the dedicated Offline point
    int minPoints = 0;                // what the preset requires for this Offline mode
};

// The minimum total point count for an Offline mode under a preset (EPR-08 / EPR-09).
int minimumPoints(const RulesPreset &preset, OfflineMode offline);

// InvalidInput naming the rule when the request cannot be planned: C_min / C_max (EPR-12/13), a region
// with no concurrency in it (EPR-15/16/17), too few or too many points (EPR-08/09/10), more points than
// distinct concurrencies, an Offline mode the preset's version lacks, an Offline point below C_max (EPR-24).
Result<PointPlan> planPoints(const PointPlanRequest &request, const RulesPreset &preset);

} // namespace Throughline::Mlperf
