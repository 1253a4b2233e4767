#pragma once
// Merges shard bundles (throughline-cli run --shard i/N) into one bundle: same campaign hash and plan id
// required; request timestamps are moved onto the earliest shard's t=0 by wall clock; point start skew above
// 50 ms is flagged (validity flag "shard_skew" + merge report); every aggregate is recomputed from the merged
// raw samples with core/metrics (aggregatePoint), through the replaceable PointAggregator below. Blocking;
// call from a worker thread or the CLI.

#include "core/storage/storagetypes.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace Throughline {

class BundleMerger
{
public:
    // Inputs of one merged point: its records (timestamps on the merged t=0), stored point config and
    // scenario.
    struct PointContext {
        nlohmann::json pointConfig;
        ScenarioRow scenario;
        std::int64_t windowStartNs = kNoTime, windowEndNs = kNoTime; // union of the shards' windows
    };
    // Returns the results.json point object. Default: core/metrics aggregatePoint.
    using PointAggregator =
        std::function<nlohmann::json(std::span<const RequestRecord>, const PointContext &)>;
    static PointAggregator defaultAggregator();

    struct Report {
        std::string uuid; // of the merged run
        int shards = 0, points = 0;
        std::size_t requests = 0;
        double maxSkewMs = 0;
        std::vector<std::string> warnings; // skew per point above the limit
    };

    static constexpr double kSkewLimitMs = 50.0;

    static Result<Report> merge(const std::vector<std::string> &bundles, const std::string &outBundle,
                                const PointAggregator &aggregator = defaultAggregator());
};

} // namespace Throughline
