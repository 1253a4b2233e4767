#include "core/storage/shardset.h"

#include "core/campaign/shardselector.h"

#include <map>
#include <optional>

namespace Throughline {

namespace {

std::string joinIndices(const std::vector<int> &indices)
{
    std::string s;
    for (int i : indices)
        s += (s.empty() ? "" : ", ") + std::to_string(i);
    return s;
}

} // namespace

Result<ShardSetCheck> checkShardSet(const std::vector<ShardBundleInfo> &bundles, bool allowMissing)
{
    bool anyShard = false;
    for (const ShardBundleInfo &b : bundles)
        anyShard = anyShard || !b.shard.empty();
    if (!anyShard)
        return ShardSetCheck{};
    std::optional<int> count;
    std::string countFrom;
    std::map<int, std::string> byIndex;
    for (const ShardBundleInfo &b : bundles) {
        if (b.shard.empty())
            return makeError(ErrorCode::InvalidInput,
                             "cannot merge: " + b.path + " is not a shard run (no --shard recorded)");
        auto spec = ShardSelector::parse(b.shard);
        if (!spec)
            return makeError(ErrorCode::InvalidInput, "cannot merge: " + b.path + ": shard '" + b.shard +
                                                          "': " + spec.error().message);
        if (count && *count != spec->count)
            return makeError(ErrorCode::InvalidInput, "cannot merge: " + b.path + " is shard " + b.shard +
                                                          ", " + countFrom + " is one of " +
                                                          std::to_string(*count));
        count = spec->count;
        countFrom = b.path;
        if (auto [it, fresh] = byIndex.emplace(spec->index, b.path); !fresh)
            return makeError(ErrorCode::InvalidInput, "cannot merge: shard " + std::to_string(spec->index) +
                                                          " twice (" + it->second + " and " + b.path + ")");
        if (b.status != "completed")
            return makeError(ErrorCode::InvalidInput,
                             "cannot merge: shard " + b.shard + " (" + b.path + ") did not complete (run " +
                                 (b.status.empty() ? std::string("status unknown") : "status " + b.status) +
                                 "): run index " + std::to_string(spec->index) +
                                 " again with the same start time, then merge again");
    }
    std::vector<int> missing, present;
    for (int i = 0; i < *count; ++i)
        (byIndex.count(i) ? present : missing).push_back(i);
    if (!missing.empty() && allowMissing) {
        ShardSetCheck check;
        for (int i : missing)
            check.missing.push_back(std::to_string(i) + "/" + std::to_string(*count));
        return check;
    }
    if (!missing.empty())
        return makeError(ErrorCode::InvalidInput,
                         "cannot merge: " + std::string(missing.size() == 1 ? "shard " : "shards ") +
                             joinIndices(missing) + " of " + std::to_string(*count) +
                             (missing.size() == 1 ? " is" : " are") + " missing (have " +
                             joinIndices(present) + "): run " +
                             (missing.size() == 1 ? "that index" : "those indices") +
                             " again with the same start time, then merge all " + std::to_string(*count) +
                             " (or merge with --allow-missing: every point is then flagged shard_missing)");
    return ShardSetCheck{};
}

} // namespace Throughline
