#pragma once
// Seeded simulator studies of the intervals (tst_coverage in CI, bench_intervals with many repeats):
// one "repeat" is a closed-loop load point on the simulator's scheduler with a virtual clock
// (core/sim/virtualclosedloop.h: the HTTP simulator's rules, no wall clock, so a repeat takes
// milliseconds and is the same on every machine), turned into RequestRecords and measured by the real
// metric code (computeRequestMetrics, computeWindow, core/metrics/pointintervals.h). The truth is the
// simulator's long-run value of the same statistic: the same configuration over a run 200× as long.

#include "core/metrics/pointaggregate.h"
#include "core/metrics/pointintervals.h"
#include "core/metrics/requestmetrics.h"
#include "core/sim/simserver.h"
#include "core/sim/virtualclosedloop.h"
#include "core/stats/noisecomparison.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace StudySupport {

using namespace Throughline;

struct StudyConfig {
    int concurrency = 16;
    int isl = 512;
    int oslMin = 64; // natural output lengths uniform in [oslMin, oslMax]
    int oslMax = 192;
    double jitter = 0.1;
    double slowdownPct = 0;
    std::size_t slices = 0; // bootstrap time slices (0 = pointintervals' default)
    int budgetScale = 1;    // the budget × this (a study of how the drain's bias shrinks with n)
    // A cool-down tail: C more requests after the budget, not measured, so C stay in flight until every
    // measured request has finished (the engine does not do this; a study of the drain's bias).
    bool coolDownTail = false;
    int requests() const { return 10 * concurrency * budgetScale; } // the closed loop's default: 10 × C …
    int warmup() const { return 2 * concurrency; }                  // … of which 2 × C warm-up
};

inline PerformanceModel studyModel()
{
    auto o = SimServer::optionsFromCatalog("Llama-3.3-70B-Instruct", "H100", 2, "FP8");
    return PerformanceModel(o->model, o->gpu, o->gpus, o->precision, o->constants);
}

inline std::vector<RequestRecord> toRecords(const std::vector<VirtualRequest> &run, const StudyConfig &c)
{
    std::vector<RequestRecord> out;
    out.reserve(run.size());
    for (std::size_t i = 0; i < run.size(); ++i) {
        const VirtualRequest &v = run[i];
        RequestRecord r;
        r.seq = i;
        r.warmup = int(i) < c.warmup();
        r.intendedIsl = c.isl;
        r.intendedOsl = v.outputTokens;
        r.tSched = r.tSend = r.tWire = v.sendNs;
        r.tFirstByte = v.tokenNs.empty() ? kNoTime : v.tokenNs.front();
        for (std::int64_t t : v.tokenNs)
            r.events.push_back({t, StreamEvent::Kind::Content, 1});
        r.tEnd = v.doneNs;
        r.httpStatus = 200;
        r.usage.completionTokens = v.outputTokens;
        r.usage.promptTokens = c.isl;
        r.nFirst = 1;
        r.nFirstApproximate = false;
        out.push_back(std::move(r));
    }
    return out;
}

struct Measured {
    std::vector<RequestRecord> records;
    std::vector<RequestMetrics> metrics;
    PointWindow window;
};

inline Measured measure(const StudyConfig &c, std::uint64_t seed, int requests, int warmup)
{
    SchedulerConfig sc;
    sc.jitter = c.jitter;
    sc.seed = seed;
    sc.slowdownPct = c.slowdownPct;
    VirtualClosedLoopSpec spec;
    spec.concurrency = c.concurrency;
    const int tail = c.coolDownTail ? c.concurrency : 0;
    spec.requests = requests + tail;
    spec.promptTokens = c.isl;
    spec.outputTokens = c.oslMin;
    spec.outputTokensMax = c.oslMax;
    StudyConfig cc = c;
    Measured m;
    m.records = toRecords(runVirtualClosedLoop(studyModel(), sc, spec), cc);
    for (std::size_t i = 0; i < m.records.size(); ++i)
        m.records[i].warmup = int(i) < warmup || int(i) >= requests; // the tail is not measured either
    for (const auto &r : m.records)
        m.metrics.push_back(computeRequestMetrics(r));
    PointInput in;
    in.load.mode = PointLoad::Mode::Concurrency;
    in.load.concurrency = c.concurrency;
    in.records = m.records;
    m.window = computeWindow(in);
    return m;
}

struct Figures {
    Interval ttftP90;
    Interval tpotP50;
    Interval outputTps;
};

inline Figures repeatFigures(const StudyConfig &c, std::uint64_t seed, double level)
{
    const Measured m = measure(c, seed, c.requests(), c.warmup());
    PointIntervalOptions o;
    o.level = level;
    o.slices = c.slices;
    Figures f;
    f.ttftP90 =
        pointPercentileBounds(m.records, m.metrics, m.window, PointDistribution::Ttft, 0.9, o).interval;
    f.tpotP50 =
        pointPercentileBounds(m.records, m.metrics, m.window, PointDistribution::Tpot, 0.5, o).interval;
    f.outputTps = steadyOutputTpsInterval(m.records, m.metrics, m.window, o).interval;
    return f;
}

struct Truth {
    double ttftP90 = 0;
    double tpotP50 = 0;
    double outputTps = 0;
};

// The long-run values: one run of 200 × the budget (warm-up as usual), its point estimates.
inline Truth longRunTruth(const StudyConfig &c, std::uint64_t seed = 987654321)
{
    StudyConfig unscaled = c;
    unscaled.budgetScale = 1;
    const Measured m = measure(c, seed, 200 * unscaled.requests(), c.warmup());
    const auto ttft = timeOrderedSample(m.records, m.metrics, m.window, PointDistribution::Ttft);
    const auto tpot = timeOrderedSample(m.records, m.metrics, m.window, PointDistribution::Tpot);
    Truth t;
    t.ttftP90 = quantileBounds(ttft, 0.9, {0.95, false}).interval.estimate;
    t.tpotP50 = quantileBounds(tpot, 0.5, {0.95, false}).interval.estimate;
    PointIntervalOptions o;
    o.slices = 20; // only the estimate is used
    t.outputTps = steadyOutputTpsInterval(m.records, m.metrics, m.window, o).interval.estimate;
    return t;
}

// Where the misses of one metric fall, and how the estimates spread: a miss on one side only, with an
// interval wider than the estimates' spread needs, is a biased estimate, not a narrow interval.
struct MissSides {
    int below = 0, above = 0; // truth below the lower bound / above the upper bound
    double sumEstimate = 0, sumSquares = 0;
    double sumWidth = 0; // of bounded intervals
    int bounded = 0;
    void add(const Interval &iv, double truth)
    {
        below += truth < iv.lower;
        above += truth > iv.upper;
        sumEstimate += iv.estimate;
        sumSquares += iv.estimate * iv.estimate;
        if (iv.bounded()) {
            sumWidth += iv.width();
            ++bounded;
        }
    }
    double mean(int n) const { return n ? sumEstimate / n : 0.0; }
    double sd(int n) const { return n ? std::sqrt(std::max(0.0, sumSquares / n - mean(n) * mean(n))) : 0.0; }
    double meanWidth() const { return bounded ? sumWidth / bounded : 0.0; }
};

struct Coverage {
    int repeats = 0;
    int ttft = 0, tpot = 0, tps = 0;
    MissSides ttftSides, tpotSides, tpsSides;
    double share(int hits) const { return repeats ? double(hits) / repeats : 0.0; }
};

inline Coverage coverage(const StudyConfig &c, const Truth &truth, int repeats, double level,
                         std::uint64_t firstSeed = 1)
{
    Coverage cov;
    cov.repeats = repeats;
    for (int i = 0; i < repeats; ++i) {
        const Figures f = repeatFigures(c, firstSeed + std::uint64_t(i), level);
        cov.ttft += f.ttftP90.contains(truth.ttftP90);
        cov.tpot += f.tpotP50.contains(truth.tpotP50);
        cov.tps += f.outputTps.contains(truth.outputTps);
        cov.ttftSides.add(f.ttftP90, truth.ttftP90);
        cov.tpotSides.add(f.tpotP50, truth.tpotP50);
        cov.tpsSides.add(f.outputTps, truth.outputTps);
    }
    return cov;
}

} // namespace StudySupport

namespace StudySupport {

// A baseline run and a candidate run (seeds of their own) compared on TTFT p90, TPOT p50 and output
// tok/s with the noise-aware rule (Holm over the three).
inline std::vector<ComparisonResult> comparePair(const StudyConfig &base, const StudyConfig &cand,
                                                 std::uint64_t seedBase, std::uint64_t seedCand)
{
    const Figures b = repeatFigures(base, seedBase, kDefaultConfidenceLevel);
    const Figures c = repeatFigures(cand, seedCand, kDefaultConfidenceLevel);
    std::vector<ComparisonInput> in{
        {"ttft_ms.p90", "c", b.ttftP90, c.ttftP90, BetterDirection::Lower},
        {"tpot_ms.p50", "c", b.tpotP50, c.tpotP50, BetterDirection::Lower},
        {"output_tps", "c", b.outputTps, c.outputTps, BetterDirection::Higher},
    };
    return compareRuns(in);
}

} // namespace StudySupport
