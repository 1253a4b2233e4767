#pragma once
// Cell helpers shared by the history's point tables (PointsTableModel, DerivedPointsTableModel): the load
// label of a stored point config, fixed-decimal text and a sort key that puts missing values first. The
// "n/a" text is the caller's, so each model keeps its own translation context.

#include <nlohmann/json.hpp>

#include <QString>
#include <QVariant>

#include <cmath>

namespace Throughline::PointCells {

// "C=64", "12.5 req/s" or "-" from a stored point config ({"load": {...}}).
inline QString loadText(const nlohmann::json &config)
{
    const auto load =
        config.is_object() ? config.value("load", nlohmann::json::object()) : nlohmann::json::object();
    if (load.contains("concurrency"))
        return u"C="_qs + QString::fromStdString(load["concurrency"].dump());
    if (load.contains("rate"))
        return QString::fromStdString(load["rate"].dump()) + u" req/s"_qs;
    return u"-"_qs;
}

inline QVariant fixed(double v, int decimals, const QString &notAvailable)
{
    return std::isfinite(v) ? QVariant(QString::number(v, 'f', decimals)) : QVariant(notAvailable);
}

inline QVariant sortKey(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant(-1.0);
}

} // namespace Throughline::PointCells
