#pragma once
// The report's chart descriptions (chart model, ui/plots/chart.h) built from a run's results: the
// frontier (output tokens/s per GPU vs tokens/s per user) with every deployment of a phase overlaid,
// latency and throughput against the offered load, and server telemetry against the load. Every
// point is drawn: invalid ones hollow, with their flags as the reason; a value with a stored interval gets
// an error bar (curverule.h). Plain functions, any thread.

#include "core/results/resultsjson.h"
#include "ui/plots/chart.h"

#include <QCoreApplication>

#include <vector>

namespace Throughline {

class ReportCharts
{
    Q_DECLARE_TR_FUNCTIONS(Throughline::ReportCharts)
public:
    // The scenarios of a run that belong to `phase`, in run order.
    static std::vector<const ScenarioResult *> ofPhase(const RunResults &run, const std::string &phase);
    // A short series name: model/backend/GPU×n (the phase is the chart's).
    static QString deploymentName(const ScenarioResult &s);

    static Chart frontier(const QString &phase, const std::vector<const ScenarioResult *> &scenarios);
    // metric: "ttft_ms" or "tpot_ms" (p90), "e2e_ms"; against concurrency (log2) or request rate.
    static Chart latencyVsLoad(const QString &phase, const std::vector<const ScenarioResult *> &scenarios,
                               const std::string &metric);
    static Chart throughputVsLoad(const QString &phase, const std::vector<const ScenarioResult *> &scenarios);
    // Peak KV-cache usage (%) and mean waiting requests per point; empty series when nothing was scraped.
    static Chart telemetryVsLoad(const QString &phase, const std::vector<const ScenarioResult *> &scenarios,
                                 const std::string &key, const QString &yLabel, double scale);
    static bool hasPoints(const Chart &chart);
    // The confidence level of the run's intervals (a campaign setting); 0 when no point has intervals (runs
    // before results /3, most imports).
    static double intervalLevel(const RunResults &run);
    // What the charts' error bars are ("Bars: 95 % confidence intervals …"); empty without intervals.
    static QString errorBarNote(const RunResults &run);
};

} // namespace Throughline
