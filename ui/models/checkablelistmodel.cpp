#include "ui/models/checkablelistmodel.h"

#include "ui/models/roles.h"

#include <QFont>

namespace Throughline {

CheckableListModel::CheckableListModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void CheckableListModel::setItems(const QList<Item> &items)
{
    bool sameIds = items.size() == m_items.size();
    for (qsizetype i = 0; sameIds && i < items.size(); ++i)
        sameIds = items[i].id == m_items[i].id;
    if (!sameIds) {
        beginResetModel();
        m_items = items;
        endResetModel();
        return;
    }
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (items[i] == m_items[i])
            continue;
        m_items[i] = items[i];
        emit dataChanged(index(int(i)), index(int(i)));
    }
}

QStringList CheckableListModel::checkedIds() const
{
    QStringList ids;
    for (const Item &item : m_items)
        if (item.checked)
            ids << item.id;
    return ids;
}

int CheckableListModel::indexOf(const QString &id) const
{
    for (qsizetype i = 0; i < m_items.size(); ++i)
        if (m_items[i].id == id)
            return int(i);
    return -1;
}

int CheckableListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

QVariant CheckableListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Item &item = m_items[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return item.custom ? tr("%1 (custom)").arg(item.label) : item.label;
    case Qt::ToolTipRole:
        return item.toolTip;
    case Qt::CheckStateRole:
        return item.checked ? Qt::Checked : Qt::Unchecked;
    case Roles::Id:
    case Roles::Sort:
        return item.id;
    case Roles::IsCustom:
        return item.custom;
    case Qt::FontRole:
        if (item.custom) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    default:
        return {};
    }
}

bool CheckableListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::CheckStateRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const bool checked = value.value<Qt::CheckState>() == Qt::Checked;
    const Item &item = m_items[index.row()];
    if (checked == item.checked)
        return false;
    emit checkToggled(item.id, checked);
    return true;
}

Qt::ItemFlags CheckableListModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemNeverHasChildren;
}

} // namespace Throughline
