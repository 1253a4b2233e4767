#include "ui/models/loadlabel.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace Throughline {

QString loadLabel(const PointLoad &load)
{
    const QString base = load.mode == PointLoad::Mode::Rate
                             ? QCoreApplication::translate("LoadLabel", "%1 req/s").arg(load.rate, 0, 'g', 4)
                             : QStringLiteral("C=%1").arg(load.concurrency);
    if (load.repeat < 1)
        return base;
    return QCoreApplication::translate("LoadLabel", "%1 · repeat %2").arg(base).arg(load.repeat);
}

QString loadLabel(const nlohmann::json &pointJson, int pointIndex)
{
    const nlohmann::json load =
        pointJson.is_object() ? pointJson.value("load", nlohmann::json::object()) : nlohmann::json::object();
    PointLoad l;
    if (load.value("mode", std::string()) == "rate" && load.contains("rate") && load["rate"].is_number()) {
        l.mode = PointLoad::Mode::Rate;
        l.rate = load["rate"].get<double>();
    } else if (load.contains("concurrency") && load["concurrency"].is_number_integer()) {
        l.concurrency = load["concurrency"].get<int>();
    } else {
        return QStringLiteral("#%1").arg(pointIndex);
    }
    if (load.contains("repeat") && load["repeat"].is_number_integer())
        l.repeat = load["repeat"].get<int>();
    return loadLabel(l);
}

} // namespace Throughline
