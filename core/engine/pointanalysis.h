#pragma once
// After a load point: the server-telemetry summary over the point's window, stall detection over its
// streams and (several replicas) the slow-replica check. Fills out.result.telemetry and validity.notes
// (results.json) and out.telemetry (the detail kept in storage). Everything here is in model time.

#include "core/engine/runcontroller.h"

#include <vector>

namespace Throughline {

// snap: the scenario's telemetry from shortly before the point on (already in model time), null when not
// scraping. stalls.minThresholdNs must already be in model time. severalReplicas: the scenario routes to
// more than one URL.
void analysePoint(PointOutcome &out, const std::vector<RequestRecord> &recs, const TelemetrySnapshot *snap,
                  const StallOptions &stalls, bool severalReplicas);

} // namespace Throughline
