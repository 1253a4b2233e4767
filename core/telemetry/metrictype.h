#pragma once
// Kinds of metric family in a Prometheus exposition (plus one internal kind for per-scrape increments).

#include <cstdint>
#include <string_view>

namespace Throughline {

enum class MetricType : std::uint8_t {
    Untyped, // no # TYPE line, or "untyped"/"unknown": treated as a gauge
    Counter, // cumulative, may reset to 0 when the server restarts
    Gauge,
    Histogram, // <name>_bucket{le=…}, <name>_sum, <name>_count (cumulative)
    Summary,   // <name>{quantile=…}, <name>_sum, <name>_count
    Info,      // OpenMetrics info/stateset: kept as gauges
    Delta // internal: increment since the previous scrape of the same source (TRT-LLM JSON iteration sums)
};

// Parses the type word of a "# TYPE" line; returns false for an unknown word.
bool metricTypeFromString(std::string_view word, MetricType &out);
const char *metricTypeName(MetricType type);

} // namespace Throughline
