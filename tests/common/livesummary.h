#pragma once
// Cheap rolling summary for live UI snapshots (~10 Hz): TTFT/TPOT/E2E percentiles over the
// requests that finished in the last `window`, output tokens/s over the same window, and a
// tokens/s time series in fixed bins for plotting.
// Not thread-safe: one owner (the engine's aggregation thread) adds records and takes snapshots;
// the snapshot is an immutable value that can be handed to the UI.
// Percentiles here are the raw linear-interpolation values with their n (the min-n rule is for
// reported results; the UI greys values with low n). Tokens are binned by content-event time when
// the record arrives, i.e. a request's tokens appear once it finished.

#include "core/engine/requestrecord.h"
#include "core/metrics/requestmetrics.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <vector>

namespace Throughline {

struct LiveSnapshot {
    std::int64_t nowNs = 0;
    double windowS = 0;
    std::size_t completed = 0;      // ok requests that finished inside the window
    std::size_t failed = 0;         // failed requests that finished inside the window
    std::size_t totalCompleted = 0; // since construction/reset
    std::size_t totalFailed = 0;
    double ttftP50Ms = 0, ttftP90Ms = 0, ttftP99Ms = 0; // NaN when no sample
    double tpotP50Ms = 0, tpotP90Ms = 0;
    double e2eP50Ms = 0;
    std::size_t ttftN = 0, tpotN = 0;
    double outputTps = 0;   // tokens of content events in [now − window, now] ÷ window
    double requestRate = 0; // ok completions in the window ÷ window
    // (bin start in s since run t=0, tokens/s in that bin), oldest first, up to the history length.
    std::vector<std::pair<double, double>> tokensPerSecond;
};

class LiveSummary
{
public:
    explicit LiveSummary(std::chrono::nanoseconds window = std::chrono::seconds(10),
                         std::chrono::nanoseconds bin = std::chrono::seconds(1),
                         std::size_t historyBins = 600);

    void add(const RequestRecord &r); // computes the request metrics itself
    void add(const RequestRecord &r, const RequestMetrics &m);
    LiveSnapshot snapshot(std::int64_t nowNs);
    void reset();

private:
    struct Sample {
        std::int64_t tEndNs;
        bool ok;
        double ttftMs, tpotMs, e2eMs;
    };
    void addTokens(std::int64_t tNs, double tokens);
    void prune(std::int64_t nowNs);

    std::int64_t m_windowNs;
    std::int64_t m_binNs;
    std::size_t m_historyBins;
    std::deque<Sample> m_samples;     // ordered by arrival (≈ t_end)
    std::deque<double> m_bins;        // tokens per bin
    std::int64_t m_firstBinIndex = 0; // bin index of m_bins.front()
    std::size_t m_totalOk = 0;
    std::size_t m_totalFailed = 0;
};

} // namespace Throughline
