#pragma once
// The deployments axis of the matrix as an editable table (GPU, GPUs, parallelism, precision,
// replicas, prefill / decode pools). Like CheckableListModel it only reports edits
// (deploymentEdited) and is refreshed from the document. GUI thread only.

#include "core/campaign/deployment.h"

#include <QAbstractTableModel>

#include <vector>

namespace Throughline {

class DeploymentTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Gpu, Gpus, Parallelism, Precision, Replicas, PrefillGpus, DecodeGpus, ColumnCount };

    explicit DeploymentTableModel(QObject *parent = nullptr);

    void setDeployments(const std::vector<Deployment> &deployments);
    const std::vector<Deployment> &deployments() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    // Short label, e.g. "H200×8 TP8 FP8" or "GB200 24P+8D FP4".
    static QString label(const Deployment &d);

signals:
    void deploymentEdited(int row, const Throughline::Deployment &deployment);

private:
    std::vector<Deployment> m_rows;
};

} // namespace Throughline
