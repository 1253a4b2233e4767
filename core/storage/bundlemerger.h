#pragma once
// Merges shard bundles (throughline-cli run --shard i/N) into one bundle: same campaign hash and plan id
// required; every aggregate is recomputed from the merged raw samples with core/metrics (aggregatePoint)
// through the replaceable PointAggregator below, with the stored campaign's SLOs and minimum window, and
// every scenario is judged again (core/targets/verdict.h) with the campaign's target table.
//
// Alignment. Points of a time-scheduled plan (provenance shard.start_at_unix_ms + point_slot_s) are aligned
// per point on the plan's scheduled start: a shard's part is placed at scheduled start + its lateness, the
// lateness being its recorded start minus the scheduled start, both read from that shard's own clock — so a
// constant clock offset between machines cancels out (it cannot be measured from the bundles: it shows as
// real misalignment of the load on the server, which the shards' schedule keeps within the offset). Other
// points are aligned by wall clock (each shard's t0). Shifts are applied in the records' time base: model
// time (wall × time scale) for time-scaled simulated scenarios. Skew = spread of the parts' lateness
// (scheduled) or of their wall-clock starts (unscheduled); above kSkewLimitMs the point gets the validity
// flag "shard_skew" and a warning in the report; a part that begins more than kLateLimitMs after the
// scheduled start flags "shard_late" (merge.late_shards names the shards). Shard runs must come complete
// (core/storage/shardset.h: every index 0…N−1, each completed) or the merge is refused, naming the missing
// index — unless Options::allowMissingShards: then every point of the partial merge is flagged
// "shard_missing" (invalid) and merge.missing_shards names the absent shards. Blocking; call from a worker
// thread or the CLI.

#include "core/campaign/scenario.h"
#include "core/storage/storagetypes.h"
#include "core/targets/targettable.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
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
        // The expanded scenario of the stored campaign (SLOs, minimum window, deployment); nullptr when the
        // stored campaign could not be read (defaults used, see Report::warnings).
        const Scenario *campaignScenario = nullptr;
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
        int scheduledPoints = 0;             // points aligned on the plan's schedule (the rest: wall clock)
        std::vector<std::string> warnings;   // per point: skew above the limit, shards late for their slot
        std::vector<std::string> lateShards; // "i/N" of every shard late for at least one point's slot
        std::vector<std::string> missingShards; // "i/N" absent from a partial merge (allowMissingShards)
        std::vector<std::string> notes; // what could not be judged: unreadable campaign, missing targets
        struct ScenarioVerdict {
            std::string key;
            std::string status; // pass | fail | no_target | invalid ("" = not judged)
        };
        std::vector<ScenarioVerdict> verdicts; // per merged scenario, in scenario order
        std::string targetsName;               // target table judged with ("" = none)
    };

    static constexpr double kSkewLimitMs = 50.0;
    // A shard's part that begins more than this after the point's scheduled start was late for its slot
    // (array task or pod started late, previous point overran): flag "shard_late", even when every shard
    // was equally late (no skew). Above the few ms a shard needs from its slot to its first request.
    static constexpr double kLateLimitMs = 250.0;

    struct Options {
        // Target table for the verdicts. Default: the table stored with the shards (targets_used), else the
        // campaign's targets file when it is a shipped resource (":/targets/…"); else SLO checks only.
        std::optional<TargetTable> targets;
        double skewLimitMs = kSkewLimitMs;
        double lateLimitMs = kLateLimitMs;
        // Merge without some shard indices (never cancelled ones): the points offered the server only part
        // of the campaign's load, so each is flagged "shard_missing" and invalid.
        bool allowMissingShards = false;
        PointAggregator aggregator = defaultAggregator();
    };

    static Result<Report> merge(const std::vector<std::string> &bundles, const std::string &outBundle,
                                const Options &options);
    static Result<Report> merge(const std::vector<std::string> &bundles, const std::string &outBundle)
    {
        return merge(bundles, outBundle, Options{});
    }
};

} // namespace Throughline
