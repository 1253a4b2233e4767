#pragma once
// Comparison of 2–8 runs: operating points, values under a DeriveVariant, overlaid curves, per-phase bars
// and an environment diff (the deltas table is RunDeltas). Pure computation over ReportData values plus
// reads through the caller's reader; any thread.

#include "ui/history/pointderiver.h"
#include "ui/plots/chartpainter.h"
#include "ui/report/reportdata.h"

#include <QString>

#include <vector>

namespace Throughline {

class RunComparison
{
public:
    struct EnvDiff {
        QString key;
        QStringList values; // one per run, "-" when missing
    };

    static constexpr int kMaxRuns = 8;

    // Operating point of a scenario: the verdict's, else the highest-throughput valid point, else
    // the highest-throughput point; -1 when there are no points.
    static int operatingPoint(const ScenarioResult &s);
    static std::vector<EnvDiff> environmentDiff(const std::vector<ReportData> &runs);
    // One series per run × scenario; MLPerf curve axes. Imported runs are labelled with their
    // throughput variant ("whole"), ours with "steady".
    static Chart overlay(const std::vector<ReportData> &runs);
    static QString shortId(const ReportData &run);

    // Values of every point of a run under a variant, aligned with run.run.scenarios[s].points.
    using RunValues = std::vector<std::vector<DerivedValues>>;
    // Re-derived from the store when variant.rederive (points without request rows keep stored values);
    // otherwise the stored aggregates under the variant's percentile.
    static Result<RunValues> values(HistoryReader &reader, const ReportData &run,
                                    const DeriveVariant &variant);
    static RunValues storedValues(const ReportData &run, const DeriveVariant &variant);

    // Overlaid curves from values: x = output tokens/s per GPU, y = 1000 / TPOT at the variant's
    // percentile; each series labelled with its run, scenario and throughput variant.
    static Chart overlay(const std::vector<ReportData> &runs, const std::vector<RunValues> &values,
                         const DeriveVariant &variant);
    // MLPerf Endpoints step function (true) or straight segments (false) for every line series.
    static void setStepMode(Chart &chart, bool step);

    enum class BarMetric { OutputTpsPerGpu, TtftP99, TpotP99 };
    // One bar group per phase (first-seen order), one bar series per run: the metric at the operating point
    // of the run's highest-throughput scenario in that phase. values: per run, with p99 latencies for the
    // latency metrics. A run without that phase (or an undefined value) has no bar in the group.
    static Chart phaseBars(const std::vector<ReportData> &runs, const std::vector<RunValues> &values,
                           BarMetric metric, const DeriveVariant &variant);
};

} // namespace Throughline
