#pragma once
// Records a finished `run` into a database file (the history, or a fresh run bundle) through
// core/run/runrecording.h (shared with the GUI), adding what only the CLI knows: sharded runs
// store their shard ("i/N"), the plan id and, per point, the whole-campaign load plus this shard's share —
// `merge` recomputes the merged point against the whole load.

#include "runplan.h"

#include "core/run/runcontroller.h"
#include "core/results/resultsjson.h"
#include "core/util/result.h"

#include <string>
#include <vector>

namespace Throughline::Cli {

struct RecordInfo {
    const RunPlan *plan = nullptr; // required
    std::string campaignJson;      // exact campaign file text
    // Target table used for the verdicts, stored with the run (targets_used) so that `merge` judges the
    // merged shards with it: {"name", "file" (as referenced), "preset", "text" (exact file text)}; null =
    // none.
    nlohmann::json targets;
    // Whole runs: every scenario given to the engine, in index order; those the run never reached (Ctrl-C)
    // are stored with verdict "not_run", as the GUI stores them. Empty (shards): only the outcome's.
    std::vector<Scenario> plannedScenarios;
};

Status recordRun(const std::string &path, const RunOutcome &run, const RunResults &res,
                 const RecordInfo &info);

} // namespace Throughline::Cli
