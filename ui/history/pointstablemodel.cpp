#include "ui/history/pointstablemodel.h"

#include "ui/history/pointcells.h"

#include <QCoreApplication>

namespace Throughline {

namespace {
// Translates the strings marked with QT_TRANSLATE_NOOP in this file.
QString hdr(const char *text)
{
    return QCoreApplication::translate("Throughline::PointsTableModel", text);
}
QVariant num(double v, int decimals)
{
    return PointCells::fixed(v, decimals, hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "n/a")));
}
} // namespace

PointsTableModel::PointsTableModel(QObject *parent)
    : ColumnTableModel<PointRow>(parent)
{
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "Scenario")),
               [](const PointRow &p) { return QVariant(QString::fromStdString(p.scenarioKey)); },
               {},
               {}});
    addColumn({u"#"_qs, [](const PointRow &p) { return QVariant(p.pointIndex); }, {}, {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "Load")),
               [](const PointRow &p) { return QVariant(PointCells::loadText(p.config)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "Status")),
               [](const PointRow &p) { return QVariant(QString::fromStdString(p.status)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "Out tok/s/GPU")),
               [](const PointRow &p) { return num(p.outputTpsPerGpu, 1); },
               [](const PointRow &p) { return PointCells::sortKey(p.outputTpsPerGpu); },
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "TTFT p90 ms")),
               [](const PointRow &p) { return num(p.ttftMsP90, 1); },
               [](const PointRow &p) { return PointCells::sortKey(p.ttftMsP90); },
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "TPOT p90 ms")),
               [](const PointRow &p) { return num(p.tpotMsP90, 2); },
               [](const PointRow &p) { return PointCells::sortKey(p.tpotMsP90); },
               {}});
    addColumn(
        {hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "Validity")),
         [](const PointRow &p) {
             if (p.valid < 0)
                 return QVariant(u"-"_qs);
             QStringList f;
             for (const auto &s : p.flags)
                 f << QString::fromStdString(s);
             return QVariant(p.valid ? hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "valid"))
                                     : hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "invalid: %1"))
                                           .arg(f.join(u", "_qs)));
         },
         {},
         [](const PointRow &p) { return p.valid == 0 ? QVariant(QColor(252, 232, 200)) : QVariant(); }});
}

} // namespace Throughline
