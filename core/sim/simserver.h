#pragma once
// The simulated OpenAI-compatible endpoint, embeddable: a Boost.Beast HTTP/1.1 server (keep-alive,
// chunked SSE, optional TLS) on a multi-threaded io_context, whose timing comes from BatchScheduler
// driving PerformanceModel. start() binds (port 0 = ephemeral) and returns the port; stop() joins all
// threads. Public methods are thread-safe. Endpoints and behaviour: docs/simulator.md.

#include "core/campaign/gpuspec.h"
#include "core/campaign/modelspec.h"
#include "core/sim/faultspec.h"
#include "core/sim/performancemodel.h"
#include "core/sim/simmetrics.h"
#include "core/util/result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace Throughline {

// Bounds that keep a slow or malicious client from exhausting the server.
struct SimLimits {
    std::size_t maxBodyBytes = 8u << 20;    // larger bodies get 413 and the connection closes
    std::size_t maxHeaderBytes = 16u << 10; // larger headers get 431/400 and the connection closes
    double idleTimeoutS = 60;               // no complete request within this → connection closed
    double writeTimeoutS = 30;              // a client that stops reading is dropped
    int maxConnections = 10000;             // above it: 503 + Connection: close (TLS: closed at once)
    int maxWaiting = 100000;                // waiting-queue bound → 429
    int tokenBudget = 8192;                 // tokens per scheduler step and GPU (chunked prefill)
};

struct SimServerOptions {
    ModelSpec model;
    GpuSpec gpu;
    int gpus = 1;        // aggregated deployment
    int prefillGpus = 0; // > 0 together with decodeGpus: disaggregated prefill pool → decode pool
    int decodeGpus = 0;
    Precision precision = Precision::Fp8;
    PerfConstants constants;
    std::string servedModelName; // empty = model.name
    double timeScale = 1.0;      // > 1 runs faster than real time
    double jitter = 0.0;         // relative step-time jitter; 0 for tests
    // Detection tests: every step takes (1 + slowdownPct / 100) × as long (SchedulerConfig::slowdownPct).
    double slowdownPct = 0.0;
    // A server that gets slower while it runs (SchedulerConfig::slowdownFactor): steps starting at or after
    // slowdownAfterS model seconds since start() take slowdownFactor × as long (1 = off); slowdownPerHour
    // adds a linear drift, × (1 + rate × model hours since start()) (0 = off).
    double slowdownFactor = 1.0;
    double slowdownAfterS = 0.0;
    double slowdownPerHour = 0.0;
    // Fixed latency instead of the model (SchedulerConfig::fixedTtftMs / fixedItlMs; the vllm-bench
    // overhead protocol's mock server): either > 0 = on; model ms, divided by the time scale like the rest.
    double fixedTtftMs = 0.0;
    double fixedItlMs = 0.0;
    std::uint64_t seed = 1;
    FaultSpec faults;
    std::string groundTruthPath; // empty = no JSONL log
    // Per-request server timing, published as that server does (docs/simulator.md "Server timing"): "" =
    // none, else llamacpp | vllm | sglang | dynamo-nvext | dynamo-trace | trtllm-perf. Its timestamps run on
    // a server clock offset and drifting from the true one (the ground-truth log keeps the true times).
    std::string serverTiming;
    double serverClockOffsetMs = 0;
    double serverClockDriftPpm = 0;
    std::string requestTracePath; // dynamo-trace: the JSONL file (Dynamo's DYN_REQUEST_TRACE_OUTPUT_PATH)
    int perfMetricsMaxRequests = 1000; // trtllm-perf: the queue bound (perf_metrics_max_requests)
    std::string tlsCertFile;           // PEM; both set = HTTPS
    std::string tlsKeyFile;
    SimLimits limits;
    int threads = 2; // io_context threads
    bool legacyMetricNames = false;
    bool reasoningContentField =
        false;                      // stream reasoning as delta.reasoning_content instead of delta.reasoning
    double reasoningShare = 0.5;    // share of the output streamed as reasoning by reasoning models (chat)
    int naturalOutputMean = 256;    // without ignore_eos: output length ~ uniform[1, 2·mean], clamped
    int overlongPromptStatus = 400; // HTTP status for prompts over max_model_len
    // Cold start: for this many wall seconds after start() the server is "loading": /health, /ready,
    // /v1/models and the generation endpoints answer 503 (a vLLM server still loading weights); /metrics
    // answers. 0 = ready at once.
    double notReadyS = 0;
    // Prompt token counter for text prompts (token-id prompts count their ids). Takes precedence over
    // `tokenizer`. Default (neither set): ceil(bytes / 4).
    std::function<int(std::string_view)> promptTokenCounter;
    // Exact prompt counting with a tokenizer: "" = none; "auto" = the model's own tokenizer when its files
    // are in the tokenizer cache (else bytes/4, said in capacitySummary()); else a tokenizer name or file
    // path (TokenizerStore::load). Completions text prompts count encode(text) (text tokens: no BOS), as the
    // engine's exact-length prompts intend; chat messages are rendered through the tokenizer's chat template
    // (core/tokenizer/chattemplate.h: special tokens and generation prompt included), as a server counts
    // them.
    std::string tokenizer;
    // The chat template chat messages are rendered with (when counting with a tokenizer): "" = the model's
    // own (ChatTemplate::forModel, what the client's formatter renders); else a ChatTemplate::named name,
    // e.g. "chatml": a server that disagrees with the client, whose overhead changes with the system message
    // and the number of turns (for calibration tests). An unknown name keeps the model's and says so in
    // promptCounting().
    std::string chatTemplate;
    std::string chatTemplateDate; // its date line: "" = the template's default (as vLLM), "today", YYYY-MM-DD
    // Prompt-counting endpoints (core/sim/simcountendpoints.h; prompt calibration asks them): "vllm" = POST
    // /tokenize with messages (vLLM, SGLang), "llamacpp" = POST /apply-template + /tokenize (llama-server),
    // "none" = neither (only a probe request tells). Answer only when counting with a tokenizer.
    std::string countEndpoints = "vllm";
    // TokenizerStore cache dir; "" = its default (THROUGHLINE_TOKENIZER_DIR, else the user cache).
    std::string tokenizerDir;
    // Prefix caching (docs/simulator.md): cached leading blocks of this many tokens skip prefill and are
    // reported as usage.prompt_tokens_details.cached_tokens. 0 = off (the default of the embeddable server,
    // so capacity tests with repeated prompts measure the bare model; the launchers and throughline-sim
    // turn it on with 16, vLLM's default block size).
    int prefixBlockTokens = 0;
};

struct SimServerStats {
    std::int64_t connectionsAccepted = 0;
    std::int64_t connectionsRejected = 0; // over maxConnections
    int connectionsOpen = 0;
    std::int64_t requests = 0;
    std::int64_t tokensWritten = 0;
    std::int64_t writes = 0;
    // Token-write lateness: socket write issued − end of the scheduler step that produced the token.
    double latenessP50Ms = 0;
    double latenessP99Ms = 0;
    double latenessMaxMs = 0;
};

class SimServer
{
public:
    explicit SimServer(SimServerOptions options);
    ~SimServer();
    SimServer(const SimServer &) = delete;
    SimServer &operator=(const SimServer &) = delete;

    // Options for a catalog model and GPU (names or aliases), precision "BF16"/"FP8"/"FP4".
    static Result<SimServerOptions> optionsFromCatalog(const std::string &model, const std::string &gpu,
                                                       int gpus, const std::string &precision);

    Result<int> start(const std::string &host = "127.0.0.1", int port = 0);
    void stop();
    int port() const;
    bool tls() const;
    const SimServerOptions &options() const;

    // Analytic numbers (decode pool when disaggregated).
    const PerformanceModel &model() const;
    OperatingPoint predictedCapacity(int isl, int osl, int concurrency = 1 << 30) const;
    std::string capacitySummary() const; // human-readable lines for the CLI
    // How text prompts are counted: "tokenizer llama3_1", "bytes/4" or "custom counter" (valid after
    // construction; "auto" resolves there).
    std::string promptCounting() const;
    SimServerStats stats() const;
    SimMetrics::Totals totals() const;
    SchedulerGauges gauges() const;
    std::string metricsText() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace Throughline
