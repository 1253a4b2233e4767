#include "core/campaign/shardselector.h"

#include <charconv>

namespace Throughline {

namespace {

// Strict decimal (no sign, no spaces, no trailing junk); nullopt-like -1 on failure or overflow.
long long parseCount(std::string_view s)
{
    if (s.empty() || s.size() > 9)
        return -1;
    long long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        return -1;
    return v;
}

} // namespace

Result<ShardSpec> ShardSelector::parse(std::string_view text)
{
    const std::string shown(text);
    const auto slash = text.find('/');
    if (slash == std::string_view::npos)
        return makeError(ErrorCode::InvalidInput,
                         "expected i/N (0-based shard index / shard count, e.g. 0/4), got '" + shown + "'");
    const long long i = parseCount(text.substr(0, slash));
    const long long n = parseCount(text.substr(slash + 1));
    if (i < 0 || n < 0)
        return makeError(
            ErrorCode::InvalidInput,
            "expected i/N with whole numbers (0-based shard index / shard count, e.g. 0/4), got '" + shown +
                "'");
    if (n < 1 || n > kMaxShards)
        return makeError(ErrorCode::InvalidInput, "shard count must be 1…" + std::to_string(kMaxShards) +
                                                      ", got " + std::to_string(n) + " in '" + shown + "'");
    if (i >= n)
        return makeError(ErrorCode::InvalidInput,
                         "shard index " + std::to_string(i) + " is out of range for " + std::to_string(n) +
                             " shards (0-based: 0…" + std::to_string(n - 1) + ") in '" + shown + "'");
    return ShardSpec{static_cast<int>(i), static_cast<int>(n)};
}

int ShardSelector::share(int total, const ShardSpec &shard)
{
    if (total <= 0)
        return 0;
    return total / shard.count + (shard.index < total % shard.count ? 1 : 0);
}

int ShardSelector::shareBefore(int total, const ShardSpec &shard)
{
    if (total <= 0)
        return 0;
    // Shards j < i each get floor(total/N), plus one each for the first (total mod N) of them.
    const int extra = total % shard.count;
    return shard.index * (total / shard.count) + (shard.index < extra ? shard.index : extra);
}

int ShardSelector::proportional(int count, int concurrency, const ShardSpec &shard)
{
    if (count <= 0 || concurrency <= 0)
        return 0;
    const long long before = shareBefore(concurrency, shard);
    const long long upTo = before + share(concurrency, shard);
    // 64-bit: count × concurrency can exceed 2^31 for large budgets.
    return static_cast<int>(count * upTo / concurrency - count * before / concurrency);
}

} // namespace Throughline
