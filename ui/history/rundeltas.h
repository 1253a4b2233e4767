#pragma once
// Baseline-vs-candidate deltas of the compare tab: each candidate scenario matched to the baseline's (same
// id, else same phase), both read at their operating points under the compare tab's DeriveVariant (values
// from RunComparison::values: re-derived when the variant says so, else stored). Rows whose two values are
// stored with intervals (results /3) are judged beyond noise — regressed / improved / within noise, Holm over
// a candidate's rows with the 1 % per-run noise floor (core/results/runcomparison.h, as `throughline-cli
// compare`); rows without (re-derived values, imports, runs before intervals) are marked better / worse by
// the ±1 % rule. Pure computation; any thread.

#include "core/stats/noisecomparison.h"
#include "ui/history/runcomparison.h"

#include <QString>

#include <optional>

#include <vector>

namespace Throughline {

class RunDeltas
{
public:
    struct Row {
        QString candidateRun; // short id of the candidate
        QString scenario;     // candidate scenario id (matched to the baseline's)
        QString baselineScenario;
        QString metric; // "output_tps_per_gpu", "output_tps", "request_rate", "ttft_ms p90", …
        double baseline = 0;
        double candidate = 0;
        double deltaPct = 0; // (candidate − baseline) / |baseline| × 100; NaN when undefined
        int better = 0;      // +1 candidate better (improved), −1 worse (regressed), 0 neither or unknown
        // Set when both values carry intervals: the noise-aware outcome and the change's interval (c/b − 1).
        std::optional<ComparisonOutcome> outcome;
        Interval effect;
        bool higherBetter = true;                               // the metric's direction
        bool baselineDerived = false, candidateDerived = false; // re-derived (else stored) values
    };

    // Metric keys in table order for a variant: the per-GPU column named after its divisor
    // (output_tps_per_gpu / output_tps_per_decode_gpu; none for "total"), output_tps, request_rate, then the
    // three latencies at the variant's percentile.
    static std::vector<std::pair<QString, bool>>
    metrics(const DeriveVariant &variant); // (name, higher better)

    static std::vector<Row> compute(const ReportData &baseline,
                                    const RunComparison::RunValues &baselineValues,
                                    const ReportData &candidate,
                                    const RunComparison::RunValues &candidateValues,
                                    const DeriveVariant &variant);
};

} // namespace Throughline
