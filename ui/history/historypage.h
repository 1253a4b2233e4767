#pragma once
// History browser: runs table (filters, sorting, user-chosen columns), run detail (scenarios,
// points with validity, curve, TTFT/TPOT/E2E histogram + CDF, errors), compare 2–8 runs (overlaid
// curves, baseline-vs-candidate deltas, environment diff), import of vLLM/AIPerf/GenAI-Perf files,
// delete, PDF report, plot export (PNG/SVG/PDF) and table export (CSV/clipboard).
// Reads the history database through core/storage (HistoryReader opens per call). GUI thread.

#include "core/storage/historyreader.h"
#include "core/util/result.h"
#include "ui/history/pointderiver.h"
#include "ui/history/runcomparison.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTableWidget;
class QTabWidget;
class QAbstractItemModel;
class QCheckBox;
class QSortFilterProxyModel;

namespace Throughline {

class ChartView;
class DeriveControls;
class DerivedPointsTableModel;
class PointsTableModel;
class RunTimelineView;
class RunFilterProxy;
class RunNotesEditor;
class RunsTableModel;

class HistoryPage : public QWidget
{
    Q_OBJECT
public:
    // dbPath: the history database (HistoryPath::resolve's answer); a missing file shows an empty list.
    explicit HistoryPage(const QString &dbPath, QWidget *parent = nullptr);

    QString databasePath() const { return m_dbPath; }
    Status reload();
    void setFilter(const RunFilter &filter);
    // Fills the detail tab; false when the run cannot be read. Unsaved tag/note edits of the run shown
    // before are saved first (a failure is reported through statusMessage).
    bool showRun(const QString &uuid);
    // Baseline = first; 2–8 runs. Fills the compare tab.
    Status compareRuns(const QStringList &uuids);
    Status importFile(const QString &path);
    Status deleteRuns(const QStringList &uuids);
    QStringList selectedRuns() const;

    RunsTableModel *runsModel() const { return m_runs; }
    RunFilterProxy *proxy() const { return m_proxy; }
    QTableView *runsView() const { return m_view; }
    PointsTableModel *pointsModel() const { return m_points; }
    ChartView *curveChart() const { return m_curve; }
    ChartView *distributionChart() const { return m_hist; }
    ChartView *compareChart() const { return m_compareChart; }
    // Run detail: the run-monitor plots redrawn from the stored rows and telemetry.
    RunTimelineView *timelineView() const { return m_timeline; }
    // Re-derivation (detail and compare): the points table shows derivedModel() for any variant other than
    // the stored p90 default; the curve, the compare overlay and the phase bars follow the variant.
    DeriveControls *detailDeriveControls() const { return m_detailDerive; }
    DeriveControls *compareDeriveControls() const { return m_compareDerive; }
    DerivedPointsTableModel *derivedModel() const { return m_derived; }
    QTableView *pointsView() const { return m_pointsView; }
    ChartView *phaseBarsChart() const { return m_barsChart; }
    QComboBox *barMetricCombo() const { return m_barMetric; }
    QCheckBox *stepModeBox() const { return m_stepMode; }
    QTableWidget *comparisonTable() const { return m_compareTable; }
    QTableWidget *environmentTable() const { return m_envTable; }
    // Tags and notes of the run in the detail tab (saved through HistoryMaintenance).
    RunNotesEditor *notesEditor() const { return m_notesEditor; }
    QLineEdit *tagFilterEdit() const { return m_tag; }

    // CSV of a model as shown (header row + display texts; RFC 4180 quoting).
    static QString toCsv(const QAbstractItemModel *model);

signals:
    void statusMessage(const QString &message);

private:
    QWidget *buildFilterBar();
    void applyFilterFromUi();
    void showDistribution(std::int64_t pointId);
    // Re-reads the detail points and curve under the detail variant.
    void applyDetailVariant();
    // Rebuilds the overlay and the phase bars of the compared runs under the compare variant.
    Status updateComparePlots();
    void exportChart(ChartView *chart);
    void exportTable(const QAbstractItemModel *model, bool clipboard);
    void writeReport();
    void columnMenu(const QPoint &pos);
    // Re-reads one run's row (after its tags/notes were saved) without resetting the list or the selection.
    void refreshRun(const QString &uuid);

    QString m_dbPath;
    RunsTableModel *m_runs;
    RunFilterProxy *m_proxy;
    QTableView *m_view;
    QLineEdit *m_text, *m_model, *m_backend, *m_gpu, *m_phase, *m_tag, *m_from, *m_to;
    QComboBox *m_verdict;
    QComboBox *m_distMetric;
    QTabWidget *m_tabs;
    QTableWidget *m_scenarios;
    PointsTableModel *m_points;
    QTableView *m_pointsView;
    ChartView *m_curve, *m_hist, *m_cdf;
    QLabel *m_detailInfo;
    RunNotesEditor *m_notesEditor;
    ChartView *m_compareChart;
    QTableWidget *m_compareTable, *m_envTable;
    std::int64_t m_currentPoint = -1;
    QSortFilterProxyModel *m_pointsProxy;
    DerivedPointsTableModel *m_derived;
    DeriveControls *m_detailDerive, *m_compareDerive;
    RunTimelineView *m_timeline;
    ChartView *m_barsChart;
    QComboBox *m_barMetric;
    QCheckBox *m_stepMode;
    RunDetail m_detail;                 // run shown in the detail tab
    std::vector<ReportData> m_compared; // runs in the compare tab, baseline first
};

} // namespace Throughline
