#pragma once
// Run detail, "Over time": the run-monitor plots redrawn from the stored data of one scenario (selector):
// output tokens/s, TTFT/TPOT percentiles and in-flight requests from the stored request rows
// (RunTimeline), plus the scenario's stored server telemetry (KV-cache usage, running/waiting queue,
// server tokens/s, GPU utilisation and power) on the same client time axis; a dashed marker at each load
// point's first send. Reads the database per call (HistoryReader + TelemetryReader). GUI thread.

#include "core/storage/storagetypes.h"
#include "core/util/result.h"
#include "ui/history/runtimeline.h"

#include <QWidget>

#include <array>

class QComboBox;
class QLabel;

namespace Throughline {

class ChartView;

class RunTimelineView : public QWidget
{
    Q_OBJECT
public:
    enum Panel { Throughput, Ttft, Tpot, InFlight, KvCache, GpuUtil, GpuPower, PromptTps, PanelCount };

    explicit RunTimelineView(QWidget *parent = nullptr);

    void setDatabasePath(const QString &path) { m_dbPath = path; }
    // Lists the run's scenarios in the selector and shows the first one.
    void setRun(const RunDetail &detail);
    void clear();
    // Recomputes every panel for one scenario of the run set with setRun.
    Status showScenario(int scenarioIndex);

    QComboBox *scenarioCombo() const { return m_scenario; }
    ChartView *chart(Panel panel) const { return m_charts[std::size_t(panel)]; }
    const RunTimeline::Series &timeline() const { return m_timeline; }
    int telemetrySeriesCount() const { return m_telemetrySeries; }

signals:
    void statusMessage(const QString &message);

private:
    QString m_dbPath;
    RunDetail m_run;
    QComboBox *m_scenario;
    QLabel *m_info;
    std::array<ChartView *, PanelCount> m_charts{};
    RunTimeline::Series m_timeline;
    int m_telemetrySeries = 0;
};

} // namespace Throughline
