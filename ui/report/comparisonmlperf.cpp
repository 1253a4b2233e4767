// The comparison report's "MLPerf Endpoints frontiers against the baseline" (issue 23, InferenceX-app#364):
// for each candidate and each scenario both runs measured in MLPerf mode, the area under the official
// frontier over the interactivity range both curves cover and the throughput at round interactivity levels
// inside it — baseline, candidate and the candidate's share of the baseline. The frontiers themselves are
// core's step functions (core/mlperf/frontier.h), as in the run report's MLPerf section.
#include "ui/report/comparisoncomposer.h"

#include "ui/report/mlperfcharts.h"
#include "ui/report/reportwriter.h"

namespace Throughline {

namespace {

using Cell = ReportDoc::Cell;
using Row = ReportDoc::Row;

QString number(const std::optional<double> &v, int decimals)
{
    return v ? ReportWriter::number(*v, decimals) : u"—"_qs;
}

QString share(const std::optional<double> &ratio)
{
    return ratio ? ReportWriter::number(*ratio * 100.0, 1) + u" %"_qs : u"—"_qs;
}

} // namespace

void ComparisonComposer::mlperfFrontiers()
{
    QList<Row> rows;
    for (std::size_t c = 1; c < m_runs.size(); ++c) {
        const QString candidate = QString::fromStdString(m_runs[c].run.runId.substr(0, 8));
        for (const MlperfCharts::AgainstBaseline &a :
             MlperfCharts::againstBaseline(m_runs[c], m_runs.front())) {
            const QString scenario = QString::fromStdString(a.scenario->id);
            const Mlperf::FrontierComparison &f = a.comparison;
            rows.append({Cell{scenario, {}}, Cell{candidate, {}},
                         Cell{tr("Area over 0–%1 tok/s per user").arg(ReportWriter::number(f.xTo, 1)), {}},
                         Cell{ReportWriter::number(f.baselineArea, 0), {}},
                         Cell{ReportWriter::number(f.runArea, 0), {}}, Cell{share(f.areaRatio), {}, true}});
            for (const Mlperf::LevelComparison &l : f.levels)
                rows.append(
                    {Cell{scenario, {}}, Cell{candidate, {}},
                     Cell{tr("Throughput at %1 tok/s per user").arg(ReportWriter::number(l.tpsPerUser, 0)),
                          {}},
                     Cell{number(l.baseline, 1), {}}, Cell{number(l.run, 1), {}}, Cell{share(l.ratio), {}}});
        }
    }
    if (rows.isEmpty())
        return;
    m_doc.subsection(tr("MLPerf Endpoints frontiers against the baseline"), 80);
    m_doc.paragraph(
        tr("The official frontier of each run (system tokens/s against tokens/s per user = 1000 / p90 "
           "of TPOT without TTFT, a step function of the valid points): its area over the "
           "interactivity both curves cover, and its throughput at round interactivity levels "
           "inside that range. Share = candidate ÷ baseline."),
        ReportDoc::Type::Small, ReportDoc::muted());
    m_doc.table(
        {tr("Scenario"), tr("Candidate"), tr("Figure"), tr("Baseline"), tr("Candidate value"), tr("Share")},
        rows, ReportDoc::Type::Small);
}

} // namespace Throughline
