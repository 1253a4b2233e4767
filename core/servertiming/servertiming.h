#pragma once
// One server's own account of one request, as the serving engine publishes it per request (llama.cpp
// `timings`, vLLM `metrics`, SGLang `meta_info`, Dynamo `nvext.timing` and its request trace, TensorRT-LLM
// `/perf_metrics`), normalised so that one breakdown can be built from any of
// them. Field names, units and sources: docs/server-timing.md. A plain value type; no thread affinity.

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace Throughline {

enum class TimingFormat { LlamaCpp, Vllm, Sglang, DynamoNvext, DynamoTrace, TrtllmPerf };

// How a format's timestamps count: durations only, Unix epoch, or the server's own monotonic clock.
enum class ServerClock { None, Epoch, Steady };

// How a format's timing is matched to the client's request: it rides in that request's own response, it
// carries the caller's id (X-Request-Id), or it has only engine ids and is matched by order and time.
enum class TimingJoin { SameResponse, ClientId, OrderAndTime };

struct TimingFormatInfo {
    TimingFormat format;
    const char *key;     // "llamacpp", "vllm", … (campaign files, the simulator's --server-timing, CLI)
    const char *display; // "llama.cpp timings", …
    ServerClock clock;
    TimingJoin join;
    bool fetched; // published on an endpoint or in a file, not in the response body
};

const std::vector<TimingFormatInfo> &timingFormats();
const TimingFormatInfo &timingFormatInfo(TimingFormat format);
// nullptr when the key names no format.
const TimingFormatInfo *timingFormatByKey(std::string_view key);
// "same_response", "client_id", "order_and_time" (results.json, the CLI).
const char *timingJoinKey(TimingJoin join);

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
