#pragma once
// Generic read-only table model over a vector of value rows, with columns described by functions.
// Concrete models are thin: they only declare their columns. Sorting and filtering belong in a
// QSortFilterProxyModel (HistoryRoles::SortRole carries the sort key). GUI thread.

#include "ui/history/historyroles.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QVariant>

#include <functional>
#include <vector>

namespace Throughline {

template <typename Row>
class ColumnTableModel : public QAbstractTableModel
{
public:
    struct Column {
        QString header;
        std::function<QVariant(const Row &)> display;
        std::function<QVariant(const Row &)> sort;       // empty = display
        std::function<QVariant(const Row &)> background; // empty = none
    };

    explicit ColumnTableModel(QObject *parent = nullptr)
        : QAbstractTableModel(parent)
    {
    }

    void setRows(std::vector<Row> rows)
    {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }
    // Replaces one row in place (dataChanged, no reset: views keep their selection).
    void setRow(int i, Row row)
    {
        if (i < 0 || i >= int(m_rows.size()))
            return;
        m_rows[std::size_t(i)] = std::move(row);
        emit dataChanged(index(i, 0), index(i, int(m_columns.size()) - 1));
    }
    const std::vector<Row> &rows() const { return m_rows; }
    const Row &row(int i) const { return m_rows[std::size_t(i)]; }
    const std::vector<Column> &columns() const { return m_columns; }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_columns.size());
    }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
            return {};
        const Row &r = m_rows[std::size_t(index.row())];
        const Column &c = m_columns[std::size_t(index.column())];
        switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
            return c.display(r);
        case HistoryRoles::SortRole:
            return c.sort ? c.sort(r) : c.display(r);
        case HistoryRoles::RowIndexRole:
            return index.row();
        case Qt::BackgroundRole:
            return c.background ? c.background(r) : QVariant();
        default:
            return extraData(r, role);
        }
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override
    {
        if (o == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < int(m_columns.size()))
            return m_columns[std::size_t(section)].header;
        return QAbstractTableModel::headerData(section, o, role);
    }

protected:
    void addColumn(Column c) { m_columns.push_back(std::move(c)); }
    virtual QVariant extraData(const Row &, int) const { return {}; }

private:
    std::vector<Row> m_rows;
    std::vector<Column> m_columns;
};

} // namespace Throughline
