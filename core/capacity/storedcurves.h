#pragma once
// The planner's input from the history database: one DeploymentCurve per stored scenario (its GPU type and
// count, prefill/decode split, ISL/OSL) with the scenario's points, read through storage's HistoryReader.
// Runs on the built-in simulator are labelled so every answer says where its numbers came from.

#include "core/capacity/planner.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace Throughline {
class HistoryReader;
}

namespace Throughline::Capacity {

// Runs by id or unique id prefix (≥ 8 hex digits). Unknown runs and scenarios without a GPU type are errors
// naming the run and scenario.
Result<std::vector<DeploymentCurve>> curvesFromHistory(HistoryReader &reader,
                                                       const std::vector<std::string> &runs);

// One stored point object (results.json "points[]" shape) as an operating point; missing figures stay out of
// `latency` (a tier on them then reports "not reported").
OperatingPoint operatingPointFromJson(const nlohmann::json &point);

} // namespace Throughline::Capacity
