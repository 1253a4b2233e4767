#pragma once
// Baseline-vs-candidate deltas of the compare tab: each candidate scenario matched to the baseline's (same
// id, else same phase), both read at their operating points under the compare tab's DeriveVariant (values
// from RunComparison::values: re-derived when the variant says so, else stored), with better/worse marking
// by the metric's direction. Pure computation; any thread.

#include "ui/history/runcomparison.h"

#include <QString>

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
        double deltaPct = 0;      // (candidate − baseline) / |baseline| × 100; NaN when undefined
        int better = 0;           // +1 candidate better, −1 worse, 0 within 1 % or unknown
        bool higherBetter = true; // the metric's direction
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
