#pragma once
// Confidence intervals for rates over a load point's window (output tokens/s and its variants, request
// rate, goodput) by a circular block bootstrap over time slices (Politis & Romano 1992):
// the window [W0, W1) is cut into m equal slices; slice i holds a numerator a_i (tokens, or requests that
// met the SLOs) and a denominator d_i (its seconds). The statistic is the ratio Σa / Σd. A resample
// draws ⌈m / L⌉ blocks of L consecutive slices (wrapping around the end, so every slice is equally
// likely), keeps the first m slices and recomputes the ratio; the interval is the α/2 and 1 − α/2
// percentile of B resamples.
//
// Why blocks: in a closed loop the slices are not independent — C requests released together come back
// together, so busy and idle slices alternate in waves. Blocks long enough to hold that dependence keep
// it in every resample. L is chosen from the data by Politis & White's rule on the linearised series
// a_i − r̂·d_i (autocorrelation.h), or given by the caller. Seeded: the same input and seed give the
// same interval on every machine (mt19937_64 and a multiply-shift index, no <random> distributions).

#include "core/stats/interval.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace Throughline {

struct BlockBootstrapOptions {
    double level = kDefaultConfidenceLevel;
    int resamples = 2000;
    std::uint64_t seed = 0x7468726f75676800ULL; // fixed: intervals are reproducible
    std::size_t blockLength = 0;                // 0 = Politis–White automatic choice
};

struct BootstrapResult {
    Interval interval; // estimate = Σa / Σd over all slices
    std::size_t blockLength = 0;
    std::size_t slices = 0;
    double standardError = 0; // standard deviation of the resampled ratios
};

// numerators and denominators have one entry per slice (same size). Fewer than 2 slices or Σd ≤ 0 →
// NaN estimate and an unbounded interval.
BootstrapResult blockBootstrapRatio(std::span<const double> numerators, std::span<const double> denominators,
                                    const BlockBootstrapOptions &options = {});

// Slices a window: `slices` equal parts of [w0, w1]; values[i] is added to the slice holding times[i]
// (an event at w1 counts in the last slice, times outside the window are ignored). Seconds per slice = (w1 −
// w0) / slices.
struct SlicedWindow {
    std::vector<double> sums;
    std::vector<double> seconds;
};
SlicedWindow sliceWindow(std::span<const double> times, std::span<const double> values, double w0, double w1,
                         std::size_t slices);

// sliceWindow one value at a time: the same sums, bit for bit, when the values are added in the same order,
// without the caller holding every (time, value) pair. A point's output tokens are one pair per content
// event — millions on a long point — and only the slice sums are needed (issue 23: memory flat).
class WindowSlicer
{
public:
    WindowSlicer(double w0, double w1, std::size_t slices);
    void add(double time, double value);
    const SlicedWindow &window() const { return m_window; }

private:
    SlicedWindow m_window;
    double m_w0 = 0;
    double m_w1 = 0;
    double m_width = 0;
};

} // namespace Throughline
