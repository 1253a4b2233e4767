#include "core/metrics/stats.h"

#include "core/metrics/jsonnumber.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace Throughline {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

double percentileSorted(std::span<const double> sorted, double p)
{
    if (sorted.empty())
        return kNaN;
    p = std::clamp(p, 0.0, 1.0);
    const double h = static_cast<double>(sorted.size() - 1) * p;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const double frac = h - static_cast<double>(lo);
    if (lo + 1 >= sorted.size() || frac == 0.0)
        return sorted[lo];
    const double a = sorted[lo];
    const double b = sorted[lo + 1];
    if (std::isinf(b) || std::isinf(a))
        return b; // +∞ with non-zero weight dominates (0·∞ would be NaN)
    return a + frac * (b - a);
}

StatSummary summarize(std::vector<double> values)
{
    StatSummary s;
    s.n = values.size();
    if (values.empty()) {
        s.p.fill(kNaN);
        s.mean = s.min = s.max = s.std = kNaN;
        return s;
    }
    // Selection instead of a full sort: the percentiles ascend, so each nth_element works on the
    // tail left by the previous one (≈ 3× faster than std::sort on millions of chunk gaps).
    auto begin = values.begin();
    for (std::size_t i = 0; i < kPercentiles.size(); ++i) {
        const double h = static_cast<double>(s.n - 1) * (kPercentiles[i].permille / 1000.0);
        const auto lo = static_cast<std::size_t>(std::floor(h));
        const auto loIt = values.begin() + static_cast<std::ptrdiff_t>(lo);
        if (loIt >= begin)
            std::nth_element(begin, loIt, values.end());
        const double a = *loIt;
        const double frac = h - static_cast<double>(lo);
        if (frac == 0.0 || lo + 1 >= s.n) {
            s.p[i] = a;
        } else {
            const double b = *std::min_element(loIt + 1, values.end());
            s.p[i] = (std::isinf(a) || std::isinf(b)) ? b : a + frac * (b - a);
        }
        begin = loIt + 1;
    }
    const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
    s.min = *mn;
    s.max = *mx;
    if (std::isinf(s.max)) {
        s.mean = s.std = kInf;
        return s;
    }
    // Two-pass mean/variance: numerically stable enough for latencies in ms.
    const double sum = std::accumulate(values.begin(), values.end(), 0.0);
    s.mean = sum / static_cast<double>(s.n);
    double sq = 0;
    for (double v : values)
        sq += (v - s.mean) * (v - s.mean);
    s.std = std::sqrt(sq / static_cast<double>(s.n));
    return s;
}

StatSummary summarizeErrorAdjusted(std::vector<double> okValues, std::size_t failed)
{
    okValues.insert(okValues.end(), failed, kInf);
    return summarize(std::move(okValues));
}

std::optional<double> StatSummary::stat(std::string_view key) const
{
    if (key == "n")
        return static_cast<double>(n);
    if (n == 0)
        return std::nullopt;
    if (key == "mean")
        return mean;
    if (key == "min")
        return min;
    if (key == "max")
        return max;
    if (key == "std")
        return std;
    for (std::size_t i = 0; i < kPercentiles.size(); ++i) {
        if (kPercentiles[i].key == key) {
            if (!reported(i))
                return std::nullopt;
            return p[i];
        }
    }
    return std::nullopt;
}

std::string StatSummary::format(std::string_view key, int decimals) const
{
    const auto v = stat(key);
    if (!v || !std::isfinite(*v)) {
        if (v && std::isinf(*v))
            return "inf";
        return "n/a (n=" + std::to_string(n) + ")";
    }
    std::ostringstream os;
    os.setf(std::ios::fixed);
    os.precision(key == "n" ? 0 : decimals);
    os << *v;
    return os.str();
}

bool StatSummary::anyUnreported() const
{
    for (std::size_t i = 0; i < kPercentiles.size(); ++i)
        if (!reported(i))
            return true;
    return false;
}

nlohmann::json StatSummary::toJson() const
{
    nlohmann::json j = nlohmann::json::object();
    for (std::size_t i = 0; i < kPercentiles.size(); ++i)
        j[std::string(kPercentiles[i].key)] =
            reported(i) ? JsonNumber::orNull(p[i]) : nlohmann::json(nullptr);
    j["mean"] = JsonNumber::orNull(mean);
    j["min"] = JsonNumber::orNull(min);
    j["max"] = JsonNumber::orNull(max);
    j["std"] = JsonNumber::orNull(std);
    j["n"] = n;
    return j;
}

std::optional<StatSummary> StatSummary::fromJson(const nlohmann::json &j, std::string *error)
{
    auto fail = [&](const std::string &m) -> std::optional<StatSummary> {
        if (error)
            *error = m;
        return std::nullopt;
    };
    if (!j.is_object())
        return fail("expected an object {p50, …, n}");
    StatSummary s;
    bool ok = true;
    for (std::size_t i = 0; i < kPercentiles.size(); ++i)
        s.p[i] = JsonNumber::read(j, std::string(kPercentiles[i].key).c_str(), ok);
    s.mean = JsonNumber::read(j, "mean", ok);
    s.min = JsonNumber::read(j, "min", ok);
    s.max = JsonNumber::read(j, "max", ok);
    s.std = JsonNumber::read(j, "std", ok);
    if (!ok)
        return fail("a statistic is not a number");
    const auto nIt = j.find("n");
    if (nIt == j.end() || !nIt->is_number_integer() || nIt->get<long long>() < 0)
        return fail("field 'n' missing or not a non-negative integer");
    s.n = nIt->get<std::size_t>();
    return s;
}

} // namespace Throughline
