#include "ui/history/mlperfcurveview.h"

#include "ui/history/chartview.h"
#include "ui/report/mlperfcharts.h"
#include "ui/report/reportwriter.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace Throughline {

MlperfCurveView::MlperfCurveView(QWidget *parent)
    : QWidget(parent)
    , m_scenario(new QComboBox)
    , m_summary(new QLabel)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Scenario:")));
    top->addWidget(m_scenario);
    top->addWidget(m_summary, 1);
    m_summary->setWordWrap(true);
    layout->addLayout(top);
    auto *grid = new QGridLayout;
    for (int i = 0; i < 4; ++i) {
        m_views[i] = new ChartView;
        grid->addWidget(m_views[i], i / 2, i % 2);
    }
    layout->addLayout(grid, 1);
    connect(m_scenario, &QComboBox::currentIndexChanged, this, [this](int i) { showScenario(i); });
}

bool MlperfCurveView::setRun(const ReportData &run)
{
    m_run = run;
    const QSignalBlocker block(m_scenario);
    m_scenario->clear();
    for (const MlperfCharts::Curve &c : MlperfCharts::curvesOf(m_run))
        m_scenario->addItem(QString::fromStdString(c.scenario->id));
    if (m_scenario->count() == 0)
        return false;
    showScenario(0);
    return true;
}

int MlperfCurveView::scenarioCount() const
{
    return m_scenario->count();
}

void MlperfCurveView::showScenario(int index)
{
    const std::vector<MlperfCharts::Curve> curves = MlperfCharts::curvesOf(m_run);
    if (index < 0 || index >= int(curves.size()))
        return;
    const MlperfCharts::Curve &c = curves[std::size_t(index)];
    m_views[0]->setChart(MlperfCharts::frontier(c));
    m_views[1]->setChart(MlperfCharts::againstConcurrency(c, MlperfCharts::Axis::TtftP90));
    m_views[2]->setChart(MlperfCharts::againstConcurrency(c, MlperfCharts::Axis::TpsPerUser));
    m_views[3]->setChart(MlperfCharts::againstConcurrency(c, MlperfCharts::Axis::SystemTps));
    const Mlperf::Frontier f = MlperfCharts::frontierOf(*c.scenario);
    if (f.empty()) {
        m_summary->setText(
            tr("Rules preset %1. No valid point: no frontier.").arg(QString::fromStdString(c.preset)));
        return;
    }
    QStringList levels;
    for (const auto &[level, tps] : MlperfCharts::throughputAtLevels(f))
        levels << tr("%1 tok/s at %2 tok/s per user")
                      .arg(ReportWriter::number(tps, 0), ReportWriter::number(level, 0));
    m_summary->setText(
        tr("Rules preset %1. Area under the frontier %2 (tok/s × tok/s per user, 0–%3 tok/s per "
           "user); %4.")
            .arg(QString::fromStdString(c.preset), ReportWriter::number(f.area(), 0),
                 ReportWriter::number(f.maxTpsPerUser(), 1), levels.join(u", "_qs)));
}

QString MlperfCurveView::summaryText() const
{
    return m_summary->text();
}

} // namespace Throughline
