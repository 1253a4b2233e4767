#include "ui/models/deploymenttablemodel.h"

#include "ui/models/roles.h"

namespace Throughline {

DeploymentTableModel::DeploymentTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void DeploymentTableModel::setDeployments(const std::vector<Deployment> &deployments)
{
    if (deployments.size() != m_rows.size()) {
        beginResetModel();
        m_rows = deployments;
        endResetModel();
        return;
    }
    for (size_t i = 0; i < deployments.size(); ++i) {
        if (deployments[i] == m_rows[i])
            continue;
        m_rows[i] = deployments[i];
        emit dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
    }
}

int DeploymentTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DeploymentTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString DeploymentTableModel::label(const Deployment &d)
{
    QString s = QString::fromStdString(d.gpu);
    if (d.disaggregated())
        s += u' ' + tr("%1P+%2D").arg(d.prefillGpus).arg(d.decodeGpus);
    else
        s += u'×' + QString::number(d.gpus);
    if (!d.parallelism.empty())
        s += u' ' + QString::fromStdString(d.parallelism);
    s += u' ' + QString::fromStdString(d.precision);
    if (d.replicas > 1)
        s += u' ' + tr("×%1 replicas").arg(d.replicas);
    return s;
}

QVariant DeploymentTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Deployment &d = m_rows[size_t(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole || role == Roles::Sort) {
        switch (index.column()) {
        case Gpu:
            return QString::fromStdString(d.gpu);
        case Gpus:
            return d.gpus;
        case Parallelism:
            return QString::fromStdString(d.parallelism);
        case Precision:
            return QString::fromStdString(d.precision);
        case Replicas:
            return d.replicas;
        case PrefillGpus:
            return d.prefillGpus;
        case DecodeGpus:
            return d.decodeGpus;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return label(d);
    if (role == Roles::Id)
        return label(d);
    return {};
}

QVariant DeploymentTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Gpu:
        return tr("GPU");
    case Gpus:
        return tr("GPUs");
    case Parallelism:
        return tr("Parallelism");
    case Precision:
        return tr("Precision");
    case Replicas:
        return tr("Replicas");
    case PrefillGpus:
        return tr("Prefill GPUs");
    case DecodeGpus:
        return tr("Decode GPUs");
    default:
        return {};
    }
}

bool DeploymentTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    Deployment d = m_rows[size_t(index.row())];
    switch (index.column()) {
    case Gpu:
        d.gpu = value.toString().trimmed().toStdString();
        break;
    case Gpus:
        d.gpus = qMax(1, value.toInt());
        break;
    case Parallelism:
        d.parallelism = value.toString().trimmed().toStdString();
        break;
    case Precision:
        d.precision = value.toString().trimmed().toStdString();
        break;
    case Replicas:
        d.replicas = qMax(1, value.toInt());
        break;
    case PrefillGpus:
        d.prefillGpus = qMax(0, value.toInt());
        break;
    case DecodeGpus:
        d.decodeGpus = qMax(0, value.toInt());
        break;
    default:
        return false;
    }
    if (d.disaggregated())
        d.gpus = d.prefillGpus + d.decodeGpus; // the pools define the replica size
    if (d == m_rows[size_t(index.row())])
        return false;
    emit deploymentEdited(index.row(), d);
    return true;
}

Qt::ItemFlags DeploymentTableModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable | Qt::ItemNeverHasChildren;
}

} // namespace Throughline
