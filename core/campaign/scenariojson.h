#pragma once
// Scenario → JSON: everything resolved (model, GPU and backend facts, deployment, phase, endpoint,
// plan, SLO). Used by `expand --format json` and recorded as run provenance.

#include "core/campaign/scenario.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace Throughline {

class ScenarioJson
{
public:
    static nlohmann::json toJson(const Scenario &scenario);
    static nlohmann::json toJson(const std::vector<Scenario> &scenarios); // an array
};

} // namespace Throughline
