#pragma once
// The rules of one continuous-batching pool, without threads or clocks: FIFO admission under the
// sequence and KV limits, prefix-cache lookup, planning a step (decodes + prefill chunks within the
// token budget) and its duration (model time × jitter × slowdown × time-dependent shift), and applying it.
// BatchScheduler runs a stepper on a pool thread against the wall clock; VirtualClosedLoop runs one on a
// virtual clock for seeded statistical studies. One place for the rules, so both serve the same model. Not
// thread-safe: one owner thread.

#include "core/sim/performancemodel.h"
#include "core/sim/simrequest.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <vector>

namespace Throughline {

class PrefixCache;
struct SchedulerConfig;

enum class PoolMode { Aggregated, Prefill, Decode };

struct StepEvent {
    enum Kind { Admitted, Tokens, Finished } kind;
    std::shared_ptr<SimRequest> r;
    int generated;
};

class BatchStepper
{
public:
    BatchStepper(PerformanceModel model, PoolMode mode, const SchedulerConfig &config, std::uint64_t seed);
    ~BatchStepper();
    BatchStepper(const BatchStepper &) = delete;
    BatchStepper &operator=(const BatchStepper &) = delete;

    // Joins the waiting queue (FIFO).
    void enqueue(std::shared_ptr<SimRequest> r) { m_waiting.push_back(std::move(r)); }
    // Admits waiting requests while sequences and KV allow (one request always fits into an empty pool);
    // cancelled ones finish at once.
    void admit(std::vector<StepEvent> &events);
    bool hasRunning() const { return !m_running.empty(); }
    // Plans the next step that starts at startS model seconds since the pool started; returns its duration
    // in model seconds (jitter, slowdown and the time-dependent shift of stepShift(startS) applied).
    double planStep(double startS);
    // Applies the planned step that ended at endNs (steady or virtual ns). Prefill pools append requests
    // that move to the decode pool to handOffs, with readyNs = endNs + KV transfer ÷ timeScale.
    void applyStep(std::int64_t endNs, std::vector<StepEvent> &events,
                   std::vector<std::shared_ptr<SimRequest>> &handOffs);
    // Drops every request (sinks reset: breaks the session ↔ request cycle at shutdown).
    void clear();

    int running() const { return int(m_running.size()); }
    int waiting() const { return int(m_waiting.size()); }
    std::int64_t kvUsed() const { return m_kvUsed; }
    std::int64_t kvCapacity() const { return m_kvCapacity; }
    // Step durations are multiplied by this (1 + slowdown_pct / 100).
    double slowdownFactor() const { return m_slowdown; }
    // The time-dependent factor of a step that starts at startS model seconds since the pool started
    // (SchedulerConfig::slowdownFactor/AfterS/PerHour): exactly 1 when they are off.
    double stepShift(double startS) const;

private:
    std::int64_t kvNeed(const SimRequest &r) const;

    PerformanceModel m_model;
    PoolMode m_mode;
    int m_tokenBudget;
    double m_jitter;
    double m_timeScale;
    double m_slowdown;
    double m_shiftFactor;
    double m_shiftAfterS;
    double m_driftPerHour;
    double m_plannedShift = 1; // stepShift() of the planned step (its KV transfers take it too)
    std::mt19937_64 m_rng;
    std::int64_t m_kvCapacity = 0;
    int m_maxSeqs = 1;
    std::unique_ptr<PrefixCache> m_prefix; // null = prefix caching off
    std::deque<std::shared_ptr<SimRequest>> m_waiting;
    std::vector<std::shared_ptr<SimRequest>> m_running; // admission order
    std::vector<SimRequest *> m_decoding;               // planned step
    std::vector<std::pair<SimRequest *, int>> m_chunks; // planned step
    std::int64_t m_kvUsed = 0;
};

} // namespace Throughline
