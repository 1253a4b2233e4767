#pragma once
// History's "MLPerf Endpoints" tab: for a run measured with `run --mlperf`, the report's official charts
// (ui/report/mlperfcharts.h) of one scenario at a time — the frontier, TTFT p90, tokens/s per user and system
// tokens/s against concurrency — and the frontier's area and throughput at round interactivity levels. The
// detail widget shows the tab only for such runs. GUI thread only.

#include "ui/report/reportdata.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace Throughline {

class ChartView;

class MlperfCurveView : public QWidget
{
    Q_OBJECT
public:
    explicit MlperfCurveView(QWidget *parent = nullptr);

    // False (and nothing shown) when the run was not measured in MLPerf mode.
    bool setRun(const ReportData &run);
    int scenarioCount() const;
    void showScenario(int index);
    ChartView *frontierView() const { return m_views[0]; }
    QString summaryText() const;

private:
    ReportData m_run; // the curves point into its scenarios
    QComboBox *m_scenario;
    ChartView *m_views[4];
    QLabel *m_summary;
};

} // namespace Throughline
