#pragma once
// The plan a cluster run follows, for showing before anything is submitted (Run on a Cluster… dialog,
// `throughline-cli cluster`): every load point of every scenario in plan order with its time slot and what
// each shard offers of it (core/campaign/shardselector.h arithmetic). Search plans cannot be sharded.
#include "core/campaign/scenario.h"
#include "core/util/result.h"

#include <string>
#include <vector>

namespace Throughline {

struct ClusterPlanRow {
    std::string scenario;
    int point = 0;        // within the scenario
    int slot = 0;         // starts at start + slot × point slot
    std::string load;     // "C=16" or "4 req/s"
    std::string perShard; // "4, 4, 4, 4" (concurrency) or "1 req/s each"
};

struct ClusterPlan {
    std::vector<ClusterPlanRow> rows;
    // Scenarios whose endpoint is the built-in simulator: without an endpoint override every shard would
    // start its own simulator, and the shards' load would not meet on one server.
    std::vector<std::string> simulatedScenarios;
    int slotCount() const { return static_cast<int>(rows.size()); }
};

Result<ClusterPlan> planClusterRun(const std::vector<Scenario> &scenarios, int shards);

} // namespace Throughline
