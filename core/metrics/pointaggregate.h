#pragma once
// Aggregation of one load point (ARCHITECTURE.md "Per load point"): window, measured set,
// throughput and per-GPU variants, distributions, goodput, error classes and validity flags.
// Pure function; the engine calls it on its own thread at the end of each point. Cost is linear in
// records + events plus sorting the samples (see tests/bench/bench_metrics.cpp for figures).

#include "core/campaign/deployment.h"
#include "core/campaign/loadplan.h"
#include "core/campaign/slo.h"
#include "core/engine/requestrecord.h"
#include "core/metrics/pointresult.h"
#include "core/metrics/requestmetrics.h"

#include <cstdint>
#include <limits>
#include <span>

namespace Throughline {

// GPU counts the per-GPU variants divide by; replicas already multiplied in.
struct GpuCounts {
    int total = 1;   // all GPUs of the deployment
    int prefill = 0; // > 0 only for disaggregated deployments
    int decode = 0;

    static GpuCounts fromDeployment(const Deployment &d);
    int decodeOrTotal() const { return decode > 0 ? decode : total; }
    int prefillOrTotal() const { return prefill > 0 ? prefill : total; }
};

// Thresholds of the validity flags; defaults are ARCHITECTURE.md's, demos and tests lower them.
struct ValidityOptions {
    double minWindowS = 60; // window_short when window < max(minWindowS, e2eFactor × median E2E)
    double e2eFactor = 3;
    int minCompleted = 100;       // low_sample when fewer successful measured requests
    double maxErrorRate = 0.01;   // error_rate when failed / sent exceeds this share
    double maxClientCpuPct = 85;  // client_bound when the client CPU is above
    double maxSendBlockedPct = 5; // … when the send path was blocked for more of the point's time (%)
    // … and for longer than this in all (wall ms): a point of half a second of wall clock (λ = 20 on the
    // scale-20 simulator) is not a client that cannot keep up because of one 30 ms hiccup of the machine.
    double minSendBlockedMs = 100;
    double maxAddedDelayMs = 5;    // … when the client-added delay estimate (p99, wall clock) is above
    double minAchievedShare = 0.9; // client_bound when achieved concurrency/rate < share × target

    // Defaults with the load plan's configurable minimum window.
    static ValidityOptions fromPlan(const LoadPlan &plan)
    {
        ValidityOptions o;
        o.minWindowS = plan.minWindowS;
        return o;
    }
};

struct PointInput {
    PointLoad load;
    // Every record of the point, warm-up included (warm-up tokens are real load for throughput).
    std::span<const RequestRecord> records;
    // Open loop: end of the arrival schedule (W1). Ignored in concurrency mode. kNoTime = last t_send.
    std::int64_t scheduleEndNs = kNoTime;
    GpuCounts gpus;
    Slo slo; // per-request SLOs for goodput (0 = no limit)
    // Engine observations; NaN = not measured. Send lateness and the time the send path was blocked are
    // derived from t_send − t_sched when NaN (in the records' clock: the engine passes wall-clock figures).
    ClientObservations client{std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::quiet_NaN()};
    // Achieved load measured by the engine; NaN = derive (concurrency: time-averaged in-flight
    // requests over the window from the records; rate: not checked).
    double achievedConcurrency = std::numeric_limits<double>::quiet_NaN();
    double achievedRate = std::numeric_limits<double>::quiet_NaN();
    bool truncated = false;          // the engine cancelled requests at max duration
    OutputTokenCounter tokenCounter; // optional exact counts (MLPerf variant, N_out fallback)
    ValidityOptions validity;
    // Confidence level of the point's intervals (PointResult::intervals, pointintervals.h); 0 = none
    // computed.
    double confidenceLevel = 0;
};

struct PointWindow {
    std::int64_t w0Ns = kNoTime;
    std::int64_t w1Ns = kNoTime;
    double seconds() const
    {
        return (w0Ns == kNoTime || w1Ns == kNoTime) ? 0.0 : static_cast<double>(w1Ns - w0Ns) / 1e9;
    }
    // Measured set membership: non-warm-up and t_send in [W0, W1).
    bool measures(const RequestRecord &r) const
    {
        return !r.warmup && r.tSend != kNoTime && w0Ns != kNoTime && r.tSend >= w0Ns && r.tSend < w1Ns;
    }
};

// W0 = t_send of the first non-warm-up request; W1 = t_send of the last non-warm-up request
// (concurrency) or scheduleEndNs (rate; falls back to the last t_send when kNoTime).
PointWindow computeWindow(const PointInput &in);

// True when the request meets every limit of the Slo (0 = no limit): the goodput rule. An undefined TTFT or
// E2E cannot meet a limit on it; an undefined TPOT (N_out − N_first < 1) cannot violate one.
bool requestMeetsSlo(const RequestMetrics &m, const Slo &slo);

PointResult aggregatePoint(const PointInput &in);
// Same, with per-request metrics already computed (metrics[i] belongs to in.records[i]).
PointResult aggregatePoint(const PointInput &in, std::span<const RequestMetrics> metrics);

} // namespace Throughline
