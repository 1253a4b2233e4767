#pragma once
// Compliance of a finished scenario after the fact (`throughline-cli mlperf-check`): its fixed-concurrency
// points become the campaign's plan and measurements (finished, nothing to come). Which point is the
// dedicated Offline run, C_max and the dataset size are the caller's to say — results.json does not carry
// them. Also the one-line text of a point's checks (the CLI's per-point line). Pure; any thread.

#include "core/results/resultsjson.h"
#include "core/mlperf/compliance.h"

#include <string>
#include <vector>

namespace Throughline::Mlperf {

struct ScenarioCheckOptions {
    int cMax = 0;               // declared max_supported_concurrency; 0 = the largest fixed concurrency
    long long datasetSize = 0;  // samples per pass; 0 = not known (dataset rules blocked)
    int offlineConcurrency = 0; // the point that is the dedicated Offline run; 0 = none (C_max elected,
                                // or no Offline point when the preset has none)
};

CampaignEvidence evidenceOfScenario(const ScenarioResult &scenario, const RulesPreset &preset,
                                    const ScenarioCheckOptions &options, double timeScale);

// "C=64: fail EPR-29 (1100 s of steady-state issue span, 1200 s required) · 17 pass · 3 blocked (EPR-31, …)"
std::string pointLine(int concurrency, bool offline, const std::vector<CheckResult> &checks);

} // namespace Throughline::Mlperf
