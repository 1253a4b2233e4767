#include "core/stats/blockbootstrap.h"

#include "core/stats/autocorrelation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace Throughline {

namespace {
// Uniform index in [0, m) from a 64-bit draw (modulo bias < m / 2⁶⁴, irrelevant here), identical on
// every standard library unlike std::uniform_int_distribution.
std::size_t uniformIndex(std::mt19937_64 &rng, std::size_t m)
{
    return std::size_t(rng() % m);
}

double percentileOfSorted(const std::vector<double> &s, double p)
{
    const double h = double(s.size() - 1) * p;
    const auto lo = std::size_t(std::floor(h));
    const double frac = h - double(lo);
    if (lo + 1 >= s.size())
        return s[lo];
    return s[lo] + frac * (s[lo + 1] - s[lo]);
}
} // namespace

BootstrapResult blockBootstrapRatio(std::span<const double> a, std::span<const double> d,
                                    const BlockBootstrapOptions &options)
{
    BootstrapResult r;
    r.interval.level = options.level;
    r.interval.method = IntervalMethod::BlockBootstrap;
    const std::size_t m = std::min(a.size(), d.size());
    r.slices = m;
    const double sumA = std::accumulate(a.begin(), a.begin() + std::ptrdiff_t(m), 0.0);
    const double sumD = std::accumulate(d.begin(), d.begin() + std::ptrdiff_t(m), 0.0);
    if (m < 2 || !(sumD > 0))
        return r;
    const double ratio = sumA / sumD;
    r.interval.estimate = ratio;

    std::size_t len = options.blockLength;
    if (len == 0) {
        std::vector<double> z(m);
        for (std::size_t i = 0; i < m; ++i)
            z[i] = a[i] - ratio * d[i]; // influence of slice i on the ratio
        len = politisWhiteBlockLength(z);
    }
    len = std::clamp<std::size_t>(len, 1, m);
    r.blockLength = len;

    std::mt19937_64 rng(options.seed);
    const int reps = std::max(options.resamples, 1);
    std::vector<double> stats;
    stats.reserve(std::size_t(reps));
    for (int b = 0; b < reps; ++b) {
        double sa = 0, sd = 0;
        std::size_t taken = 0;
        while (taken < m) {
            const std::size_t start = uniformIndex(rng, m);
            for (std::size_t j = 0; j < len && taken < m; ++j, ++taken) {
                const std::size_t i = (start + j) % m;
                sa += a[i];
                sd += d[i];
            }
        }
        stats.push_back(sd > 0 ? sa / sd : ratio);
    }
    std::sort(stats.begin(), stats.end());
    const double alpha = 1.0 - options.level;
    r.interval.lower = percentileOfSorted(stats, alpha / 2);
    r.interval.upper = percentileOfSorted(stats, 1 - alpha / 2);
    const double mean = std::accumulate(stats.begin(), stats.end(), 0.0) / double(stats.size());
    double sq = 0;
    for (double s : stats)
        sq += (s - mean) * (s - mean);
    r.standardError = std::sqrt(sq / double(stats.size()));
    return r;
}

WindowSlicer::WindowSlicer(double w0, double w1, std::size_t slices)
    : m_w0(w0)
    , m_w1(w1)
{
    if (slices == 0 || !(w1 > w0))
        return;
    m_width = (w1 - w0) / double(slices);
    m_window.sums.assign(slices, 0.0);
    m_window.seconds.assign(slices, m_width);
}

void WindowSlicer::add(double t, double value)
{
    const std::size_t slices = m_window.sums.size();
    if (slices == 0 || !(t >= m_w0 && t <= m_w1)) // [W0, W1] as the steady-state throughput counts events
        return;
    const auto k = std::min(slices - 1, std::size_t((t - m_w0) / m_width));
    m_window.sums[k] += value;
}

SlicedWindow sliceWindow(std::span<const double> times, std::span<const double> values, double w0, double w1,
                         std::size_t slices)
{
    WindowSlicer slicer(w0, w1, slices);
    const std::size_t n = std::min(times.size(), values.size());
    for (std::size_t i = 0; i < n; ++i)
        slicer.add(times[i], values[i]);
    return slicer.window();
}

} // namespace Throughline
