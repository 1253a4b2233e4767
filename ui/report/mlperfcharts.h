#pragma once
// The MLPerf Endpoints charts of a scenario measured in MLPerf mode (`run --mlperf`;
// docs/mlperf-endpoints.md): the step-function frontier of system tokens/s against tokens/s per user in the
// rules' coordinates (core/mlperf/frontier.h: the `mlperf` throughput variant and 1000 / p90 of TPOT without
// TTFT) with every measured point, and TTFT p90, tokens/s per user and system tokens/s against concurrency on
// a log2 axis. The plan's concurrency regions (Ultra Low, Low, Medium, High, margin) are shaded — on the
// frontier over the interactivity its points span — and values with a stored interval carry error bars. Chart
// descriptions (ui/plots/chart.h) for the report, any thread.

#include "core/mlperf/frontier.h"
#include "ui/plots/chart.h"
#include "ui/report/reportdata.h"

#include <QCoreApplication>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace Throughline {

class MlperfCharts
{
    Q_DECLARE_TR_FUNCTIONS(Throughline::MlperfCharts)
public:
    struct Curve {
        const ScenarioResult *scenario = nullptr;
        std::map<int, std::string> regionOf; // planned concurrency → region key ("ultra_low", "low", …)
        std::string preset;                  // the rules preset's id
    };
    // The scenarios `run` measured in MLPerf Endpoints mode (its provenance "mlperf"), in run order.
    static std::vector<Curve> curvesOf(const ReportData &run);

    static Mlperf::Frontier frontierOf(const ScenarioResult &scenario);
    static Chart frontier(const Curve &curve);
    enum class Axis { TtftP90, TpsPerUser, SystemTps };
    static Chart againstConcurrency(const Curve &curve, Axis y);
    // Interactivity levels to quote the frontier's throughput at: round values inside its range.
    static std::vector<double> levels(const Mlperf::Frontier &frontier);
    // The frontier's throughput at each of those levels: (tok/s per user, system tok/s).
    static std::vector<std::pair<double, double>> throughputAtLevels(const Mlperf::Frontier &frontier);
    static QString regionName(const std::string &key);

    // A candidate's frontier against the baseline run's (InferenceX-app#364): for every scenario both runs
    // measured in MLPerf mode (matched by id), core's comparison over the interactivity range both curves
    // cover, at the levels of the common range (round values, as `levels`).
    struct AgainstBaseline {
        const ScenarioResult *scenario = nullptr; // the candidate's
        Mlperf::FrontierComparison comparison;
    };
    static std::vector<AgainstBaseline> againstBaseline(const ReportData &candidate,
                                                        const ReportData &baseline);
    // The same as rows to print, for the comparison report and History's Compare tab: per scenario the area
    // over the common range, then the throughput at each level — the figure's name, the baseline's and the
    // candidate's values and the candidate's share ("110.0 %"; "—" where a side has none).
    struct ComparisonRow {
        QString scenario, figure, baseline, candidate, share;
        bool headline = false; // the area row
    };
    static QList<ComparisonRow> comparisonRows(const ReportData &candidate, const ReportData &baseline);
};

} // namespace Throughline
