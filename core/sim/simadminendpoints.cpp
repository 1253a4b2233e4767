#include "core/sim/simadminendpoints.h"

#include "core/sim/simservercore.h"

#include <nlohmann/json.hpp>

#include <ctime>

namespace Throughline::SimDetail {

std::string healthBody(const ServerCore &core)
{
    nlohmann::json j = {
        {"status", "ok"}, {"ready", true}, {"time_scale", core.opt.timeScale}, {"model", core.modelName}};
    return j.dump();
}

std::string modelsBody(const ServerCore &core)
{
    nlohmann::json j = {{"object", "list"},
                        {"data",
                         {{{"id", core.modelName},
                           {"object", "model"},
                           {"created", (long long)std::time(nullptr)},
                           {"owned_by", "throughline-sim"},
                           {"root", core.opt.model.hfId.empty() ? core.modelName : core.opt.model.hfId},
                           {"max_model_len", core.maxModelLen}}}}};
    return j.dump();
}

} // namespace Throughline::SimDetail
