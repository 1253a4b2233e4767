#include "core/telemetry/metrictype.h"

namespace Throughline {

bool metricTypeFromString(std::string_view word, MetricType &out)
{
    if (word == "counter")
        out = MetricType::Counter;
    else if (word == "gauge")
        out = MetricType::Gauge;
    else if (word == "histogram" || word == "gaugehistogram")
        out = MetricType::Histogram;
    else if (word == "summary")
        out = MetricType::Summary;
    else if (word == "untyped" || word == "unknown")
        out = MetricType::Untyped;
    else if (word == "info" || word == "stateset")
        out = MetricType::Info;
    else
        return false;
    return true;
}

const char *metricTypeName(MetricType type)
{
    switch (type) {
    case MetricType::Untyped:
        return "untyped";
    case MetricType::Counter:
        return "counter";
    case MetricType::Gauge:
        return "gauge";
    case MetricType::Histogram:
        return "histogram";
    case MetricType::Summary:
        return "summary";
    case MetricType::Info:
        return "info";
    case MetricType::Delta:
        return "delta";
    }
    return "untyped";
}

} // namespace Throughline
