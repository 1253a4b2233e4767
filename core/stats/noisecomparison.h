#pragma once
// Noise-aware comparison of a candidate run against a baseline, per metric and load point:
// `regressed`, `improved`, `within noise` or `not enough data`, with the effect size and its interval,
// and a stated multiple-comparison rule so that a campaign's false-alarm rate is controlled, not each
// metric's.
//
// Effect: the relative change e = c/b − 1, computed on the log ratio ℓ = ln(c/b). Each run's interval
// gives a standard error on the log scale, se = (ln upper − ln lower) / (2·z_{1−α/2}) (the interval's
// own level), so asymmetric percentile bounds are used as they are; the runs are independent, so
// se_ℓ = √(se_b² + se_c²). Two-sided p-value p = 2·(1 − Φ(|ℓ| / se_ℓ)). The effect's interval
// exp(ℓ ± z·se_ℓ) − 1 is reported at the campaign's confidence level (unadjusted).
//
// Multiple comparisons: Holm's step-down procedure (Holm 1979) over every metric × point compared in one
// call, at family-wise level α = 1 − confidence level (5 %): sort the m p-values ascending and declare
// the k-th smallest a change while p_(k) ≤ α / (m − k + 1), stopping at the first that is not. The chance
// that two runs of one configuration show any `regressed` or `improved` is then ≤ α, whatever the
// dependence between metrics. A declared change is `regressed` when it goes the metric's bad way
// (lower throughput, higher latency), else `improved`; the rest are `within noise`. A metric whose
// interval is missing, unbounded or not positive on either side is `not enough data` and takes no part in
// the correction. Pure functions.

#include "core/stats/interval.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

enum class ComparisonOutcome { Regressed, Improved, WithinNoise, NotEnoughData };
std::string_view
comparisonOutcomeName(ComparisonOutcome o); // "regressed", "improved", "within_noise", "not_enough_data"

enum class BetterDirection { Higher, Lower };

struct ComparisonInput {
    std::string metric; // e.g. "output_tps", "ttft_ms.p90"
    std::string point;  // e.g. "c=16"
    Interval baseline;
    Interval candidate;
    BetterDirection better = BetterDirection::Higher;
};

struct ComparisonResult {
    std::string metric;
    std::string point;
    ComparisonOutcome outcome = ComparisonOutcome::NotEnoughData;
    double effect = 0;       // c/b − 1 (relative change; +0.05 = 5 % higher)
    Interval effectInterval; // of c/b − 1, at the comparison's level (unadjusted)
    double pValue = 1;
    double holmThreshold = 0; // α / (m − k + 1) of its rank; 0 when not tested
};

struct ComparisonOptions {
    double level = kDefaultConfidenceLevel; // family-wise α = 1 − level
    // Run-to-run variation a single run's within-run interval cannot see (host load, placement, warm-up), as
    // a relative standard error per run added in quadrature on the log scale: se² = se_interval² + floor².
    // 0 = the intervals alone (independent samples of one process, as on the virtual-clock simulator).
    double noiseFloor = 0;
};

std::vector<ComparisonResult> compareRuns(std::span<const ComparisonInput> inputs,
                                          const ComparisonOptions &options = {});

// Campaign level: `regressed` if any comparison regressed; else `improved` if any improved; else
// `within noise` if any was tested; else `not enough data`.
ComparisonOutcome overallOutcome(std::span<const ComparisonResult> results);

// Holm's step-down rule on its own: which of the p-values are rejected at family-wise level alpha.
std::vector<bool> holmRejections(std::span<const double> pValues, double alpha);

} // namespace Throughline
