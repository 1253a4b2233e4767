#include "core/metrics/metricdefinitions.h"

#include <QFile>
#include <QLoggingCategory>
#include <QString>

#include <nlohmann/json.hpp>

Q_LOGGING_CATEGORY(lcMetricDefinitions, "throughline.metrics")

namespace Throughline {

Result<MetricDefinitions> MetricDefinitions::parse(const std::string &text, const std::string &source)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorCode::InvalidInput, source + ": not a JSON object");
    const auto it = j.find("metrics");
    if (it == j.end() || !it->is_array())
        return makeError(ErrorCode::InvalidInput, source + ": \"metrics\" must be an array");
    MetricDefinitions defs;
    for (std::size_t i = 0; i < it->size(); ++i) {
        const auto &m = (*it)[i];
        const std::string where = source + ": metrics[" + std::to_string(i) + "]";
        if (!m.is_object())
            return makeError(ErrorCode::InvalidInput, where + ": not an object");
        const auto str = [&](const char *key) {
            const auto f = m.find(key);
            return f != m.end() && f->is_string() ? f->get<std::string>() : std::string();
        };
        MetricDefinition d{str("key"), str("kind"), str("unit"), str("label"), str("tooltip")};
        if (d.key.empty())
            return makeError(ErrorCode::InvalidInput, where + ": \"key\" missing or not a string");
        if (d.definition.empty())
            return makeError(ErrorCode::InvalidInput, where + " (" + d.key + "): \"tooltip\" missing");
        if (defs.find(d.key))
            return makeError(ErrorCode::InvalidInput, where + ": duplicate key \"" + d.key + "\"");
        defs.m_metrics.push_back(std::move(d));
    }
    return defs;
}

Result<MetricDefinitions> MetricDefinitions::load(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, path + ": " + f.errorString().toStdString());
    return parse(f.readAll().toStdString(), path);
}

const MetricDefinitions &MetricDefinitions::builtin()
{
    static const MetricDefinitions defs = [] {
        auto r = load(":/catalog/metric_definitions.json");
        if (!r) {
            qCWarning(lcMetricDefinitions) << QString::fromStdString(r.error().message);
            return MetricDefinitions();
        }
        return std::move(r).value();
    }();
    return defs;
}

const MetricDefinition *MetricDefinitions::find(const std::string &key) const
{
    for (const MetricDefinition &d : m_metrics)
        if (d.key == key)
            return &d;
    return nullptr;
}

std::string MetricDefinitions::describe(const std::string &key, const std::string &stat) const
{
    const MetricDefinition *d = find(key);
    if (!d)
        return {};
    std::string s = d->label.empty() ? d->key : d->label;
    if (!stat.empty())
        s += " " + stat;
    if (!d->unit.empty())
        s += " (" + d->unit + ")";
    return s + ": " + d->definition;
}

} // namespace Throughline
