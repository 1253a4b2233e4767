#pragma once
// Joins a load point's server timing to the client's requests and builds each request's breakdown
// (docs/server-timing.md): inline timing belongs to its own response; fetched timing is matched by the
// caller's id where the server carries it (Dynamo's x_request_id), else by order and time (TensorRT-LLM's
// engine ids: a monotone alignment of arrival order and latency signature, then the nearest request on the
// fitted clock). The server's clock is fitted from the joined requests' own send and receive times.
// Problems (missing or malformed timing, unmatched entries) are kept, never fatal. Pure computation.

#include "core/servertiming/requestbreakdown.h"
#include "core/servertiming/timingparsers.h"

#include <string>
#include <vector>

namespace Throughline {

struct ServerTimingJoin {
    TimingFormat format = TimingFormat::LlamaCpp;
    TimingJoin method = TimingJoin::SameResponse;
    ClockFit fit;
    std::vector<RequestBreakdown> requests; // one per client request, in the order given
    int matched = 0;                        // client requests with server timing
    int missing = 0;      // client requests without (missing/malformed timing, or no entry matched)
    int extraEntries = 0; // fetched entries matched to no client request (another client, warm-up, dropped)
    int problemCount = 0;
    std::vector<std::string> problems; // the first kMaxProblems messages, each naming request and field
    static constexpr int kMaxProblems = 20;

    void addProblem(std::string message);
};

// Inline formats: timing[i] is the parse of client request i's final chunk or body.
ServerTimingJoin joinInlineTiming(TimingFormat format, const std::vector<ClientTimes> &clients,
                                  const std::vector<Result<ServerTiming>> &timing);
// Fetched formats: the entries of the point's fetch (or file), matched per the format's join.
ServerTimingJoin joinFetchedTiming(TimingFormat format, const std::vector<ClientTimes> &clients,
                                   const TimingBatch &batch);

} // namespace Throughline
