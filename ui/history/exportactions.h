#pragma once
// Export of what the history views show: a plot as PNG/SVG/PDF, a table as CSV (file or clipboard), with
// the file dialogs and error boxes. Shared by the run detail (HistoryPage) and the compare tab
// (HistoryCompareWidget). GUI thread.

#include <QString>

class QAbstractItemModel;
class QWidget;

namespace Throughline {

class ChartView;

class ExportActions
{
public:
    // CSV of a model as shown (header row + display texts; RFC 4180 quoting).
    static QString toCsv(const QAbstractItemModel *model);
    // Asks for a file name and writes the chart (format by suffix); errors in a message box.
    static void exportChart(QWidget *parent, ChartView *chart);
    // CSV to the clipboard, or to a file chosen in a dialog.
    static void exportTable(QWidget *parent, const QAbstractItemModel *model, bool clipboard);
};

} // namespace Throughline
