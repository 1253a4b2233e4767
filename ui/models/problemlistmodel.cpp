#include "ui/models/problemlistmodel.h"

#include "ui/models/roles.h"

#include <QApplication>
#include <QStyle>

namespace Throughline {

ProblemListModel::ProblemListModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void ProblemListModel::setProblems(ValidationProblems problems)
{
    if (problems == m_problems)
        return;
    beginResetModel();
    m_problems = std::move(problems);
    endResetModel();
}

int ProblemListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_problems.size());
}

QVariant ProblemListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ValidationProblem &p = m_problems[size_t(index.row())];
    const QString pointer = p.pointer.empty() ? QStringLiteral("/") : QString::fromStdString(p.pointer);
    switch (role) {
    case Qt::DisplayRole:
        return tr("%1  %2").arg(pointer, QString::fromStdString(p.message));
    case Qt::ToolTipRole:
        return tr("Line %1, column %2 of the saved file: %3")
            .arg(p.line)
            .arg(p.column)
            .arg(QString::fromStdString(p.message));
    case Qt::DecorationRole:
        return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    case Roles::Pointer:
    case Roles::Id:
        return pointer;
    case Roles::Severity:
        return 0;
    default:
        return {};
    }
}

} // namespace Throughline
