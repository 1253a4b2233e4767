#pragma once
// One line of the simulated endpoint's ground-truth log (--ground-truth, GroundTruthLog): when the server
// accepted a request and wrote each token, on CLOCK_MONOTONIC (steady_clock) ns, so that a client's
// measured TTFT and inter-token gaps can be checked against what the server really did.

#include "core/sim/simrequestcontext.h"

#include <cstdint>
#include <string>

namespace Throughline::SimDetail {

// The JSON object (no newline) for the request in `ctx`, done at tDoneNs with nOut tokens written.
std::string groundTruthRecord(const RequestContext &ctx, std::int64_t tDoneNs, int nOut);

} // namespace Throughline::SimDetail
