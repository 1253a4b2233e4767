#pragma once
// Reduces the engine's live samples (LiveSnapshot::takeSamples) to what the run monitor draws:
// fixed-width time buckets of latency percentiles and throughput, per-point accumulators for a live
// curve estimate, and error counts by class. Pure computation on the GUI thread's timer; no Qt.
// Bucket times are run-clock seconds (client time; the simulator's time scale is not undone here).

#include "core/run/livesnapshot.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace Throughline {

class LiveRunData
{
public:
    struct SeriesPoint {
        double tS = 0;         // bucket centre, run clock
        double ttftP50Ms = -1; // -1: no sample in the bucket
        double ttftP90Ms = -1;
        double tpotP50Ms = -1;
        double tpotP90Ms = -1;
        double outputTps = 0;   // output tokens of requests finishing in the bucket ÷ bucket width
        double requestRate = 0; // finished requests ÷ bucket width
        int samples = 0;
    };

    struct PointAccum {
        int ok = 0;
        int failed = 0;
        double outTokens = 0;
        double tFirstS = -1;
        double tLastS = -1;
        std::vector<double> tpotMs; // measured TPOTs while the point runs; empty once finishPoint() froze it
        // Set by finishPoint(): TPOT p90 and how many TPOTs it was taken over (the vector is gone then).
        bool frozen = false;
        std::size_t tpotCount = 0;
        double tpotP90Ms = -1;
    };

    explicit LiveRunData(double bucketS = 1.0);

    void reset();
    // Adds samples; returns the buckets that closed (older than the newest bucket minus one, so
    // late samples from slow workers still land in their bucket). timeScales[scenarioIndex] is the
    // simulator's time scale (> 1 = faster than real time; missing = 1): latencies are multiplied
    // and token rates divided by it, so simulated runs show the modelled server's numbers, like
    // the engine's time-scaled aggregates. Bucket times stay client run-clock seconds.
    std::vector<SeriesPoint> ingest(const std::vector<LiveSample> &samples,
                                    const std::vector<double> &timeScales = {});
    // Closes every open bucket (the run finished).
    std::vector<SeriesPoint> flush();

    const std::map<std::string, int> &errorsByClass() const { return m_errors; }
    long long okCount() const { return m_ok; }
    long long failedCount() const { return m_failed; }
    double latestTimeS() const { return m_latestS; }
    const PointAccum *point(int scenario, int point) const;

    // The point finished (the run page saw the next one start): its TPOTs are reduced to the p90 the curve
    // estimate needs and let go, so a long run holds the TPOTs of the running point only, not 8 bytes per
    // request of every point (issue 23). Samples of the point that come later still count in its totals,
    // not in its p90.
    void finishPoint(int scenario, int point);

    // Live curve point of a finished (or running) point from measured samples:
    // x = output tokens/s ÷ gpus, y = 1000 / TPOT p90. nullopt below the p90 reporting rule (n < 100).
    std::optional<std::pair<double, double>> estimateCurvePoint(int scenario, int point, int gpus) const;

private:
    struct Bucket {
        std::vector<double> ttft;
        std::vector<double> tpot;
        double outTokens = 0;
        int finished = 0;
    };
    SeriesPoint close(long long index, Bucket &bucket) const;

    double m_bucketS;
    std::map<long long, Bucket> m_open;
    std::map<std::pair<int, int>, PointAccum> m_points;
    std::map<std::string, int> m_errors;
    long long m_ok = 0;
    long long m_failed = 0;
    double m_latestS = 0;
};

} // namespace Throughline
