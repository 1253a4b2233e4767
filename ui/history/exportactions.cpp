#include "ui/history/exportactions.h"

#include "ui/history/chartview.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QMessageBox>
#include <QStringList>

namespace Throughline {

namespace {

QString tre(const char *text)
{
    return QCoreApplication::translate("Throughline::ExportActions", text);
}

QString csvField(QString s)
{
    if (s.contains(u',') || s.contains(u'"') || s.contains(u'\n')) {
        s.replace(u"\""_qs, u"\"\""_qs);
        return u'"' + s + u'"';
    }
    return s;
}

} // namespace

QString ExportActions::toCsv(const QAbstractItemModel *model)
{
    QString out;
    QStringList fields;
    for (int c = 0; c < model->columnCount(); ++c)
        fields << csvField(model->headerData(c, Qt::Horizontal).toString());
    out += fields.join(u',') + u'\n';
    for (int r = 0; r < model->rowCount(); ++r) {
        fields.clear();
        for (int c = 0; c < model->columnCount(); ++c)
            fields << csvField(model->index(r, c).data().toString());
        out += fields.join(u',') + u'\n';
    }
    return out;
}

void ExportActions::exportChart(QWidget *parent, ChartView *chart)
{
    const QString f = QFileDialog::getSaveFileName(
        parent, tre(QT_TRANSLATE_NOOP("Throughline::ExportActions", "Export plot")), QString(),
        tre(QT_TRANSLATE_NOOP("Throughline::ExportActions", "PNG (*.png);;SVG (*.svg);;PDF (*.pdf)")));
    if (f.isEmpty())
        return;
    QString error;
    if (!chart->exportTo(f, &error))
        QMessageBox::warning(parent, tre(QT_TRANSLATE_NOOP("Throughline::ExportActions", "Export plot")),
                             error);
}

void ExportActions::exportTable(QWidget *parent, const QAbstractItemModel *model, bool clipboard)
{
    const QString csv = toCsv(model);
    if (clipboard) {
        QApplication::clipboard()->setText(csv);
        return;
    }
    const QString title = tre(QT_TRANSLATE_NOOP("Throughline::ExportActions", "Export table"));
    const QString f = QFileDialog::getSaveFileName(
        parent, title, QString(), tre(QT_TRANSLATE_NOOP("Throughline::ExportActions", "CSV (*.csv)")));
    if (f.isEmpty())
        return;
    QFile file(f);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(csv.toUtf8()) < 0)
        QMessageBox::warning(parent, title,
                             tre(QT_TRANSLATE_NOOP("Throughline::ExportActions", "Cannot write %1")).arg(f));
}

} // namespace Throughline
