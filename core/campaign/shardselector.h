#pragma once
// Which share of a campaign's load one shard offers (ARCHITECTURE.md "Growing past one machine").
// `throughline-cli run --shard i/N`: i is 0-based (0 ≤ i < N), so a Kubernetes JOB_COMPLETION_INDEX or a
// Slurm SLURM_ARRAY_TASK_ID of an `--array=0-(N-1)` job is passed as is. Every shard runs every scenario
// and every load point, at the same wall-clock slot; the load of one point is split between the shards:
// concurrency floor(C/N) + (i < C mod N) (points with C < N run on shards 0…C−1 only), open-loop rate λ/N
// (N Poisson streams of λ/N superpose to one of λ), request budgets in proportion to the concurrency share
// so that the shares add up to the whole. Pure arithmetic: no I/O, no threads.

#include "core/util/result.h"

#include <string>
#include <string_view>

namespace Throughline {

struct ShardSpec {
    int index = 0; // 0-based
    int count = 1; // 1 = the whole campaign on one machine

    bool whole() const { return count == 1; }
    std::string toString() const { return std::to_string(index) + "/" + std::to_string(count); }
    bool operator==(const ShardSpec &) const = default;
};

class ShardSelector
{
public:
    static constexpr int kMaxShards = 4096;

    // "i/N" with decimal integers, 0 ≤ i < N ≤ kMaxShards. The error message names the problem
    // (e.g. "shard index 4 is out of range for 4 shards (0-based: 0…3)"); callers prefix the option name.
    static Result<ShardSpec> parse(std::string_view text);

    // Share of `total` units (concurrency, connection cap) for the shard: floor(total/N) + (i < total mod N).
    // Shares of all shards add up to total; 0 when total < N and i ≥ total.
    static int share(int total, const ShardSpec &shard);

    // Shards 0…i−1 together: Σ share(total, j) for j < i.
    static int shareBefore(int total, const ShardSpec &shard);

    // `count` items (e.g. measured requests of a point with concurrency C) split in proportion to the shard's
    // concurrency share: floor(count·S(i+1)/C) − floor(count·S(i)/C) with S the cumulative shares. The parts
    // of all shards add up to count exactly; 0 for a shard without concurrency share.
    static int proportional(int count, int concurrency, const ShardSpec &shard);

    // Open-loop arrival rate of one shard (requests/s): rate / N.
    static double rate(double rate, const ShardSpec &shard) { return rate / shard.count; }
};

} // namespace Throughline
