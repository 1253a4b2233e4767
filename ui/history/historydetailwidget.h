#pragma once
// The run-detail tab of the history browser: campaign and provenance line, tags and notes, scenarios
// (verdict, operating point, checks; stopped runs say "stopped" / "not run"), the points table with validity
// (stored, or re-derived under a DeriveVariant), the curve, TTFT/TPOT/E2E histogram + CDF of a point, the
// run-monitor plots redrawn from the stored rows and telemetry, and plot/table exports. Reads through the
// injected HistoryService (HistoryLoads on its worker; channels RunDetail, Variant, Distribution, Timeline:
// the latest request wins, views of a run asked for earlier are dropped) or, without one, at once. GUI
// thread.

#include "core/storage/storagetypes.h"
#include "ui/history/historyloads.h"

#include <QPointer>
#include <QWidget>

#include <cstdint>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTabWidget;
class QTreeWidget;

namespace Throughline {

class BreakdownView;
class ChartView;
class DeriveControls;
class DerivedPointsTableModel;
class MlperfCurveView;
class HistoryService;
class PointsTableModel;
class RunNotesEditor;
class RunTimelineView;

class HistoryDetailWidget : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryDetailWidget(QWidget *parent = nullptr);

    void setDatabasePath(const QString &path);
    void setHistoryService(HistoryService *service);
    // Fills the tab; false when the run cannot be read. Unsaved tag/note edits of the run shown before are
    // saved first (a failure is reported through statusMessage). Through the service: true once asked for;
    // the tab fills (runShown) when the read arrives, a failure goes to statusMessage.
    bool showRun(const QString &uuid);
    const RunDetail &run() const { return m_detail; }
    // The run shown, or the one asked for last while its read is under way.
    QString requestedRun() const;

    PointsTableModel *pointsModel() const { return m_points; }
    DerivedPointsTableModel *derivedModel() const { return m_derived; }
    QTableView *pointsView() const { return m_pointsView; }
    QTableWidget *scenariosTable() const { return m_scenarios; }
    ChartView *curveChart() const { return m_curve; }
    ChartView *distributionChart() const { return m_hist; }
    RunTimelineView *timelineView() const { return m_timeline; }
    // The "MLPerf Endpoints" tab's view; in the tabs only while a run measured in MLPerf mode is shown.
    MlperfCurveView *mlperfView() const { return m_mlperf; }
    // The "Where the time goes" tab's view; in the tabs only while a run with server timing is shown.
    BreakdownView *breakdownView() const { return m_breakdown; }
    QTabWidget *plotTabs() const { return m_plotTabs; }
    DeriveControls *deriveControls() const { return m_derive; }
    RunNotesEditor *notesEditor() const { return m_notesEditor; }
    // The stored provenance as rows (key, value), nested objects as children.
    QTreeWidget *provenanceTree() const { return m_provenance; }
    QString headerText() const;

signals:
    void statusMessage(const QString &message);
    // Tags/notes of a run were saved (the runs list re-reads its row).
    void tagsSaved(const QString &uuid);
    // The tab now shows this run (full uuid).
    void runShown(const QString &uuid);

private:
    void requestRun(const QString &uuid);
    void applyRunView(const HistoryLoads::RunView &view);
    void applyHeader(const RunDetail &detail);
    void applyScenarios(const RunDetail &detail);
    void showDistribution(std::int64_t pointId);
    void applySamples(const HistoryLoads::Samples &samples);
    // Shows or hides a tab that only some runs have.
    void showTabIf(bool shown, QWidget *view, const QString &title);
    // Re-reads the points and the curve under the tab's variant.
    void applyVariant();
    void applyVariantData(const HistoryLoads::VariantData &data);

    QString m_dbPath;
    QPointer<HistoryService> m_service;
    QString m_requested; // run asked for and not yet delivered (service only)
    QLabel *m_info;
    QTreeWidget *m_provenance;
    RunNotesEditor *m_notesEditor;
    QTableWidget *m_scenarios;
    PointsTableModel *m_points;
    DerivedPointsTableModel *m_derived;
    QSortFilterProxyModel *m_pointsProxy;
    QTableView *m_pointsView;
    DeriveControls *m_derive;
    ChartView *m_curve, *m_hist, *m_cdf;
    RunTimelineView *m_timeline;
    MlperfCurveView *m_mlperf;
    BreakdownView *m_breakdown;
    QTabWidget *m_plotTabs;
    QComboBox *m_distMetric;
    std::int64_t m_currentPoint = -1;
    RunDetail m_detail;
};

} // namespace Throughline
