#pragma once
// One sample line of a Prometheus text exposition, after parsing.

#include "core/telemetry/metrictype.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace Throughline {

using LabelSet = std::vector<std::pair<std::string, std::string>>; // in exposition order, values unescaped

struct PromSample {
    std::string name;   // sample name as written, e.g. vllm:time_to_first_token_seconds_bucket
    std::string family; // metric family after suffix resolution, e.g. vllm:time_to_first_token_seconds
    MetricType type = MetricType::Untyped; // the family's # TYPE (Untyped if none)
    LabelSet labels;
    double value = 0.0;                      // NaN and ±Inf allowed
    std::optional<std::int64_t> timestampMs; // optional exposition timestamp (ms since epoch); informational
    int line = 0;                            // 1-based line number in the exposition

    // Value of label `key`, or nullptr.
    const std::string *label(const std::string &key) const;
};

} // namespace Throughline
