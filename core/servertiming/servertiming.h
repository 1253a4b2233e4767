#pragma once
// One server's own account of one request, as the serving engine publishes it per request (llama.cpp
// `timings`, vLLM `metrics`, SGLang `meta_info`, Dynamo `nvext.timing` and its request trace, TensorRT-LLM
// `/perf_metrics`), normalised so that one breakdown can be built from any of
// them. Field names, units and sources: docs/server-timing.md. A plain value type; no thread affinity.

#include "core/campaign/timingformat.h"

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace Throughline {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
inline bool hasValue(double v)
{
    return !std::isnan(v);
}

struct ServerTiming {
    TimingFormat format = TimingFormat::LlamaCpp;
    ServerClock clock = ServerClock::None;
    double resolutionS = 1e-6; // timestamp resolution: Dynamo's request_received_ms is a whole millisecond
    std::string clientId; // the caller's id when the server echoes it (Dynamo's x_request_id), else empty
    std::string engineId; // the server's own request id (TRT-LLM request_id, Dynamo request_id, SGLang id)

    // Timestamps in the server's clock, seconds (epoch or steady per `clock`); kNoValue = not published.
    double tArrival = kNoValue; // the HTTP server received the request
    double tEngineQueued =
        kNoValue;                 // handed to the engine's queue (TRT arrival_time, SGLang sent_to_scheduler)
    double tScheduled = kNoValue; // first scheduled: queue ends, prefill starts
    double tFirstToken = kNoValue; // first token produced (on the prefill worker when disaggregated)
    double tKvStart = kNoValue;    // disaggregated: KV cache transfer start / end
    double tKvEnd = kNoValue;
    double tFirstSent = kNoValue; // the server handed the first token to the HTTP layer
    double tLastToken = kNoValue; // last token produced
    double tFinished = kNoValue;  // request finished on the server

    // Durations published as such, milliseconds; kNoValue = not published.
    double queueMs = kNoValue;
    double prefillMs = kNoValue;
    double kvTransferMs = kNoValue;
    double decodeMs = kNoValue;
    double ttftMs = kNoValue; // the server's own TTFT (its start point differs per format: docs)
    double totalMs = kNoValue;

    int promptTokens = -1; // evaluated + cached
    int cachedTokens = -1;
    int outputTokens = -1;

    // Every numeric field read, by its dotted name in the format and in the format's own unit, in the order
    // read: what the format published, kept for export and for the parser tests.
    std::vector<std::pair<std::string, double>> fields;

    // kNoValue when the field was absent or null.
    double field(std::string_view name) const
    {
        for (const auto &[k, v] : fields)
            if (k == name)
                return v;
        return kNoValue;
    }
};

} // namespace Throughline
