#pragma once
// Records a finished `run` into a database file (the history, or a fresh run bundle): done after the run from
// the outcome (not streamed during it), so a storage failure cannot disturb the load engine. Sharded runs
// store their shard ("i/N"), the plan id and, per point, the whole-campaign load plus this shard's share —
// `merge` recomputes the merged point against the whole load.

#include "runplan.h"

#include "core/engine/runcontroller.h"
#include "core/metrics/resultsjson.h"
#include "core/util/result.h"

#include <string>

namespace Throughline::Cli {

struct RecordInfo {
    const RunPlan *plan = nullptr; // required
    std::string campaignJson;      // exact campaign file text
};

Status recordRun(const std::string &path, const RunOutcome &run, const RunResults &res,
                 const RecordInfo &info);

} // namespace Throughline::Cli
