#pragma once
// Where requests go. The API key is a *reference* (an environment variable or keyring entry), never the key.

#include "core/campaign/backendpreset.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace Throughline {

struct SimulatorOptions {
    double timeScale = 1.0; // > 1 runs faster than real time, < 1 slower
    double jitter = 0.0;    // relative jitter of step times; 0 for tests
    std::uint64_t seed = 1;
    std::string faults;        // fault spec, as `throughline-sim --faults`
    bool childProcess = false; // force a separate process (chosen automatically above ~2,000 streams)
    // The clock the simulator's server timing runs on (Endpoint::serverTiming): offset from the true clock
    // and drift, so the join's clock alignment is tested against ground truth (docs/simulator.md).
    double serverClockOffsetMs = 0;
    double serverClockDriftPpm = 0;
    // A server that gets slower during the scenario (issue 23: a point without a steady state, an Offline
    // point slower than the C_max point before it): every step that starts slowdownAfterS model seconds or
    // more after the simulator started takes slowdownFactor × as long (1 = off); slowdownPerHour: every
    // step × (1 + rate × model hours since start) (0 = off). The simulator starts once per scenario.
    double slowdownFactor = 1;
    double slowdownAfterS = 0;
    double slowdownPerHour = 0;
    // Fixed latency instead of the performance model (the vllm-bench overhead protocol's mock server): when
    // either is > 0, every request's first token is written fixedTtftMs model ms after it arrives and each
    // next one fixedItlMs after the one before, whatever the load (docs/simulator.md). 0 and 0 = the model.
    double fixedTtftMs = 0;
    double fixedItlMs = 0;

    bool operator==(const SimulatorOptions &) const = default;
};

// Optional cold-start measurement ("time to ready", issue 9): before the scenario's first point the engine
// polls /health and /v1/models from the start moment until both answer 2xx, then times one first request.
struct ColdStartOptions {
    bool enabled = false;
    double timeoutS = 600;      // give up (scenario aborted as endpoint down) after this long, wall seconds
    double pollIntervalS = 1.0; // wall seconds between polls

    bool operator==(const ColdStartOptions &) const = default;
};

// The server applies another chat template than the model's own (JSON "chat_template", e.g. vLLM
// --chat-template FILE): prompts are counted with the formatter the file reads as (readJinjaTemplate),
// and the run notes what the formatter ignores. date: its date line — "" = as the backend fills it, "today",
// or YYYY-MM-DD (also without a file).
struct ChatTemplateOverride {
    std::string file; // a Jinja file; relative paths resolve against the working directory
    std::string date;

    bool empty() const { return file.empty() && date.empty(); }
    bool operator==(const ChatTemplateOverride &) const = default;
};

// Per-request server timing (JSON "server_timing", docs/server-timing.md): the format the server publishes
// and, for the fetched formats, where. Off while `format` is empty; a simulated endpoint publishes the
// format.
struct ServerTimingOptions {
    std::string format; // "" off; "auto" = the backend preset's; else a key of timingFormats()
    std::string url;    // trtllm-perf: GET after each point; "" = every base URL + the preset's timing path
    std::string file;   // dynamo-trace: the JSONL file the server appends (DYN_REQUEST_TRACE_OUTPUT_PATH)

    bool enabled() const { return !format.empty(); }
    // The format key in force with this backend: "" when off, or "auto" and the preset names none.
    std::string formatFor(const BackendPreset &backend) const
    {
        return format == "auto" ? backend.timingFormat : format;
    }
    bool operator==(const ServerTimingOptions &) const = default;
};

struct Endpoint {
    enum class Kind { Http, Simulated };
    enum class Routing { RoundRobin, LeastInFlight };
    // Protocol of the load requests (JSON "http_version"): "1.1" one stream per connection (default, what
    // vLLM/AIPerf clients do); "2" HTTP/2 negotiated by ALPN, https only (falls back to HTTP/1.1 when the
    // server does not offer h2); "h2c-prior-knowledge" cleartext HTTP/2 without upgrade (e.g. nginx
    // `listen … http2` on plain TCP). With HTTP/2, concurrent streams to one host share few connections.
    enum class HttpVersion { Http11, Http2, H2cPriorKnowledge };
    // Who reads the responses (JSON "read_path", docs/metrics.md "Read paths"): "auto" (default) — the
    // engine itself for plain-HTTP/1.1 endpoints without a proxy, libcurl for the rest; "libcurl" always
    // libcurl (the path of releases before it, kept as the fallback and for comparisons).
    enum class ReadPath { Auto, Libcurl };

    std::string name = "default";
    Kind kind = Kind::Http;
    std::string baseUrl;                  // e.g. http://127.0.0.1:8000 (no /v1)
    std::vector<std::string> replicaUrls; // optional: several replicas behind one scenario
    Routing routing = Routing::RoundRobin;
    ApiFlavour flavour = ApiFlavour::Chat;
    std::string servedModel;   // "model" field of requests; empty = the scenario's model name
    std::string apiKeyEnv;     // name of an environment variable holding the key
    std::string apiKeyKeyring; // keyring entry name (secret-tool lookup)
    std::string caFile;
    bool insecure = false;
    double connectTimeoutS = 10;
    HttpVersion httpVersion = HttpVersion::Http11;
    ReadPath readPath = ReadPath::Auto;
    std::map<std::string, std::string> extraHeaders;
    nlohmann::json extraBody = nlohmann::json::object(); // merged into each request body
    SimulatorOptions sim;
    // Server telemetry scraped during the run (core/telemetry): the backend preset's telemetry paths on the
    // base URL and every replica, plus these extra URLs (e.g. a DCGM exporter, scraped with every name map).
    std::vector<std::string> telemetryUrls;
    double telemetryIntervalS = 1.0;   // scrape interval in seconds of model time; 0 disables scraping
    ColdStartOptions coldStart;        // JSON "cold_start"; written only when it differs from the default
    ChatTemplateOverride chatTemplate; // JSON "chat_template"; written only when set
    ServerTimingOptions serverTiming;  // JSON "server_timing"; written only when set
    // Which scenarios use this endpoint: key=glob over model, backend, gpu, gpus, phase. Empty = all.
    std::map<std::string, std::vector<std::string>> match;

    bool operator==(const Endpoint &) const = default;
};

} // namespace Throughline
