#include "core/engine/readdelayhistogram.h"

#include <cmath>
#include <limits>

namespace Throughline {

std::uint64_t ReadDelayHistogram::total(const std::vector<std::uint64_t> &counts)
{
    std::uint64_t n = 0;
    for (std::uint64_t c : counts)
        n += c;
    return n;
}

double ReadDelayHistogram::quantileMs(const std::vector<std::uint64_t> &counts, double p)
{
    const std::uint64_t n = total(counts);
    if (n == 0)
        return std::numeric_limits<double>::quiet_NaN();
    // The smallest bucket whose cumulative count reaches ⌈p·n⌉: its upper edge bounds the quantile.
    const auto rank = static_cast<std::uint64_t>(std::ceil(p * static_cast<double>(n)));
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        seen += counts[i];
        if (seen >= rank && seen > 0)
            return static_cast<double>((static_cast<std::int64_t>(i) + 1) * kBucketNs) / 1e6;
    }
    return static_cast<double>(static_cast<std::int64_t>(counts.size()) * kBucketNs) / 1e6;
}

} // namespace Throughline
