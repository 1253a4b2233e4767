#pragma once
// Prompt calibration of a multi-turn chat workload before its first point (RunController): the server at
// scenario.endpoint is asked how it counts conversations (ServerChatCounter) and SessionDriver::calibrateChat
// corrects every turn to its count. Null when the driver is not a multi-turn chat session driver with exact
// prompts; else the finding for provenance.json scenarios[].prompt_calibration (its note, when present, is a
// validity note of every point). docs/workloads.md "Prompt calibration".

#include "core/campaign/scenario.h"
#include "core/workload/workloaddriver.h"

#include <nlohmann/json.hpp>

#include <string>

namespace Throughline {

nlohmann::json calibrateSessionPrompts(const Scenario &scenario, WorkloadDriver &driver,
                                       const std::string &apiKey);

} // namespace Throughline
