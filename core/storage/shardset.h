#pragma once
// Which shard bundles make a whole campaign (used by BundleMerger before anything is merged). A merge of
// fewer shards than the plan has would offer the server less than the campaign's load and still look like a
// result, so it is refused with the missing indices named: every bundle must name its shard "i/N" with the
// same N, no index twice, every index 0…N−1 present and every shard's run completed (a cancelled array task
// or pod leaves a bundle with status "cancelled"). Bundles that name no shard at all (runs of the same plan
// merged by wall clock) are not checked.
//
// A user whose index cannot be rerun may still want the other shards' data: with allowMissing the set may
// lack indices (never contain a cancelled or duplicate one); the missing ones are returned so the merge can
// mark every point "shard_missing" (invalid) and name them — a partial result, but never a silent one.
#include "core/util/result.h"

#include <string>
#include <vector>

namespace Throughline {

struct ShardBundleInfo {
    std::string path;
    std::string shard;  // "i/N" as stored with the run ("" = not a shard run)
    std::string status; // run status: completed | cancelled | crashed | running
};

struct ShardSetCheck {
    std::vector<std::string> missing; // "i/N" of the indices no bundle holds (only with allowMissing)
};

Result<ShardSetCheck> checkShardSet(const std::vector<ShardBundleInfo> &bundles, bool allowMissing);

inline Status checkCompleteShardSet(const std::vector<ShardBundleInfo> &bundles)
{
    auto check = checkShardSet(bundles, false);
    if (!check)
        return check.error();
    return Ok{};
}

} // namespace Throughline
