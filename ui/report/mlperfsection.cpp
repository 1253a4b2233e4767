// The report's "MLPerf Endpoints curves" section, for a run measured in MLPerf mode (`run --mlperf`): per
// scenario the frontier in the rules' coordinates with the plan's regions shaded, TTFT p90, tokens/s per user
// and system tokens/s against concurrency, and the frontier's numbers — the area under it and its throughput
// at round interactivity levels. The compliance verdict itself is the run's mlperf/compliance.json and the
// CLI's point lines; this section shows the curve it was judged on.
#include "ui/report/reportcomposer.h"

#include "ui/report/mlperfcharts.h"
#include "ui/report/reportcharts.h"
#include "ui/report/reportwriter.h"

namespace Throughline {

using Cell = ReportDoc::Cell;
using Row = ReportDoc::Row;

void ReportComposer::mlperfSection()
{
    const std::vector<MlperfCharts::Curve> curves = MlperfCharts::curvesOf(m_data);
    if (curves.empty())
        return;
    m_doc.section(tr("MLPerf Endpoints curves"));
    m_doc.paragraph(
        tr("Rules preset %1. The frontier is the step function of the valid points: at an "
           "interactivity x, the best system throughput of any point at least that interactive (not "
           "interpolated). Coordinates as the rules define them: system tokens/s from requests issued in "
           "the window, tokens/s per user = 1000 / p90 of TPOT without TTFT. Shaded: the plan's "
           "concurrency regions.")
            .arg(QString::fromStdString(curves.front().preset)),
        ReportDoc::Type::Small, ReportDoc::muted());
    for (const MlperfCharts::Curve &c : curves) {
        m_doc.subsection(QString::fromStdString(c.scenario->id), 200);
        m_doc.chart(MlperfCharts::frontier(c), 210);
        m_doc.chartGrid({MlperfCharts::againstConcurrency(c, MlperfCharts::Axis::TtftP90),
                         MlperfCharts::againstConcurrency(c, MlperfCharts::Axis::TpsPerUser),
                         MlperfCharts::againstConcurrency(c, MlperfCharts::Axis::SystemTps)},
                        2, 165);
        if (const QString bars = ReportCharts::errorBarNote(m_data.run); !bars.isEmpty())
            m_doc.paragraph(bars, ReportDoc::Type::Small, ReportDoc::muted());
        const Mlperf::Frontier f = MlperfCharts::frontierOf(*c.scenario);
        if (f.empty()) {
            m_doc.paragraph(tr("No valid point: no frontier."));
            continue;
        }
        QList<Row> rows;
        rows.append(
            {Cell{tr("Area under the frontier"), {}},
             Cell{tr("%1 tok/s × tok/s per user over 0–%2 tok/s per user")
                      .arg(ReportWriter::number(f.area(), 0), ReportWriter::number(f.maxTpsPerUser(), 1)),
                  {}}});
        for (const auto &[level, tps] : MlperfCharts::throughputAtLevels(f))
            rows.append({Cell{tr("Throughput at %1 tok/s per user").arg(ReportWriter::number(level, 0)), {}},
                         Cell{tr("%1 tok/s").arg(ReportWriter::number(tps, 1)), {}}});
        m_doc.table({tr("Frontier"), tr("Value")}, rows);
    }
}

} // namespace Throughline
