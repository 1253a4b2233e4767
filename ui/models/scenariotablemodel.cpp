#include "ui/models/scenariotablemodel.h"

#include "ui/models/roles.h"

#include <QStringList>

namespace Throughline {

ScenarioTableModel::ScenarioTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ScenarioTableModel::setScenarios(std::vector<Scenario> scenarios)
{
    if (scenarios == m_rows)
        return;
    beginResetModel();
    m_rows = std::move(scenarios);
    endResetModel();
}

int ScenarioTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ScenarioTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ScenarioTableModel::planSummary(const LoadPlan &p)
{
    auto ints = [](const std::vector<int> &v) {
        QStringList s;
        for (int x : v)
            s << QString::number(x);
        return s.join(u", ");
    };
    switch (p.mode) {
    case LoadPlan::Mode::Closed:
        return tr("closed C=%1").arg(ints(p.concurrencies));
    case LoadPlan::Mode::Open: {
        QStringList s;
        for (double r : p.rates)
            s << QString::number(r);
        return tr("open %1 req/s").arg(s.join(u", "));
    }
    case LoadPlan::Mode::Curve:
        return p.spacing == LoadPlan::CurveSpacing::MlperfEndpoints
                   ? tr("curve MLPerf %1…%2").arg(p.cMin).arg(p.cMax)
                   : tr("curve log2 %1…%2").arg(p.cMin).arg(p.cMax);
    case LoadPlan::Mode::Search:
        return tr("search %1…%2").arg(p.cMin).arg(p.cMax);
    }
    return {};
}

QString ScenarioTableModel::sloSummary(const Slo &slo)
{
    if (slo.empty())
        return tr("none");
    QStringList parts;
    const QString pct = QString::number(slo.percentile);
    if (slo.ttftMs > 0)
        parts << tr("TTFT p%1 ≤ %2 ms").arg(pct).arg(slo.ttftMs);
    if (slo.tpotMs > 0)
        parts << tr("TPOT p%1 ≤ %2 ms").arg(pct).arg(slo.tpotMs);
    if (slo.e2eMs > 0)
        parts << tr("E2E p%1 ≤ %2 ms").arg(pct).arg(slo.e2eMs);
    return parts.join(u"; ");
}

QVariant ScenarioTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Scenario &s = m_rows[size_t(index.row())];
    if (role == Roles::Id)
        return QString::fromStdString(s.id);
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(s.id);
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case Gpus:
        case Isl:
        case Osl:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole && role != Roles::Sort)
        return {};
    switch (index.column()) {
    case Id:
        return QString::fromStdString(s.id);
    case Model:
        return QString::fromStdString(s.model.name);
    case Backend:
        return QString::fromStdString(s.backend.name.empty() ? s.backend.id : s.backend.name);
    case Gpu:
        return QString::fromStdString(s.deployment.gpu);
    case Gpus:
        return s.deployment.totalGpus();
    case Phase:
        return QString::fromStdString(s.phase.name);
    case Isl:
        return s.phase.isl;
    case Osl:
        return s.phase.osl;
    case Plan:
        return planSummary(s.plan);
    case SloCol:
        return sloSummary(s.slo);
    case Endpoint:
        return s.endpoint.kind == Endpoint::Kind::Simulated
                   ? tr("%1 (simulated)").arg(QString::fromStdString(s.endpoint.name))
                   : QString::fromStdString(s.endpoint.name);
    default:
        return {};
    }
}

QVariant ScenarioTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Id:
        return tr("Scenario");
    case Model:
        return tr("Model");
    case Backend:
        return tr("Backend");
    case Gpu:
        return tr("GPU");
    case Gpus:
        return tr("GPUs");
    case Phase:
        return tr("Phase");
    case Isl:
        return tr("ISL");
    case Osl:
        return tr("OSL");
    case Plan:
        return tr("Load plan");
    case SloCol:
        return tr("SLO");
    case Endpoint:
        return tr("Endpoint");
    default:
        return {};
    }
}

} // namespace Throughline
