#pragma once
// Editable rows of a target table (model × backend × GPU × count × phase → metric, stat, comparator,
// value, kind, source). Read-only when showing a shipped table. JSON in the throughline.targets/1
// format; parsing goes through core's TargetTable::parse so errors name file, line and field. GUI thread.

#include "core/targets/targettable.h"

#include <QAbstractTableModel>

#include <vector>

namespace Throughline {

class TargetsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Model, Backend, Gpu, Gpus, Phase, Metric, Stat, Cmp, Value, Kind, Source, ColumnCount };

    explicit TargetsTableModel(QObject *parent = nullptr);

    void setTable(const std::string &name, std::vector<TargetRow> rows, bool readOnly);
    const std::vector<TargetRow> &targetRows() const { return m_rows; }
    const std::string &name() const { return m_name; }
    bool isReadOnly() const { return m_readOnly; }
    void setReadOnly(bool readOnly) { m_readOnly = readOnly; }

    void appendRow(const TargetRow &row = {});
    bool removeRows(int row, int count, const QModelIndex &parent = {}) override;

    std::string toJson() const; // throughline.targets/1, pretty-printed
    Status loadJson(const std::string &text, const std::string &fileName);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    std::string m_name;
    std::vector<TargetRow> m_rows;
    bool m_readOnly = false;
};

} // namespace Throughline
