#include "ui/targets/targetstablemodel.h"

#include <nlohmann/json.hpp>

namespace Throughline {

namespace {
QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}
} // namespace

TargetsTableModel::TargetsTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TargetsTableModel::setTable(const std::string &name, std::vector<TargetRow> rows, bool readOnly)
{
    beginResetModel();
    m_name = name;
    m_rows = std::move(rows);
    m_readOnly = readOnly;
    endResetModel();
}

void TargetsTableModel::appendRow(const TargetRow &row)
{
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
    TargetRow r = row;
    if (r.metric.empty())
        r.metric = "output_tps_per_gpu";
    m_rows.push_back(r);
    endInsertRows();
}

bool TargetsTableModel::removeRows(int row, int count, const QModelIndex &parent)
{
    if (parent.isValid() || m_readOnly || row < 0 || count < 1 || row + count > int(m_rows.size()))
        return false;
    beginRemoveRows({}, row, row + count - 1);
    m_rows.erase(m_rows.begin() + row, m_rows.begin() + row + count);
    endRemoveRows();
    return true;
}

int TargetsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TargetsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TargetsTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != Qt::ToolTipRole)
        return {};
    const TargetRow &r = m_rows[std::size_t(index.row())];
    switch (index.column()) {
    case Model:
        return qs(r.model);
    case Backend:
        return qs(r.backend);
    case Gpu:
        return qs(r.gpu);
    case Gpus:
        return r.gpus;
    case Phase:
        return qs(r.phase);
    case Metric:
        return qs(r.metric);
    case Stat:
        return qs(r.stat);
    case Cmp:
        return qs(std::string(comparatorKey(r.cmp)));
    case Value:
        return r.value;
    case Kind:
        return qs(std::string(targetKindKey(r.kind)));
    case Source:
        return qs(r.source);
    default:
        return {};
    }
}

bool TargetsTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (m_readOnly || role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    TargetRow r = m_rows[std::size_t(index.row())];
    const std::string s = value.toString().trimmed().toStdString();
    bool ok = true;
    switch (index.column()) {
    case Model:
        r.model = s.empty() ? "*" : s;
        break;
    case Backend:
        r.backend = s.empty() ? "*" : s;
        break;
    case Gpu:
        r.gpu = s.empty() ? "*" : s;
        break;
    case Gpus:
        r.gpus = value.toInt(&ok);
        ok = ok && r.gpus >= 0;
        break;
    case Phase:
        r.phase = s.empty() ? "*" : s;
        break;
    case Metric:
        r.metric = s;
        if (!isKnownTargetMetric(r.metric,
                                 r.stat)) // switching scalar <-> distribution: pick that kind's default stat
            r.stat = isKnownTargetMetric(r.metric, "value") ? "value" : "p90";
        ok = isKnownTargetMetric(r.metric, r.stat);
        break;
    case Stat:
        r.stat = s;
        ok = isKnownTargetMetric(r.metric, r.stat);
        break;
    case Cmp:
        ok = s == ">=" || s == "<=";
        r.cmp = s == "<=" ? Comparator::LessEqual : Comparator::GreaterEqual;
        break;
    case Value:
        r.value = value.toDouble(&ok);
        break;
    case Kind:
        ok = s == "baseline" || s == "slo" || s == "informational";
        r.kind = s == "slo"             ? TargetKind::Slo
                 : s == "informational" ? TargetKind::Informational
                                        : TargetKind::Baseline;
        break;
    case Source:
        r.source = s;
        break;
    default:
        ok = false;
    }
    if (!ok)
        return false; // the view keeps the old value: invalid input never enters the table
    m_rows[std::size_t(index.row())] = r;
    emit dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    return true;
}

QVariant TargetsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static const char *names[] = {QT_TR_NOOP("Model"), QT_TR_NOOP("Backend"), QT_TR_NOOP("GPU"),
                                  QT_TR_NOOP("GPUs"),  QT_TR_NOOP("Phase"),   QT_TR_NOOP("Metric"),
                                  QT_TR_NOOP("Stat"),  QT_TR_NOOP("Cmp"),     QT_TR_NOOP("Value"),
                                  QT_TR_NOOP("Kind"),  QT_TR_NOOP("Source")};
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < ColumnCount)
        return tr(names[section]);
    return QAbstractTableModel::headerData(section, orientation, role);
}

Qt::ItemFlags TargetsTableModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && !m_readOnly)
        f |= Qt::ItemIsEditable;
    return f;
}

std::string TargetsTableModel::toJson() const
{
    nlohmann::json rows = nlohmann::json::array();
    for (const TargetRow &r : m_rows) {
        nlohmann::json j{{"model", r.model},
                         {"backend", r.backend},
                         {"gpu", r.gpu},
                         {"gpus", r.gpus},
                         {"precision", r.precision},
                         {"phase", r.phase},
                         {"metric", r.metric},
                         {"stat", r.stat},
                         {"cmp", std::string(comparatorKey(r.cmp))},
                         {"value", r.value},
                         {"kind", std::string(targetKindKey(r.kind))},
                         {"source", r.source}};
        if (!r.preset.empty())
            j["preset"] = r.preset;
        rows.push_back(std::move(j));
    }
    nlohmann::json doc{{"schema", std::string(TargetTable::kSchema)}, {"name", m_name}, {"targets", rows}};
    return doc.dump(2);
}

Status TargetsTableModel::loadJson(const std::string &text, const std::string &fileName)
{
    auto table = TargetTable::parse(text, fileName);
    if (!table)
        return table.error();
    setTable(table->name(), table->rows(), false);
    return Ok{};
}

} // namespace Throughline
