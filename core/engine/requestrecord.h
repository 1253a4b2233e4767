#pragma once
// Everything the engine observed about one request. Produced on a worker thread, handed over whole
// (immutable from then on) to metrics, storage and the live snapshot.

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

// Client timestamps: steady_clock nanoseconds relative to the run's t=0. kNoTime = never reached.
constexpr std::int64_t kNoTime = -1;

// One SSE `data:` event, classified after timestamping (never on the hot path).
// Packed: 13 bytes instead of 16 for finished records (a Generation record holds ~8,000 of these). While a
// stream is in flight its events live in StreamAccumulator's 5-byte compact store instead and are expanded,
// losslessly, when it finishes (bench_streams rss-gen). x86-64 reads the unaligned fields at no cost.
struct __attribute__((packed)) StreamEvent {
    enum class Kind : std::uint8_t {
        Content,  // choices[0] carries non-empty text/content/reasoning/tool-call text (ARCHITECTURE.md)
        RoleOnly, // chat role chunk without content
        Usage,    // usage-only chunk (empty choices)
        Finish,   // finish_reason only
        Other,    // empty strings, logprobs-only, unknown shapes
        Error,    // data: {"error": …}
        Done      // data: [DONE]
    };
    std::int64_t tNs = 0; // time of the read that delivered the event's terminating blank line
    Kind kind = Kind::Other;
    std::int32_t tokens = -1; // tokens in this event when known (continuous usage stats), else -1
};

enum class ErrorClass : std::uint8_t {
    None,
    Connect,    // connect refused, DNS failure
    Tls,        // handshake or certificate failure
    HttpStatus, // non-2xx status (body excerpt kept, redacted)
    TimeoutBeforeFirstToken,
    StallMidStream, // no bytes for longer than the stall limit after the first token
    DisconnectMidStream,
    ServerErrorEvent, // data: {"error": …}
    MalformedStream,  // malformed SSE or JSON
    ShortOutput,      // fewer output tokens than requested (forced length not honoured)
    HarnessCancelled  // cancelled by the harness at max duration (after the grace period) or by the user
};

enum class TokenCountSource : std::uint8_t { Usage, Tokenizer, EventCount };

struct CurlTimings {
    // Seconds-from-start values reported by curl, converted to ns; kNoTime when unavailable.
    std::int64_t connectNs = kNoTime;
    std::int64_t appConnectNs = kNoTime;
    std::int64_t preTransferNs = kNoTime;
    std::int64_t startTransferNs = kNoTime;
    std::int64_t totalNs = kNoTime;
};

struct Usage {
    int promptTokens = -1;
    int completionTokens = -1;
    int cachedTokens = -1;
    int reasoningTokens = -1;
};

struct RequestRecord {
    std::uint64_t seq = 0; // X-Request-Id = <run-uuid>-<seq>
    int scenarioIndex = 0;
    int pointIndex = 0;
    bool warmup = false;
    int replica = 0;

    int intendedIsl = 0;
    int intendedOsl = 0;

    std::int64_t tSched = kNoTime;     // intended send (open loop) or slot-free time (closed loop)
    std::int64_t tSend = kNoTime;      // hand-off to the worker
    std::int64_t tWire = kNoTime;      // CURLOPT_PREREQFUNCTION: request about to be written
    std::int64_t tFirstByte = kNoTime; // first response body byte
    std::int64_t tEnd = kNoTime;       // transfer done
    CurlTimings curl;

    std::vector<StreamEvent> events; // every data: event in arrival order

    int httpStatus = 0;
    int httpVersion = 0; // protocol of the response: 10, 11, 20, 30 (CURLINFO_HTTP_VERSION); 0 = none
    // Who read the response (docs/metrics.md "Read paths"): the engine itself on a socket libcurl connected
    // (plain HTTP/1.1), or libcurl's transfer machinery.
    enum class ReadPath : std::uint8_t { Libcurl, DirectHttp1 };
    ReadPath readPath = ReadPath::Libcurl;
    ErrorClass error = ErrorClass::None;
    std::string errorDetail; // redacted excerpt (no API keys, no Bearer tokens)

    Usage usage;
    int nOut = -1; // output tokens, see nOutSource
    TokenCountSource nOutSource = TokenCountSource::EventCount;
    int nFirst = 1; // tokens in the first content event
    bool nFirstApproximate = true;
    std::string text; // streamed text, only when the plan's storeText is on
    // The closing chunk's JSON when it carries the server's own timing (llama.cpp `timings`, vLLM `metrics`,
    // SGLang `meta_info`, Dynamo `nvext`): parsed and joined at the point's end (core/servertiming), then
    // released.
    std::string serverTiming;

    bool ok() const { return error == ErrorClass::None; }
};

} // namespace Throughline
