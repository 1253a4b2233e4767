#include "ui/history/pointstablemodel.h"

#include <cmath>

namespace Throughline {

namespace {
QVariant num(double v, int decimals)
{
    return std::isfinite(v) ? QVariant(QString::number(v, 'f', decimals)) : QVariant(u"n/a"_qs);
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
    addColumn({u"Scenario"_qs,
               [](const PointRow &p) { return QVariant(QString::fromStdString(p.scenarioKey)); },
               {},
               {}});
    addColumn({u"#"_qs, [](const PointRow &p) { return QVariant(p.pointIndex); }, {}, {}});
    addColumn({u"Load"_qs, [](const PointRow &p) { return QVariant(loadText(p.config)); }, {}, {}});
    addColumn(
        {u"Status"_qs, [](const PointRow &p) { return QVariant(QString::fromStdString(p.status)); }, {}, {}});
    addColumn({u"Out tok/s/GPU"_qs,
               [](const PointRow &p) { return num(p.outputTpsPerGpu, 1); },
               [](const PointRow &p) { return sortNum(p.outputTpsPerGpu); },
               {}});
    addColumn({u"TTFT p90 ms"_qs,
               [](const PointRow &p) { return num(p.ttftMsP90, 1); },
               [](const PointRow &p) { return sortNum(p.ttftMsP90); },
               {}});
    addColumn({u"TPOT p90 ms"_qs,
               [](const PointRow &p) { return num(p.tpotMsP90, 2); },
               [](const PointRow &p) { return sortNum(p.tpotMsP90); },
               {}});
    addColumn(
        {u"Validity"_qs,
         [](const PointRow &p) {
             if (p.valid < 0)
                 return QVariant(u"-"_qs);
             QStringList f;
             for (const auto &s : p.flags)
                 f << QString::fromStdString(s);
             return QVariant(p.valid ? u"valid"_qs : u"invalid: "_qs + f.join(u", "_qs));
         },
         {},
         [](const PointRow &p) { return p.valid == 0 ? QVariant(QColor(252, 232, 200)) : QVariant(); }});
}

} // namespace Throughline
