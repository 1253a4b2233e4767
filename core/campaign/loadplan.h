#pragma once
// How load is offered at each point of a scenario. Defaults follow ARCHITECTURE.md "Load plans".

#include <cstdint>
#include <vector>

namespace Throughline {

struct LoadPlan {
    enum class Mode { Closed, Open, Curve, Search };
    enum class Arrival { Poisson, Constant, Gamma };
    enum class CurveSpacing { Log2, MlperfEndpoints };

    Mode mode = Mode::Closed;

    // Closed loop: one point per concurrency.
    std::vector<int> concurrencies{1};

    // Open loop: one point per rate (requests/s).
    std::vector<double> rates;
    Arrival arrival = Arrival::Poisson;
    double burstiness = 1.0; // gamma shape (vLLM's parameterisation); 1 = Poisson
    int concurrencyCap = 0;  // 0 = uncapped

    // Curve: fixed-concurrency points from cMin to cMax.
    CurveSpacing spacing = CurveSpacing::Log2;
    int cMin = 1;
    int cMax = 64;

    // Search: highest concurrency in [cMin, cMax] whose point meets the SLOs, by bisection.
    int searchMaxPoints = 8;

    // Per point budget (closed loop and curve points).
    int requestCount = 0;          // 0 = requestMultiplier × C
    double requestMultiplier = 10; // default 10 × C
    int warmupRequests = -1;       // -1 = warmupMultiplier × C
    double warmupMultiplier = 2;   // default 2 × C
    double warmupS = 0;            // open loop warm-up in seconds
    // Open loop: the arrival schedule's length; 0 = derived from requestCount / rate. Closed loop (closed,
    // curve, search points): the measured requests are issued for at least this long, model seconds from
    // the first one (what the MLPerf rules' durations count; the first slot freed after it sends the last),
    // then the point ends when they have finished; the request budget (requestCount, else requestMultiplier ×
    // C) is then a cap. 0 = the budget alone ends the point.
    double pointDurationS = 0;
    // Closed points bounded by duration, whole dataset passes (set by MLPerf mode from the dataset size and
    // the preset's super-pass floor, EPR-30/36/37; no JSON key): once the span is over, sending goes on until
    // the measured requests are a whole multiple of `issueMultiple` and at least `minMeasuredRequests`.
    // The request budget still caps the point. 1 / 0 = the span alone.
    int issueMultiple = 1;
    int minMeasuredRequests = 0;
    // Synthetic prompts as samples of a dataset of this many, drawn with replacement (MLPerf mode, EPR-38;
    // core/engine/samplepromptsource.h; no JSON key). 0 = every request its own prompt.
    std::int64_t datasetSamples = 0;

    double rampUpS = 0;
    double cooldownS = 0;
    double maxDurationS = 1800;   // per point; then a grace period, then harness-cancelled
    double requestTimeoutS = 600; // per request
    double minWindowS = 60;       // validity: window shorter than max(minWindowS, 3 × median E2E) is flagged
    double errorRateLimit = 0.5;  // abort the point when this share of finished requests failed (after 20)
    std::uint64_t seed = 1;
    // Level of every point's confidence intervals (JSON "confidence_level", 0.5–0.999; docs/metrics.md
    // "Intervals"): kDefaultConfidenceLevel of core/stats/interval.h, kept as a literal so the campaign model
    // needs no statistics header (a static_assert in campaignjsonplan.cpp keeps the two equal).
    double confidenceLevel = 0.95;
    // Runs of each load point (JSON "repeats", 1–100; docs/metrics.md "Repeats"): each repeat is a point of
    // its own (PointLoad::repeat 1 … repeats), run back to back on fresh connections with prompts no other
    // point used; the repeats' spread gives the across-repeat interval a verdict also weighs. 1 = once.
    int repeats = 1;
    bool storeText = false;
    // Exact-length prompts only: share of each prompt's leading tokens that is identical across requests
    // (0 = a unique prefix per request, defeating prefix caches; 0.5 = the first half is common).
    double sharedPrefixRatio = 0;
    // Engine read order (JSON "first_token_priority", docs/metrics.md "Clock and timestamps"): true reads the
    // sockets of requests still waiting for their first token ahead of the others (tighter TTFT); false reads
    // every ready socket in one order. Which gives tighter later-chunk tails at thousands of streams depends
    // on the client's load (both measured in docs/metrics.md). `throughline-cli run --first-token-priority
    // on|off` overrides it.
    bool firstTokenPriority = true;

    bool operator==(const LoadPlan &) const = default;
};

} // namespace Throughline
