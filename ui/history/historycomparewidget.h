#pragma once
// The compare tab of the history browser: 2–8 stored runs (ours or imported), baseline first. Overlaid
// curves (optionally MLPerf step functions), per-phase bars, the baseline-vs-candidate deltas table and the
// environment diff. Curves, bars and deltas follow the tab's DeriveVariant (stored or re-derived values under
// a percentile, throughput window and per-GPU divisor). Reads the history database through core/storage
// (a HistoryReader per call). GUI thread.

#include "core/util/result.h"
#include "ui/history/runcomparison.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;

namespace Throughline {

class ChartView;
class DeriveControls;

class HistoryCompareWidget : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryCompareWidget(QWidget *parent = nullptr);

    void setDatabasePath(const QString &path) { m_dbPath = path; }
    // Baseline = first; 2–8 runs. Reads them and fills every view; the views keep the previous comparison
    // on error.
    Status compareRuns(const QStringList &uuids);
    const std::vector<ReportData> &comparedRuns() const { return m_compared; }

    DeriveControls *deriveControls() const { return m_derive; }
    ChartView *curveChart() const { return m_chart; }
    ChartView *barsChart() const { return m_bars; }
    QComboBox *barMetricCombo() const { return m_barMetric; }
    QCheckBox *stepModeBox() const { return m_stepMode; }
    // Columns: candidate, scenario, metric, baseline, candidate value, Δ %, mark (better/worse/same/n/a).
    QTableWidget *deltasTable() const { return m_deltas; }
    QTableWidget *environmentTable() const { return m_env; }
    // "Deltas under: …" plus a note when values could not be re-derived (imported runs, pruned events).
    QLabel *deltasNote() const { return m_deltasNote; }

signals:
    void statusMessage(const QString &message);

private:
    // Re-reads the compared runs' values under the current variant: curves, bars and deltas.
    Status refresh();
    void fillDeltas(const std::vector<RunComparison::RunValues> &values, const DeriveVariant &variant);
    void fillEnvironment();

    QString m_dbPath;
    DeriveControls *m_derive;
    QCheckBox *m_stepMode;
    QComboBox *m_barMetric;
    ChartView *m_chart, *m_bars;
    QTableWidget *m_deltas, *m_env;
    QLabel *m_deltasNote;
    std::vector<ReportData> m_compared; // baseline first
};

} // namespace Throughline
