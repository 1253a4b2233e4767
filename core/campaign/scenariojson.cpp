#include "core/campaign/scenariojson.h"

#include "core/campaign/campaignjson.h"

namespace Throughline {

nlohmann::json ScenarioJson::toJson(const Scenario &s)
{
    return nlohmann::json{{"id", s.id},
                          {"model", CampaignJson::toJson(s.model)},
                          {"backend", CampaignJson::toJson(s.backend)},
                          {"gpu", CampaignJson::toJson(s.gpu)},
                          {"deployment", CampaignJson::toJson(s.deployment)},
                          {"phase", CampaignJson::toJson(s.phase)},
                          {"endpoint", CampaignJson::toJson(s.endpoint)},
                          {"plan", CampaignJson::toJson(s.plan)},
                          {"slo", CampaignJson::toJson(s.slo)},
                          {"recipe_concurrency", s.recipeConcurrency}};
}

nlohmann::json ScenarioJson::toJson(const std::vector<Scenario> &scenarios)
{
    nlohmann::json a = nlohmann::json::array();
    for (const auto &s : scenarios)
        a.push_back(toJson(s));
    return a;
}

} // namespace Throughline
