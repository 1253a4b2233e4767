#pragma once
// Plan: capacity and cost at an SLO from stored runs (docs/capacity.md). The user ticks runs of the history
// database, states a demand (output tok/s, concurrent users or requests/s), an SLO tier, a headroom, the
// price kind (and provider, or a price table of their own) and the power kind; the page ranks the runs'
// deployments by $ per 1M output tokens (core/capacity's planner), names the constraint that binds and,
// for every number, the stored point it came from (double-click a row: History shows that run). A chart
// shows $ per 1M output tokens against SLO tightness per deployment. An input the planner refuses (a GPU
// the price kind does not price, a bad tier) is shown as the planner's error, naming the field. GUI thread;
// reading the runs' points is a few small queries.

#include "core/capacity/planner.h"
#include "core/capacity/sensitivity.h"
#include "core/util/result.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace Throughline {

class ChartView;

class PlanPage : public QWidget
{
    Q_OBJECT
public:
    // Table columns (tests and the row tooltips use them).
    enum Column {
        RankColumn,
        DeploymentColumn,
        TpsPerGpuColumn,
        UsersPerGpuColumn,
        ReplicasColumn,
        GpusColumn,
        UsdPointColumn,
        UsdDemandColumn,
        KwhColumn,
        TokensPerGpuHourColumn,
        PointColumn, // after the numbers: its long text would push them off a 1440-px screen
        PriceColumn,
        TierColumn,
        BindingColumn,
        ColumnCount
    };
    // Item data of every cell: the stored point behind the row's numbers.
    static constexpr int RunRole = Qt::UserRole + 1;
    static constexpr int PointIdRole = Qt::UserRole + 2;

    explicit PlanPage(const QString &dbPath, QWidget *parent = nullptr);

    // Re-reads the stored runs (newest first); ticked runs that still exist stay ticked.
    Status reloadRuns();
    void setCheckedRuns(const QStringList &uuids); // full ids; others are unticked
    QStringList checkedRuns() const;
    // Uses a price table of the user's own (the format of resources/prices/gpu_prices.csv); empty = the
    // shipped table.
    Status usePriceFile(const QString &path);
    // Plans with the current inputs and fills the table, the chart and the message line.
    void replan();

    QListWidget *runList() const { return m_runs; }
    QComboBox *demandKindCombo() const { return m_demandKind; }
    QDoubleSpinBox *demandValueBox() const { return m_demandValue; }
    QLineEdit *tierEdit() const { return m_tier; }
    QDoubleSpinBox *headroomBox() const { return m_headroom; }
    QComboBox *priceKindCombo() const { return m_priceKind; }
    QComboBox *providerCombo() const { return m_provider; }
    QComboBox *powerKindCombo() const { return m_powerKind; }
    QTableWidget *table() const { return m_table; }
    ChartView *costChart() const { return m_chart; }
    QString message() const; // the line above the table: error, "no deployment meets …" or the basis
    bool messageIsError() const { return m_error; }
    QString basisText() const; // the plan's inputs line (demand, tier, prices, power)
    const std::optional<Capacity::Plan> &lastPlan() const { return m_plan; }
    const std::vector<Capacity::DeploymentCurve> &curves() const { return m_curves; }
    const std::vector<Capacity::DeploymentCostCurve> &costCurves() const { return m_costCurves; }
    // The options the inputs state now (error naming the field when one is malformed).
    Result<Capacity::PlanOptions> options() const;

signals:
    // Double-click on a row: the stored point its numbers came from.
    void pointActivated(const QString &runUuid, qint64 pointId);
    void statusMessage(const QString &message);

private:
    QWidget *buildInputs();
    void fillProviders();
    Status readCurves();
    void showError(const QString &text);
    void fillTable();
    void fitColumns();
    void addRow(int rank, const Capacity::DeploymentPlan &d);
    void fillChart();
    void writeReport();

    QString m_dbPath;
    QListWidget *m_runs = nullptr;
    QComboBox *m_demandKind = nullptr;
    QDoubleSpinBox *m_demandValue = nullptr;
    QLineEdit *m_tier = nullptr;
    QDoubleSpinBox *m_headroom = nullptr;
    QComboBox *m_priceKind = nullptr;
    QComboBox *m_provider = nullptr;
    QPushButton *m_priceFile = nullptr;
    QComboBox *m_powerKind = nullptr;
    QDoubleSpinBox *m_utilisation = nullptr;
    QPushButton *m_reportButton = nullptr;
    QLabel *m_message = nullptr;
    QLabel *m_basis = nullptr;
    QTableWidget *m_table = nullptr;
    ChartView *m_chart = nullptr;
    bool m_error = false;
    std::optional<Capacity::PriceTable> m_prices;
    QString m_priceFilePath;
    std::optional<Capacity::PowerTable> m_power;
    std::vector<Capacity::DeploymentCurve> m_curves;
    QStringList m_curvesFor; // the runs m_curves were read for
    std::optional<Capacity::Plan> m_plan;
    std::vector<Capacity::DeploymentCostCurve> m_costCurves;
};

} // namespace Throughline
