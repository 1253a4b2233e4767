#pragma once
// History browser: runs table (filters, sorting, user-chosen columns) with import of vLLM/AIPerf/GenAI-Perf
// files, delete, PDF report and CSV export; below it the run-detail tab (HistoryDetailWidget) and the compare
// tab (HistoryCompareWidget).
// Reads the history database through the injected HistoryService (every read on its worker thread, the
// latest request of a kind wins, a closed page is not touched) or, without one, at once (HistoryLoads).
// GUI thread.

#include "core/storage/historyreader.h"
#include "core/util/result.h"

#include <QPointer>
#include <QWidget>

class QAbstractItemModel;
class QCheckBox;
class QComboBox;
class QLineEdit;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace Throughline {

class ChartView;
class DeriveControls;
class DerivedPointsTableModel;
class HistoryCompareWidget;
class HistoryDetailWidget;
class HistoryService;
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
    // With a history service from the start: even the first list is read on its worker.
    HistoryPage(const QString &dbPath, HistoryService *service, QWidget *parent = nullptr);

    QString databasePath() const { return m_dbPath; }
    // Re-reads the list. The run shown stays selected while it exists (unless selectNewest, e.g. after a
    // run was recorded); otherwise the newest run is selected and shown, so the detail is never empty
    // while there are runs.
    Status reload(bool selectNewest = false);
    // The same through the injected history service: the list is read on its worker thread and applied
    // when it arrives (the latest request wins); reloaded() follows. Without a service: reload(). The run
    // detail, compare tab, re-derivation, "Over time" and the PDF report read through it too.
    void setHistoryService(HistoryService *service);
    void reloadInBackground(bool selectNewest = false);
    // Selects (and shows) a run of the list; false when the filter hides it or it is not stored. Through
    // the service the detail follows when its read arrives (runShown).
    bool selectRun(const QString &uuid);
    QString currentRun() const; // uuid of the run in the detail tab ("" for none)
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
    // Run detail tab (forwarders to HistoryDetailWidget for tests and the main window).
    HistoryDetailWidget *detailWidget() const { return m_detail; }
    PointsTableModel *pointsModel() const;
    // Run detail: scenario, verdict (stopped runs: "stopped" / "not run"), operating point, checks.
    QTableWidget *scenariosTable() const;
    ChartView *curveChart() const;
    ChartView *distributionChart() const;
    // Compare tab (curves, bars, deltas, environment diff).
    HistoryCompareWidget *compareWidget() const { return m_compare; }
    ChartView *compareChart() const;
    // Run detail: the run-monitor plots redrawn from the stored rows and telemetry.
    RunTimelineView *timelineView() const;
    // Re-derivation (detail and compare): the points table shows derivedModel() for any variant other than
    // the stored p90 default; the curve, the compare overlay and the phase bars follow the variant.
    DeriveControls *detailDeriveControls() const;
    DeriveControls *compareDeriveControls() const;
    DerivedPointsTableModel *derivedModel() const;
    QTableView *pointsView() const;
    ChartView *phaseBarsChart() const;
    QComboBox *barMetricCombo() const;
    QCheckBox *stepModeBox() const;
    QTableWidget *comparisonTable() const;
    QTableWidget *environmentTable() const;
    // Tags and notes of the run in the detail tab (saved through HistoryMaintenance).
    RunNotesEditor *notesEditor() const;
    QLineEdit *tagFilterEdit() const { return m_tag; }

    // CSV of a model as shown (header row + display texts; RFC 4180 quoting).
    static QString toCsv(const QAbstractItemModel *model);

signals:
    void statusMessage(const QString &message);
    // A background reload was applied to the list.
    void reloaded();
    // The detail tab now shows this run (full uuid).
    void runShown(const QString &uuid);

private:
    QWidget *buildFilterBar();
    void applyFilterFromUi();
    void writeReport();
    // Reloads the list after a change of the database (import, delete), in the background when possible.
    Status reloadAfterChange();
    void columnMenu(const QPoint &pos);
    void fitRunColumns();
    // Re-reads one run's row (after its tags/notes were saved) without resetting the list or the selection.
    void refreshRun(const QString &uuid);
    void applyRuns(std::vector<RunSummary> runs, const QString &keep);

    QString m_dbPath;
    QPointer<HistoryService> m_service;
    RunsTableModel *m_runs;
    RunFilterProxy *m_proxy;
    QTableView *m_view;
    QLineEdit *m_text, *m_model, *m_backend, *m_gpu, *m_phase, *m_tag, *m_from, *m_to;
    QComboBox *m_verdict;
    QTabWidget *m_tabs;
    HistoryDetailWidget *m_detail;
    HistoryCompareWidget *m_compare;
};

} // namespace Throughline
