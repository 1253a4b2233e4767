#pragma once
// Result of parsing one scrape body (Prometheus text or TRT-LLM JSON): samples plus the problems found.
// Malformed lines never abort a parse; they are skipped and listed with their line numbers.

#include "core/telemetry/promsample.h"

#include <map>
#include <string>
#include <vector>

namespace Throughline {

struct ParseIssue {
    int line = 0;        // 1-based line number (0 when not line-based, e.g. JSON)
    std::string reason;  // what is wrong, e.g. "missing value"
    std::string excerpt; // the offending line, cut to 120 characters
};

struct ParsedExposition {
    std::vector<PromSample> samples;
    std::map<std::string, MetricType> types; // from # TYPE lines, by family name
    std::map<std::string, std::string> help; // from # HELP lines (unescaped), by family name
    std::vector<ParseIssue> issues;          // malformed lines, skipped
    int lineCount = 0;                       // lines seen (including comments and blank lines)

    int malformedCount() const { return static_cast<int>(issues.size()); }
};

} // namespace Throughline
