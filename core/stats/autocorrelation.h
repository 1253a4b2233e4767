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
#include <vector>

namespace Throughline {

// Sample autocorrelation ρ̂(k) = γ̂(k) / γ̂(0), γ̂(k) = (1/n) Σ (x_i − x̄)(x_{i+k} − x̄). 0 for a constant
// series or k ≥ n.
double autocorrelation(std::span<const double> x, std::size_t lag);

// ρ̂(0) … ρ̂(min(maxLag, n − 1)) in one go, each bit-for-bit what autocorrelation() gives (the estimators
// below compute theirs the same way, several lags per pass over the series).
std::vector<double> autocorrelations(std::span<const double> x, std::size_t maxLag);

// Flat-top bandwidth m̂ (Politis 2003): the smallest m ≥ 0 such that |ρ̂(m + k)| < 2·√(log10(n) / n) for
// k = 1 … K_n, K_n = max(5, ⌈√log10(n)⌉); capped at ⌈√n⌉ + K_n (and 500 lags, which bounds the cost on
// millions of samples). The lag where the autocorrelation has dropped into noise, so to speak.
std::size_t flatTopBandwidth(std::span<const double> x);

// Integrated autocorrelation time τ = 1 + 2 Σ_{k=1}^{M} λ(k/M) ρ̂(k) with the trapezoidal flat-top window
// λ(t) = 1 for |t| ≤ ½, 2(1 − |t|) for ½ < |t| ≤ 1, and M = 2·m̂. Clamped to [1, n]: negative
// correlation never narrows an interval. n / τ is the effective number of independent samples.
double integratedAutocorrelationTime(std::span<const double> x);

// τ with what is needed to judge how well it is known. τ is a lag-window estimate of the spectral density
// at frequency 0 (over γ̂(0)), and such an estimate is about χ²-distributed with ν equivalent degrees of
// freedom, ν = 2 / (relative variance). At frequency 0 the relative variance is (2/n)·Σ_{|k|≤M} λ(k/M)²
// (Priestley 1981, §6.2.4; Andrews 1991, Prop. 1), so ν = n / (1 + 2 Σ_{k=1}^{M} λ(k/M)²) ≈ n / (M ∫λ²),
// ∫_{−1}^{1} λ² = 4/3 for the flat-top window: ν ≈ 3n / (4M). With M = 0 (no dependence seen) τ = 1 and
// ν = n. A statistic standardised by such a τ is then Student-t with ν degrees of freedom, not normal.
//
// minimumLag: M = max(2·m̂, minimumLag), for a caller that knows how far the dependence reaches at least
// (the requests in flight together, core/metrics/pointintervals.h). On a short series the bandwidth rule
// stops where |ρ̂| falls below its noise threshold 2·√(log10(n) / n) — 0.26 at n = 128 — and drops a
// tail of smaller but real correlations that can add as much again to τ; a longer window keeps it, at the
// price of a noisier τ, which the smaller ν accounts for.
struct AutocorrelationTime {
    double tau = 1;                // as integratedAutocorrelationTime
    std::size_t truncationLag = 0; // M (0: no dependence seen, no floor)
    double degreesOfFreedom = 0;   // ν; 0 for an empty series
};
AutocorrelationTime autocorrelationTime(std::span<const double> x, std::size_t minimumLag = 0);

// ν of a flat-top lag-window estimate with truncation lag M over n samples (the formula above).
double lagWindowDegreesOfFreedom(std::size_t n, std::size_t truncationLag);

// Politis & White's (2004, corrected by Patton, Politis & White 2009) optimal block length of the
// circular block bootstrap: b = (2 Ĝ² / D̂)^{1/3} · n^{1/3}, Ĝ = Σ_{|k|≤M} λ(k/M) |k| R̂(k),
// D̂ = (4/3) ĝ², ĝ = Σ_{|k|≤M} λ(k/M) R̂(k), R̂ the autocovariance. Rounded up, in [1, min(3√n, n/3)];
// 1 for an uncorrelated or constant series.
std::size_t politisWhiteBlockLength(std::span<const double> x);

} // namespace Throughline
