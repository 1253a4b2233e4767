#pragma once
// One generation request as the batch scheduler sees it, and the interface through which the scheduler
// reports progress to whoever serves the request (the HTTP session).

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace Throughline {

// Implemented by the HTTP session. Called on a scheduler thread; implementations must only record the
// progress and hand the work to their own executor (no blocking, no socket I/O here).
class RequestSink
{
public:
    virtual ~RequestSink() = default;
    // Every callback carries the request's tag; a sink ignores tags of requests it no longer serves.
    // Admitted into a running batch (KV reserved): the moment a chat stream's role chunk goes out.
    virtual void onAdmitted(std::uint64_t tag, std::int64_t scheduledNs) = 0;
    // `generated` tokens exist now; scheduledNs = steady_clock ns of the step end that produced them.
    virtual void onTokens(std::uint64_t tag, int generated, std::int64_t scheduledNs) = 0;
    // All `generated` tokens are done (generated == outputTokens unless cancelled).
    virtual void onFinished(std::uint64_t tag, int generated, std::int64_t scheduledNs) = 0;
};

struct SimRequest {
    std::uint64_t tag = 0; // echoed to the sink: a session serves many requests one after another
    int promptTokens = 0;
    int outputTokens = 1; // forced/natural output length decided at arrival
    // Prefix caching: chained hashes of the prompt's full blocks (PrefixCache); empty = no reuse possible.
    std::vector<std::uint64_t> prefixHashes;
    // Prompt tokens found in the prefix cache at admission (skipped by prefill); set by the scheduler before
    // the Admitted event, read by the session for usage.prompt_tokens_details.cached_tokens.
    std::atomic<int> cachedTokens{0};
    // Strong: keeps the session alive while the request is in the scheduler. The owning pool resets it after
    // the Finished event and at shutdown, which breaks the session ↔ request cycle.
    std::shared_ptr<RequestSink> sink;
    std::atomic<bool> cancelled{false}; // set by the session when the client is gone
    // When the request arrived (steady ns; the session's accept time): fixed-latency mode times the first
    // token from here (FixedLatencyScheduler). 0 = the moment of submit().
    std::int64_t arrivalNs = 0;

    // Scheduler state (touched by the owning pool's thread only).
    int prefilled = 0;
    int generated = 0;
    bool progressed = false;
    std::int64_t kvReserved = 0;
    std::int64_t readyNs = 0; // earliest admission (steady ns): KV transfer in disaggregated serving
};

} // namespace Throughline
