#include "core/workload/sessioncalibration.h"

#include "core/engine/servercount.h"
#include "core/workload/sessiondriver.h"

namespace Throughline {

nlohmann::json calibrateSessionPrompts(const Scenario &sc, WorkloadDriver &driver, const std::string &apiKey)
{
    auto *sessions = dynamic_cast<SessionDriver *>(&driver);
    if (!sessions || sc.endpoint.flavour != ApiFlavour::Chat || !driver.exactPrompts() ||
        sc.phase.workload.kind != Workload::Kind::MultiTurn)
        return nullptr;
    ServerChatCounter counter(ServerCountTarget::forScenario(sc, apiKey));
    return sessions->calibrateChat(counter);
}

} // namespace Throughline
