#pragma once
// A sharded run executes one engine scenario per (scenario, load point) that has a share on this shard
// (RunPlan::shardEntries); this folds the engine's outcome back into the campaign's scenarios with the plan's
// point indices, so results, bundles and `merge` see the same (scenario, point) keys on every shard.

#include "runplan.h"

#include "core/run/runcontroller.h"

#include <vector>

namespace Throughline::Cli {

// `entries` is the map filled by RunPlan::shardEntries for the scenarios the engine ran. Scenarios of the
// plan without any point on this shard come back with no points.
RunOutcome regroupShardOutcome(const RunPlan &plan, RunOutcome engine,
                               const std::vector<RunPlan::Entry> &entries);

} // namespace Throughline::Cli
