#pragma once
// The run-detail tab of the history browser: campaign and provenance line, tags and notes, scenarios
// (verdict, operating point, checks; stopped runs say "stopped" / "not run"), the points table with validity
// (stored, or re-derived under a DeriveVariant), the curve, TTFT/TPOT/E2E histogram + CDF of a point, the
// run-monitor plots redrawn from the stored rows and telemetry, and plot/table exports. Reads the history
// database through core/storage (a HistoryReader per call). GUI thread.

#include "core/storage/storagetypes.h"

#include <QWidget>

#include <cstdint>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;

namespace Throughline {

class ChartView;
class DeriveControls;
class DerivedPointsTableModel;
class PointsTableModel;
class RunNotesEditor;
class RunTimelineView;

class HistoryDetailWidget : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryDetailWidget(QWidget *parent = nullptr);

    void setDatabasePath(const QString &path);
    // Fills the tab; false when the run cannot be read. Unsaved tag/note edits of the run shown before are
    // saved first (a failure is reported through statusMessage).
    bool showRun(const QString &uuid);
    const RunDetail &run() const { return m_detail; }

    PointsTableModel *pointsModel() const { return m_points; }
    DerivedPointsTableModel *derivedModel() const { return m_derived; }
    QTableView *pointsView() const { return m_pointsView; }
    QTableWidget *scenariosTable() const { return m_scenarios; }
    ChartView *curveChart() const { return m_curve; }
    ChartView *distributionChart() const { return m_hist; }
    RunTimelineView *timelineView() const { return m_timeline; }
    DeriveControls *deriveControls() const { return m_derive; }
    RunNotesEditor *notesEditor() const { return m_notesEditor; }

signals:
    void statusMessage(const QString &message);
    // Tags/notes of a run were saved (the runs list re-reads its row).
    void tagsSaved(const QString &uuid);

private:
    void showDistribution(std::int64_t pointId);
    // Re-reads the points and the curve under the tab's variant.
    void applyVariant();

    QString m_dbPath;
    QLabel *m_info;
    RunNotesEditor *m_notesEditor;
    QTableWidget *m_scenarios;
    PointsTableModel *m_points;
    DerivedPointsTableModel *m_derived;
    QSortFilterProxyModel *m_pointsProxy;
    QTableView *m_pointsView;
    DeriveControls *m_derive;
    ChartView *m_curve, *m_hist, *m_cdf;
    RunTimelineView *m_timeline;
    QComboBox *m_distMetric;
    std::int64_t m_currentPoint = -1;
    RunDetail m_detail;
};

} // namespace Throughline
