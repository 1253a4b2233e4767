#pragma once
// The metric vocabulary with one-sentence meanings (resources/catalog/metric_definitions.json, the same text
// as docs/metrics.md): key, unit, label and definition. The UI builds its metric tooltips from it. Immutable
// after load; builtin() is loaded once and safe to read from any thread.

#include "core/util/result.h"

#include <string>
#include <vector>

namespace Throughline {

struct MetricDefinition {
    std::string key;        // results.json name, e.g. "ttft_ms"
    std::string kind;       // "scalar" | "distribution"
    std::string unit;       // e.g. "ms", "tokens/s/GPU"
    std::string label;      // short human name, e.g. "TTFT"
    std::string definition; // one sentence (the file's "tooltip")
};

class MetricDefinitions
{
public:
    // The built-in file (:/catalog/metric_definitions.json); empty when it cannot be read (logged).
    static const MetricDefinitions &builtin();
    // Parses a metric_definitions.json document; `source` names it in error messages.
    static Result<MetricDefinitions> parse(const std::string &text, const std::string &source);
    static Result<MetricDefinitions> load(const std::string &path); // file path or ":/…" resource

    const std::vector<MetricDefinition> &all() const { return m_metrics; }
    const MetricDefinition *find(const std::string &key) const; // nullptr when unknown
    // "Label (unit): definition", e.g. for a tooltip; "" when unknown. `stat` (e.g. "p90") is named
    // after the label when given.
    std::string describe(const std::string &key, const std::string &stat = {}) const;

private:
    std::vector<MetricDefinition> m_metrics;
};

} // namespace Throughline
