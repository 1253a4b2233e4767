#pragma once
// Distribution statistics with one fixed method (ARCHITECTURE.md "Percentiles"):
// - percentiles by linear interpolation between closest ranks (NumPy's default "linear" method):
//   h = (n − 1)·p, value = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]) over the sorted sample;
// - standard deviation is the population one (divide by n);
// - minimum sample rule: percentile p is reported only when n ≥ 10 / (1 − p)
//   (p50 ≥ 20, p90 ≥ 100, p95 ≥ 200, p99 ≥ 1,000, p99.9 ≥ 10,000); otherwise it reads "n/a (n=…)".
// Pure functions, no state, safe on any thread.

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace Throughline {

// The percentiles every distribution block carries, in key order.
struct PercentileSpec {
    std::string_view key; // "p50", "p90", "p95", "p99", "p999"
    int permille;         // 500, 900, 950, 990, 999
};
inline constexpr std::array<PercentileSpec, 5> kPercentiles{
    {{"p50", 500}, {"p90", 900}, {"p95", 950}, {"p99", 990}, {"p999", 999}}};

// True when n samples are enough to report the percentile permille/1000 (integer arithmetic, so
// n = 100 reports p90 exactly at the boundary).
constexpr bool percentileReportable(std::size_t n, int permille)
{
    return permille < 1000 && n * static_cast<std::size_t>(1000 - permille) >= 10000;
}

// Linear-interpolation percentile of an ascending sorted sample; p in [0, 1]. NaN for an empty sample.
// +∞ entries (error-adjusted samples) propagate: an interpolation that touches +∞ with a non-zero
// weight returns +∞.
double percentileSorted(std::span<const double> sorted, double p);

// One distribution block of results.json: {p50, p90, p95, p99, p999, mean, min, max, std, n}.
// Percentile values are always computed (NaN when n = 0); reported(i) says whether the min-n rule
// allows showing them. JSON writes unreported percentiles as null (display: "n/a (n=…)").
struct StatSummary {
    std::array<double, kPercentiles.size()> p{}; // same order as kPercentiles
    double mean = 0;
    double min = 0;
    double max = 0;
    double std = 0; // population standard deviation
    std::size_t n = 0;

    bool reported(std::size_t i) const { return percentileReportable(n, kPercentiles[i].permille); }
    // Value of a stat by key ("p90", "mean", "min", "max", "std", "n"); nullopt when the key is
    // unknown, the block is empty, or the percentile is not reportable at this n.
    std::optional<double> stat(std::string_view key) const;
    // Human text: the number with `decimals` digits, or "n/a (n=12)".
    std::string format(std::string_view key, int decimals = 1) const;
    // True when at least one percentile that the block carries is not reportable (n < 10,000).
    bool anyUnreported() const;

    nlohmann::json toJson() const;
    // Accepts the block written by toJson; unreported (null) percentiles come back as NaN.
    static std::optional<StatSummary> fromJson(const nlohmann::json &j, std::string *error = nullptr);

    bool operator==(const StatSummary &) const = default;
};

// Summary of a sample (order irrelevant; the vector is sorted in place). Non-finite values are
// kept as they are (see summarizeErrorAdjusted).
StatSummary summarize(std::vector<double> values);

// Error-adjusted variant: every failed request counts as +∞ latency. Percentiles at or above the
// failed share become +∞; mean, max and std become +∞ as soon as one request failed.
StatSummary summarizeErrorAdjusted(std::vector<double> okValues, std::size_t failed);

} // namespace Throughline
