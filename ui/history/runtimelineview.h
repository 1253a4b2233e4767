#pragma once
// Run detail, "Over time": the run-monitor plots redrawn from the stored data of one scenario (selector):
// output tokens/s, TTFT/TPOT percentiles and in-flight requests from the stored request rows
// (RunTimeline), plus the scenario's stored server telemetry (KV-cache usage, running/waiting queue,
// server tokens/s, GPU utilisation and power) on the same client time axis; a dashed marker at each load
// point's first send. Reads through the injected HistoryService (channel Timeline, latest wins) or, without
// one, at once (HistoryLoads::timeline). GUI thread.

#include "core/storage/storagetypes.h"
#include "core/util/result.h"
#include "ui/history/historyloads.h"
#include "ui/history/runtimeline.h"

#include <QPointer>
#include <QWidget>

#include <array>
#include <optional>
#include <string>

class QComboBox;
class QLabel;

namespace Throughline {

class ChartView;
class HistoryService;

class RunTimelineView : public QWidget
{
    Q_OBJECT
public:
    enum Panel { Throughput, Ttft, Tpot, InFlight, KvCache, GpuUtil, GpuPower, PromptTps, PanelCount };

    explicit RunTimelineView(QWidget *parent = nullptr);

    void setDatabasePath(const QString &path) { m_dbPath = path; }
    void setHistoryService(HistoryService *service);
    // Lists the run's scenarios in the selector and shows the first one.
    void setRun(const RunDetail &detail);
    // The same with the first scenario's data already read (HistoryLoads::runView): no read here.
    void setRun(const RunDetail &detail, const std::optional<HistoryLoads::TimelineData> &first,
                const std::string &firstError);
    void clear();
    // Recomputes every panel for one scenario of the run set with setRun. Through the service the read
    // happens on its worker and the panels follow when it arrives (an error then goes to statusMessage).
    Status showScenario(int scenarioIndex);

    QComboBox *scenarioCombo() const { return m_scenario; }
    ChartView *chart(Panel panel) const { return m_charts[std::size_t(panel)]; }
    const RunTimeline::Series &timeline() const { return m_timeline; }
    int telemetrySeriesCount() const { return m_telemetrySeries; }

signals:
    void statusMessage(const QString &message);

private:
    // Fills the selector with the run's scenarios (signals blocked).
    void listScenarios(const RunDetail &detail);
    void apply(const HistoryLoads::TimelineData &data);

    QString m_dbPath;
    QPointer<HistoryService> m_service;
    RunDetail m_run;
    QComboBox *m_scenario;
    QLabel *m_info;
    std::array<ChartView *, PanelCount> m_charts{};
    RunTimeline::Series m_timeline;
    int m_telemetrySeries = 0;
};

} // namespace Throughline
