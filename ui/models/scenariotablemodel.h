#pragma once
// The expanded scenario list (read-only): one row per model × backend × deployment × phase cell
// that survives include/exclude rules, with its effective load plan and SLO. GUI thread only.

#include "core/campaign/scenario.h"

#include <QAbstractTableModel>

#include <vector>

namespace Throughline {

class ScenarioTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Id, Model, Backend, Gpu, Gpus, Phase, Isl, Osl, Plan, SloCol, Endpoint, ColumnCount };

    explicit ScenarioTableModel(QObject *parent = nullptr);

    void setScenarios(std::vector<Scenario> scenarios);
    const std::vector<Scenario> &scenarios() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString planSummary(const LoadPlan &plan);
    static QString sloSummary(const Slo &slo);

private:
    std::vector<Scenario> m_rows;
};

} // namespace Throughline
