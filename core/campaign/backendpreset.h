#pragma once
// How to talk to one serving engine: API flavours, forcing output length, telemetry endpoints.
// Loaded from resources/catalog/backends.json.

#include <string>
#include <vector>

namespace Throughline {

enum class ApiFlavour { Completions, Chat };

struct TelemetrySource {
    enum class Format { Prometheus, TrtllmJson };
    std::string path; // relative to the endpoint's base URL, e.g. "/metrics"
    Format format = Format::Prometheus;

    bool operator==(const TelemetrySource &) const = default;
};

struct BackendPreset {
    std::string id;   // used in scenario ids: vllm, sglang, trtllm, dynamo, nim, llamacpp, openai
    std::string name; // display name
    std::vector<std::string> aliases;
    std::vector<ApiFlavour> flavours;
    std::string maxTokensField = "max_tokens"; // or "max_completion_tokens"
    bool sendMinTokens = false;
    bool sendIgnoreEos = false;
    bool sendNvextIgnoreEos = false; // Dynamo / NIM
    bool acceptsTokenIdPrompts = false;
    std::vector<TelemetrySource> telemetry;
    // Request correlation (docs/server-timing.md): the headers carrying the caller's id and the W3C trace
    // context; the server's per-request timing format and, when fetched over HTTP, its path on the base URL.
    std::string requestIdHeader = "X-Request-Id";
    std::string traceHeader = "traceparent";
    std::string timingFormat; // a key of timingFormats(); "" = the server publishes none
    std::string timingPath;   // e.g. "/perf_metrics" (trtllm-perf)

    bool operator==(const BackendPreset &) const = default;
};

} // namespace Throughline
