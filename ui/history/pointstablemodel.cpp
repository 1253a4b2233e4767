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
// Merged shard runs (throughline-cli merge): how many shards ran the point, their start skew, the shards
// that started late for the point's slot and those a partial merge lacks (results.json "merge"). Empty for
// unsharded points.
QVariant shardsCell(const nlohmann::json &aggregates)
{
    if (!aggregates.is_object() || !aggregates.contains("merge") || !aggregates["merge"].is_object())
        return QString();
    const nlohmann::json &m = aggregates["merge"];
    const int shards = m.value("shards", 0);
    QString text =
        QCoreApplication::translate("Throughline::PointsTableModel", "%n shard(s), skew %1 ms", "", shards)
            .arg(m.value("skew_ms", 0.0), 0, 'f', 1);
    const auto tags = [&m](const char *key) {
        QStringList out;
        for (const auto &tag : m.value(key, nlohmann::json::array()))
            if (tag.is_string())
                out << QString::fromStdString(tag.get<std::string>());
        return out.join(u", "_qs);
    };
    if (const QString late = tags("late_shards"); !late.isEmpty())
        text += u"; "_qs + hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "late: %1")).arg(late);
    if (const QString missing = tags("missing_shards"); !missing.isEmpty())
        text +=
            u"; "_qs + hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "missing: %1")).arg(missing);
    return text;
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
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "Shards")),
               [](const PointRow &p) { return shardsCell(p.aggregates); },
               {},
               {}});
}

} // namespace Throughline
