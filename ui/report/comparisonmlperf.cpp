// The comparison report's "MLPerf Endpoints frontiers against the baseline" (issue 23, InferenceX-app#364):
// for each candidate and each scenario both runs measured in MLPerf mode, the area under the official
// frontier over the interactivity range both curves cover and the throughput at round interactivity levels
// inside it — baseline, candidate and the candidate's share of the baseline (MlperfCharts::comparisonRows,
// which History's Compare tab shows too).
#include "ui/report/comparisoncomposer.h"

#include "ui/report/mlperfcharts.h"

namespace Throughline {

void ComparisonComposer::mlperfFrontiers()
{
    using Cell = ReportDoc::Cell;
    QList<ReportDoc::Row> rows;
    for (std::size_t c = 1; c < m_runs.size(); ++c) {
        const QString candidate = QString::fromStdString(m_runs[c].run.runId.substr(0, 8));
        for (const MlperfCharts::ComparisonRow &r : MlperfCharts::comparisonRows(m_runs[c], m_runs.front()))
            rows.append({Cell{r.scenario, {}}, Cell{candidate, {}}, Cell{r.figure, {}}, Cell{r.baseline, {}},
                         Cell{r.candidate, {}}, Cell{r.share, {}, r.headline}});
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
