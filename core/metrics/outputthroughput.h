#pragma once
// Output-token throughput of one load point (ARCHITECTURE.md "Per load point"), accumulated request by
// request so that a caller can stream records: the steady-state default and the `whole` variant. The one
// definition: aggregatePoint (engine, end of each point) and the history's re-derivation from stored rows
// and event blobs (ui/history/pointderiver) both feed it. Pure computation; any thread.

#include "core/engine/requestrecord.h"
#include "core/metrics/pointaggregate.h"
#include "core/metrics/requestmetrics.h"

#include <cstdint>

namespace Throughline {

class OutputThroughput
{
public:
    explicit OutputThroughput(const PointWindow &window)
        : m_window(window)
    {
    }

    // Every record of the point, warm-up and failed ones included (`m` = its computeRequestMetrics).
    void add(const RequestRecord &r, const RequestMetrics &m);

    // Steady state: output tokens of content events timestamped in [W0, W1] from any request, ÷ (W1 − W0)
    // in seconds; tokens per event from per-event counts when every content event has one, else N_out
    // spread evenly over the request's content events. NaN when the window is empty.
    double steadyTps() const;
    // `whole` (vLLM/AIPerf): Σ N_out of successful measured requests ÷ (max t_end − min t_send) of those.
    double wholeTps() const;
    double tokensInWindow() const { return m_tokensInWindow; }
    // Denominator of wholeTps() in seconds (0 when undefined).
    double wholeSeconds() const
    {
        return m_wholeEndNs != kNoTime && m_wholeStartNs != kNoTime && m_wholeEndNs > m_wholeStartNs
                   ? static_cast<double>(m_wholeEndNs - m_wholeStartNs) / 1e9
                   : 0.0;
    }

private:
    PointWindow m_window;
    double m_tokensInWindow = 0;
    double m_outWhole = 0;
    std::int64_t m_wholeStartNs = kNoTime;
    std::int64_t m_wholeEndNs = kNoTime;
};

} // namespace Throughline
