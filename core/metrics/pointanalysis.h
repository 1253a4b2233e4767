#pragma once
// After a load point: the server-telemetry summary over the point's window, stall detection over its
// streams and (several replicas) the slow-replica check. Fills out.result.telemetry and validity.notes
// (results.json) and the point's telemetry detail (PointOutcome::telemetry, kept in storage). Everything here
// is in model time. Shared by the run (core/run/pointfinish.cpp) and `merge` (core/storage/bundlemerger.cpp).

#include "core/engine/requestrecord.h"
#include "core/engine/stalldetector.h"
#include "core/metrics/pointresult.h"
#include "core/telemetry/telemetrysnapshot.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace Throughline {

// snap: the scenario's telemetry from shortly before the point on (already in model time), null when not
// scraping. stalls.minThresholdNs must already be in model time. severalReplicas: the scenario routes to
// more than one URL.
// result: the point's aggregate (its telemetry map and validity notes are filled); telemetry: the detail
// object {"telemetry", "stalls", "replicas", "sources"}.
void analysePoint(PointResult &result, nlohmann::json &telemetry, const std::vector<RequestRecord> &recs,
                  const TelemetrySnapshot *snap, const StallOptions &stalls, bool severalReplicas);

} // namespace Throughline
