#pragma once
// Validation problems of the campaign being edited (core CampaignValidator output), one row each:
// "line:col  /pointer  message". Roles::Pointer gives the JSON pointer for jumping to the field.
// GUI thread only.

#include "core/campaign/validationproblem.h"

#include <QAbstractListModel>

namespace Throughline {

class ProblemListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    explicit ProblemListModel(QObject *parent = nullptr);

    void setProblems(ValidationProblems problems);
    const ValidationProblems &problems() const { return m_problems; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    ValidationProblems m_problems;
};

} // namespace Throughline
