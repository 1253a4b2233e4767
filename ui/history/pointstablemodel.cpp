#include "ui/history/pointstablemodel.h"

#include <QCoreApplication>

#include <cmath>

namespace Throughline {

namespace {
// Translates the strings marked with QT_TRANSLATE_NOOP in this file.
QString hdr(const char *text)
{
    return QCoreApplication::translate("Throughline::PointsTableModel", text);
}
QVariant num(double v, int decimals)
{
    return std::isfinite(v) ? QVariant(QString::number(v, 'f', decimals))
                            : QVariant(hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "n/a")));
}
QVariant sortNum(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant(-1.0);
}
QString loadText(const nlohmann::json &config)
{
    const auto load =
        config.is_object() ? config.value("load", nlohmann::json::object()) : nlohmann::json::object();
    if (load.contains("concurrency"))
        return u"C="_qs + QString::fromStdString(load["concurrency"].dump());
    if (load.contains("rate"))
        return QString::fromStdString(load["rate"].dump()) + u" req/s"_qs;
    return u"-"_qs;
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
               [](const PointRow &p) { return QVariant(loadText(p.config)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "Status")),
               [](const PointRow &p) { return QVariant(QString::fromStdString(p.status)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "Out tok/s/GPU")),
               [](const PointRow &p) { return num(p.outputTpsPerGpu, 1); },
               [](const PointRow &p) { return sortNum(p.outputTpsPerGpu); },
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "TTFT p90 ms")),
               [](const PointRow &p) { return num(p.ttftMsP90, 1); },
               [](const PointRow &p) { return sortNum(p.ttftMsP90); },
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::PointsTableModel", "TPOT p90 ms")),
               [](const PointRow &p) { return num(p.tpotMsP90, 2); },
               [](const PointRow &p) { return sortNum(p.tpotMsP90); },
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
