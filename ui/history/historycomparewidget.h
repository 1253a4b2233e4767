#pragma once
// The compare tab of the history browser: 2–8 stored runs (ours or imported), baseline first. Overlaid
// curves (optionally MLPerf step functions), per-phase bars, the baseline-vs-candidate deltas table, for runs
// measured in MLPerf mode the official frontiers against the baseline's, and the environment diff. Curves,
// bars and deltas follow the tab's DeriveVariant (stored or re-derived values under a percentile, throughput
// window and per-GPU divisor). Reads through the injected HistoryService (HistoryLoads::comparison on its
// worker, channel Compare: the latest request wins) or, without one, at once. "Comparison PDF…" writes the
// compared runs as the comparison report of `throughline-cli report
// --compare` (stored values, in the app's language; no read). GUI thread.

#include "core/util/result.h"
#include "ui/history/historyloads.h"
#include "ui/history/runcomparison.h"
#include "ui/history/rundeltas.h"

#include <QPointer>
#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;

namespace Throughline {

class ChartView;
class DeriveControls;
class HistoryService;

class HistoryCompareWidget : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryCompareWidget(QWidget *parent = nullptr);

    void setDatabasePath(const QString &path) { m_dbPath = path; }
    void setHistoryService(HistoryService *service);
    // Baseline = first; 2–8 runs. Reads them and fills every view; the views keep the previous comparison
    // on error. Through the service only the count is checked here: the views fill when the read arrives
    // (compared() follows), a read error goes to statusMessage.
    Status compareRuns(const QStringList &uuids);
    const std::vector<ReportData> &comparedRuns() const { return m_compared; }
    // The comparison report of the compared runs (baseline first) as a PDF: the same document as
    // `report --compare` (ReportWriter::writeComparison). Fails when fewer than 2 runs are compared.
    Status writeComparisonPdf(const QString &path) const;

    DeriveControls *deriveControls() const { return m_derive; }
    ChartView *curveChart() const { return m_chart; }
    ChartView *barsChart() const { return m_bars; }
    QComboBox *barMetricCombo() const { return m_barMetric; }
    QCheckBox *stepModeBox() const { return m_stepMode; }
    // Columns: candidate, scenario, metric, baseline, candidate value, Δ %, mark (better/worse/same/n/a).
    QTableWidget *deltasTable() const { return m_deltas; }
    QTableWidget *environmentTable() const { return m_env; }
    // Runs measured with `run --mlperf`: each candidate's official frontier against the baseline's (area over
    // the common interactivity range, throughput at round levels; MlperfCharts::comparisonRows). Columns:
    // candidate, scenario, figure, baseline, candidate value, share. Hidden when no pair of runs has one.
    QTableWidget *mlperfTable() const { return m_mlperf; }
    // "Deltas under: …" plus a note when values could not be re-derived (imported runs, pruned events).
    QLabel *deltasNote() const { return m_deltasNote; }

signals:
    void statusMessage(const QString &message);
    // The views now show this comparison.
    void compared();

private:
    // Reads `uuids` with their values under the current variant and bar metric, then fills curves, bars,
    // deltas and the environment.
    Status load(const QStringList &uuids);
    // Re-reads the compared runs (or those asked for last) under the current variant.
    Status refresh();
    void apply(HistoryLoads::ComparisonData data);
    void fillDeltas(const std::vector<RunComparison::RunValues> &values, const DeriveVariant &variant);
    static QString judgementText(const RunDeltas::Row &r);
    void fillEnvironment();
    void fillMlperf();
    // Asks for a file name and writes the comparison PDF; errors in a message box.
    void exportComparisonPdf();

    QString m_dbPath;
    QPointer<HistoryService> m_service;
    QStringList m_requested; // asked for and not yet delivered (service only)
    DeriveControls *m_derive;
    QCheckBox *m_stepMode;
    QComboBox *m_barMetric;
    ChartView *m_chart, *m_bars;
    QTableWidget *m_deltas, *m_env, *m_mlperf;
    QLabel *m_deltasNote;
    std::vector<ReportData> m_compared; // baseline first
    QStringList m_comparedUuids;
};

} // namespace Throughline
