#pragma once
// Dependence in a time-ordered series, for the two places where samples are not independent:
// - the requests of a closed loop (C slots released together come back together, so neighbouring
//   requests share a batch state) — the percentile bounds use an effective sample size n / τ;
// - the time slices of a load point's window — the block bootstrap's block length.
// Both rest on one rule for "how far does the dependence reach": Politis' (2003) flat-top lag-window
// bandwidth, as used by Politis & White (2004) and Patton, Politis & White (2009). Pure functions, any
// thread.

#include <cstddef>
#include <span>

namespace Throughline {

// Sample autocorrelation ρ̂(k) = γ̂(k) / γ̂(0), γ̂(k) = (1/n) Σ (x_i − x̄)(x_{i+k} − x̄). 0 for a constant
// series or k ≥ n.
double autocorrelation(std::span<const double> x, std::size_t lag);

// Flat-top bandwidth m̂ (Politis 2003): the smallest m ≥ 0 such that |ρ̂(m + k)| < 2·√(log10(n) / n) for
// k = 1 … K_n, K_n = max(5, ⌈√log10(n)⌉); capped at ⌈√n⌉ + K_n (and 500 lags, which bounds the cost on
// millions of samples). The lag where the autocorrelation has dropped into noise, so to speak.
std::size_t flatTopBandwidth(std::span<const double> x);

// Integrated autocorrelation time τ = 1 + 2 Σ_{k=1}^{M} λ(k/M) ρ̂(k) with the trapezoidal flat-top window
// λ(t) = 1 for |t| ≤ ½, 2(1 − |t|) for ½ < |t| ≤ 1, and M = 2·m̂. Clamped to [1, n]: negative
// correlation never narrows an interval. n / τ is the effective number of independent samples.
double integratedAutocorrelationTime(std::span<const double> x);

// Politis & White's (2004, corrected by Patton, Politis & White 2009) optimal block length of the
// circular block bootstrap: b = (2 Ĝ² / D̂)^{1/3} · n^{1/3}, Ĝ = Σ_{|k|≤M} λ(k/M) |k| R̂(k),
// D̂ = (4/3) ĝ², ĝ = Σ_{|k|≤M} λ(k/M) R̂(k), R̂ the autocovariance. Rounded up, in [1, min(3√n, n/3)];
// 1 for an uncorrelated or constant series.
std::size_t politisWhiteBlockLength(std::span<const double> x);

} // namespace Throughline
