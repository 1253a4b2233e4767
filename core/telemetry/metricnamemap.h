#pragma once
// Maps backend metric families to the common series of commonseries.h, per backend preset id.
//
// Old and new names are both accepted (vllm:gpu_cache_usage_perc → kv_cache_usage like
// vllm:kv_cache_usage_perc; SGLang's v0.3 names next to current ones); when a server exposes two names for
// the same series in one scrape, the lower `priority` wins. Families not in the map are kept by the store
// under their own names. Immutable after construction; thread-safe to share.

#include "core/telemetry/metrictype.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Throughline {

struct MetricMapping {
    std::string common; // common series name (commonseries.h)
    std::string unit;   // unit of the common series after scaling, e.g. "tokens/s", "ratio", "W"
    double scale = 1.0; // multiply the (rate of the) source value by this
    int priority = 0;   // lower wins when several source names feed one series in one scrape
    std::optional<MetricType> treatAs; // override the exposition's # TYPE (e.g. a "counter" that is a rate)
};

class MetricNameMap
{
public:
    // backendId as in BackendPreset::id (vllm, sglang, trtllm, llamacpp, dynamo, nim, …). The map for a
    // known backend holds that backend's names plus DCGM; an unknown or empty id gets every table.
    static MetricNameMap forBackend(std::string_view backendId);
    static MetricNameMap all();

    // Mapping for a metric family name (counters are also tried with "_total" appended), or nullptr.
    const MetricMapping *find(std::string_view family) const;
    std::vector<std::string> sourceNames() const;
    bool empty() const { return m_map.empty(); }

private:
    std::unordered_map<std::string, MetricMapping> m_map;
};

} // namespace Throughline
