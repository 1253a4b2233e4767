#pragma once
// The run-monitor views recomputed from stored request rows: output tokens/s, latency percentiles and
// in-flight requests over run time, in fixed-width buckets like the live monitor (LiveRunData), but over the
// whole stored scenario at once. Pure computation on value types; any thread.
//
// Definitions (run clock, seconds since the run's t=0):
//  - output tokens/s: n_out of successful requests finishing (t_end) in a bucket ÷ bucket width;
//  - TTFT/TPOT p50/p90/p99: over successful requests finishing in the bucket (p99 only with ≥ 100 of them —
//    a trend, not the tables' reportable p99);
//  - in flight: time-average over the bucket of the requests between t_send and t_end (exact sweep).

#include "core/storage/storagetypes.h"

#include <QList>
#include <QPointF>

#include <vector>

namespace Throughline {

class RunTimeline
{
public:
    struct Series {
        double bucketS = 1;
        QList<QPointF> outputTps; // (bucket centre s, tokens/s)
        QList<QPointF> requestRate;
        QList<QPointF> ttftP50, ttftP90, ttftP99; // ms; buckets without samples are left out
        QList<QPointF> tpotP50, tpotP90, tpotP99;
        QList<QPointF> inFlight;       // (bucket centre s, mean requests in flight)
        int requests = 0;              // rows with a send time (warm-up included: it loads the server too)
        std::int64_t outputTokens = 0; // Σ n_out of successful rows with an end time
        double t0S = 0, t1S = 0;       // first send, last end
    };

    // Bucket width for a span: about 150 buckets, rounded to 1-2-5 steps, never below `minS`.
    static double bucketFor(double spanS, double minS = 1.0);
    // bucketS <= 0: bucketFor(span of the rows).
    static Series compute(const std::vector<RequestRow> &rows, double bucketS = 0);
    // NumPy-linear percentile of an unsorted sample (q in [0, 100]); NaN when empty.
    static double percentile(std::vector<double> v, double q);
};

} // namespace Throughline
