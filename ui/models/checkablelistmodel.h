#pragma once
// Generic flat list of checkable entries (one axis of the scenario matrix). The model owns no
// campaign state: the owner fills it with setItems() from the document and turns
// checkToggled() into an undo command. GUI thread only.

#include <QAbstractListModel>
#include <QList>

namespace Throughline {

class CheckableListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    struct Item {
        QString id;    // value written into the campaign
        QString label; // display text
        QString toolTip;
        bool checked = false;
        bool custom = false; // not from the catalog
        bool operator==(const Item &) const = default;
    };

    explicit CheckableListModel(QObject *parent = nullptr);

    // Replaces the entries; keeps the view's selection when only check states changed.
    void setItems(const QList<Item> &items);
    const QList<Item> &items() const { return m_items; }
    QStringList checkedIds() const;
    int indexOf(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

signals:
    // The user toggled an entry (setData with Qt::CheckStateRole); the model itself is unchanged
    // until the owner calls setItems() with the document's new state.
    void checkToggled(const QString &id, bool checked);

private:
    QList<Item> m_items;
};

} // namespace Throughline
