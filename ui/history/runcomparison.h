#pragma once
// Comparison of 2–8 runs: baseline (first) vs each candidate at the scenarios' operating points,
// overlaid curves and an environment diff. Pure computation over ReportData values; any thread.

#include "ui/plots/reportchartrenderer.h"
#include "ui/report/reportdata.h"

#include <QString>

#include <vector>

namespace Throughline {

class RunComparison
{
public:
    struct Row {
        QString candidateRun; // short id of the candidate
        QString scenario;     // candidate scenario id (matched to the baseline's)
        QString baselineScenario;
        QString metric; // "output_tps_per_gpu", "ttft_ms p90", …
        double baseline = 0;
        double candidate = 0;
        double deltaPct = 0; // (candidate − baseline) / baseline × 100; NaN when undefined
        int better = 0;      // +1 candidate better, −1 worse, 0 equal within 1 % or unknown
    };
    struct EnvDiff {
        QString key;
        QStringList values; // one per run, "-" when missing
    };

    static constexpr int kMaxRuns = 8;

    // Operating point of a scenario: the verdict's, else the highest-throughput valid point, else
    // the highest-throughput point; -1 when there are no points.
    static int operatingPoint(const ScenarioResult &s);
    static std::vector<Row> compare(const ReportData &baseline, const ReportData &candidate);
    static std::vector<EnvDiff> environmentDiff(const std::vector<ReportData> &runs);
    // One series per run × scenario; MLPerf curve axes. Imported runs are labelled with their
    // throughput variant ("whole"), ours with "steady".
    static ReportChartRenderer::Chart overlay(const std::vector<ReportData> &runs);
    static QString shortId(const ReportData &run);
};

} // namespace Throughline
