#pragma once
// A run read from another tool's export, before it is written to history (ResultImporter).

#include "core/storage/storagetypes.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace Throughline {

struct ImportedPoint {
    int scenarioIndex = 0;
    int pointIndex = 0;
    nlohmann::json config = nlohmann::json::object();     // {"load": {...}, "source_line": N, ...}
    nlohmann::json aggregates = nlohmann::json::object(); // results.json point object (metric vocabulary)
    std::vector<RequestRecord> requests;
    std::int64_t windowStartNs = kNoTime, windowEndNs = kNoTime;
};

struct ImportedRun {
    RunStart run;
    std::vector<ImportedPoint> points;
    std::string format; // vllm | sglang | inferencex | aiperf | genai-perf
};

} // namespace Throughline
