#include "core/mlperf/scenariocheck.h"

#include <algorithm>

namespace Throughline::Mlperf {

CampaignEvidence evidenceOfScenario(const ScenarioResult &s, const RulesPreset &preset,
                                    const ScenarioCheckOptions &o, double timeScale)
{
    CampaignEvidence c;
    c.datasetSize = o.datasetSize;
    c.finished = true;
    c.offline = o.offlineConcurrency > 0 ? OfflineMode::Dedicated
                : preset.offlinePoint    ? OfflineMode::Elected
                                         : OfflineMode::None;
    int largest = 0;
    for (const PointResult &p : s.points) {
        if (p.load.mode != PointLoad::Mode::Concurrency)
            continue;
        PointEvidence e = evidenceOf(p, preset, o.datasetSize, timeScale);
        e.offline = o.offlineConcurrency > 0 && p.load.concurrency == o.offlineConcurrency;
        if (!e.offline)
            largest = std::max(largest, p.load.concurrency);
        PlannedPoint pp;
        pp.concurrency = p.load.concurrency;
        pp.role = e.offline ? PlannedPoint::Role::Offline : PlannedPoint::Role::Choice;
        c.plan.push_back(pp);
        c.measured.push_back(e);
    }
    c.cMax = o.cMax > 0 ? o.cMax : largest;
    return c;
}

std::string pointLine(int concurrency, bool offline, const std::vector<CheckResult> &checks)
{
    std::string fails, blocked;
    int pass = 0, nBlocked = 0;
    for (const CheckResult &r : checks) {
        if (r.state == CheckState::Pass) {
            ++pass;
        } else if (r.state == CheckState::Fail) {
            fails += (fails.empty() ? "" : "; ") + std::string("fail ") + r.ruleId +
                     (r.severity == Severity::Info ? " (info)" : "") + " (" + r.detail + ")";
        } else if (r.state == CheckState::Blocked) {
            blocked += (nBlocked++ ? ", " : "") + r.ruleId;
        }
    }
    std::string line = (offline ? "Offline C=" : "C=") + std::to_string(concurrency) + ": ";
    if (!fails.empty())
        line += fails + " · ";
    line += std::to_string(pass) + " pass";
    if (nBlocked > 0)
        line += " · " + std::to_string(nBlocked) + " blocked (" + blocked + ")";
    return line;
}

} // namespace Throughline::Mlperf
