#pragma once
// Test support: one scenario through RunController (blocking, on the calling thread), for tests that check
// what a single run measured. Header-only.
#include "core/run/runcontroller.h"
#include "core/util/result.h"

namespace Throughline::TestSupport {

// Runs `scenario` alone with `options`. An error when the run fails or the scenario aborted (the abort reason
// in the message), so `out->scenarios.at(0)` is a finished scenario on success.
inline Result<RunOutcome> runAlone(const Scenario &scenario, const RunOptions &options)
{
    RunController controller({scenario}, options);
    auto out = controller.run();
    if (out && !out->scenarios.empty() && out->scenarios.front().aborted)
        return makeError(ErrorCode::Internal,
                         scenario.id + ": scenario aborted: " + out->scenarios.front().abortReason);
    if (out && out->scenarios.empty())
        return makeError(ErrorCode::Internal, scenario.id + ": the run has no scenario outcome");
    return out;
}

} // namespace Throughline::TestSupport
