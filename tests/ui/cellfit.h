#pragma once
// Whether a table cell's text is drawn whole at its column's width, not elided "…" (pages that fit their
// columns to their cells).

#include <QFontMetrics>
#include <QStyle>
#include <QTableView>

namespace Throughline::TestFixture {

// Empty when the cell's text fits; else what did not fit, for the failure message.
inline QString cellCutOff(const QTableView *view, int row, int column)
{
    const QString text = view->model()->index(row, column).data().toString();
    // The item delegate draws text inside a margin on either side (QCommonStyle: PM_FocusFrameHMargin + 1).
    const int margins = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
    if (QFontMetrics(view->font()).horizontalAdvance(text) + margins <= view->columnWidth(column))
        return {};
    return QStringLiteral("row %1 column %2: %3 in %4 px")
        .arg(row)
        .arg(column)
        .arg(text)
        .arg(view->columnWidth(column));
}

} // namespace Throughline::TestFixture
