#pragma once
// Discrete-event continuous-batching scheduler of the simulated endpoint: the pool rules of BatchStepper
// on the wall clock.
// Aggregated: one pool does chunked prefill (token budget shared with the decodes) and decode.
// Disaggregated: a prefill pool → KV transfer over NVLink → a decode pool, each with its own KV capacity.
// Each pool runs on its own thread; step durations come from PerformanceModel, divided by the time scale
// (> 1 faster than real time). Steps follow a simulated timeline (a step starts where the last ended), so
// the throughput equals the model's even when a wake-up is late.
// Thread safety: submit() and gauges() from any thread.

#include "core/sim/performancemodel.h"
#include "core/sim/simrequest.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace Throughline {

struct SchedulerConfig {
    double timeScale = 1.0;
    double jitter = 0.0; // relative standard deviation of each step duration
    std::uint64_t seed = 1;
    int tokenBudget = 8192;  // tokens per step (decodes + prefill chunks), vLLM max_num_batched_tokens
    int maxWaiting = 100000; // waiting queue bound; submit() fails above it (HTTP 429)
    // Prefix caching (prefixcache.h): block size in tokens, 0 = off. The cache lives in the pool that does
    // the prefill and holds up to that pool's KV capacity in blocks.
    int prefixBlockTokens = 0;
    // Detection tests: every step (prefill chunks, decode, KV transfer) takes (1 + slowdownPct / 100) times
    // as long, so a deployment is "X % slower" (output tokens/s fall by X / (100 + X)). 0 = the model.
    double slowdownPct = 0;
    // A server that gets slower while it runs (issue 23's rule-breaking campaigns): every step (prefill
    // chunks and decode alike, and the KV transfers they start) that starts at or after slowdownAfterS
    // model seconds since the pool started takes slowdownFactor × as long (a level shift; 1 = off), and
    // every step takes (1 + slowdownPerHour × model hours since start) × as long (a linear drift; 0 = off).
    // Both multiply whatever slowdownPct gives. BatchStepper::stepShift says the factor at a time.
    double slowdownFactor = 1;
    double slowdownAfterS = 0;
    double slowdownPerHour = 0;
    // Fixed-latency mode (FixedLatencyScheduler; the vllm-bench overhead protocol's mock server): when either
    // is > 0, the first token is due fixedTtftMs model ms after a request arrives and each next one
    // fixedItlMs after it, whatever the load; the performance model, the token budget, prefix caching and
    // the slowdowns are not used. Both 0 = the model's timing.
    double fixedTtftMs = 0;
    double fixedItlMs = 0;
    bool fixedLatency() const { return fixedTtftMs > 0 || fixedItlMs > 0; }
};

struct SchedulerGauges {
    int running = 0;
    int waiting = 0;
    double kvUsage = 0; // 0..1 of the (decode) pool's KV capacity
    std::int64_t steps = 0;
};

class FixedLatencyScheduler;

class BatchScheduler
{
public:
    // Aggregated serving.
    BatchScheduler(PerformanceModel model, SchedulerConfig config);
    // Disaggregated serving: prefill pool and decode pool.
    BatchScheduler(PerformanceModel prefillModel, PerformanceModel decodeModel, SchedulerConfig config);
    ~BatchScheduler();
    BatchScheduler(const BatchScheduler &) = delete;
    BatchScheduler &operator=(const BatchScheduler &) = delete;

    void start();
    void stop();
    // false when the waiting queue is full.
    bool submit(std::shared_ptr<SimRequest> request);
    SchedulerGauges gauges() const;
    static std::int64_t nowNs();

private:
    class Pool;
    std::unique_ptr<Pool> m_first;                  // aggregated pool, or the prefill pool
    std::unique_ptr<Pool> m_second;                 // decode pool when disaggregated
    std::unique_ptr<FixedLatencyScheduler> m_fixed; // instead of the pools in fixed-latency mode
    SchedulerConfig m_config;
};

} // namespace Throughline
