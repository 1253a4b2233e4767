#include "core/workload/sessioncalibration.h"

#include "core/engine/servercount.h"
#include "core/workload/sessiondriver.h"

#include <algorithm>

namespace Throughline {

nlohmann::json calibrateSessionPrompts(const Scenario &sc, WorkloadDriver &driver, const std::string &apiKey)
{
    auto *sessions = dynamic_cast<SessionDriver *>(&driver);
    if (!sessions || sc.endpoint.flavour != ApiFlavour::Chat || !driver.exactPrompts() ||
        sc.phase.workload.kind != Workload::Kind::MultiTurn)
        return nullptr;
    ServerCountTarget target;
    target.baseUrl = sc.endpoint.baseUrl;
    target.apiKey = apiKey;
    target.model = sc.endpoint.servedModel.empty() ? sc.model.name : sc.endpoint.servedModel;
    target.extraBody = sc.endpoint.extraBody;
    target.caFile = sc.endpoint.caFile;
    target.insecure = sc.endpoint.insecure;
    target.timeoutS = std::clamp(sc.plan.requestTimeoutS, 5.0, 60.0);
    ServerChatCounter counter(std::move(target));
    return sessions->calibrateChat(counter);
}

} // namespace Throughline
