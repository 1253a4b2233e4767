#pragma once
// Stall detection over one load point's RequestRecords (pure; usable live on a snapshot and after the point).
//
// A stall is a gap with no SSE event at all, after the stream's first content event, longer than the
// threshold: between consecutive events of any kind (content, usage, finish, [DONE] — anything received
// counts as "something"), and from the last event to t_end, or to `nowNs` for a request still in flight.
// Optionally the wait before the first content event (t_send → first token) is checked too.
// Threshold: absoluteThresholdNs, and/or medianGapFactor × the point's median content-event gap (pooled
// over all requests, ARCHITECTURE "chunk gaps"), floored at minThresholdNs; when both are given a gap must
// exceed both (the larger limit applies).

#include "core/engine/requestrecord.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace Throughline {

struct StallOptions {
    std::int64_t absoluteThresholdNs = 0;      // > 0 enables the absolute limit
    double medianGapFactor = 10.0;             // > 0 enables k × median chunk gap
    std::int64_t minThresholdNs = 250'000'000; // floor of the relative limit (250 ms)
    bool includeWarmup = true;                 // warm-up requests are real load and can stall too
    bool includeTimeToFirstToken = false;
    std::int64_t nowNs = kNoTime; // live: open gap of in-flight requests ends here
    std::size_t worstCount = 10;
};

struct StallGap {
    std::int64_t startNs = 0; // run clock
    std::int64_t endNs = 0;
    bool open = false; // still running at nowNs (request in flight)
    std::int64_t lengthNs() const { return endNs - startNs; }
};

struct StalledRequest {
    std::uint64_t seq = 0;
    int replica = 0;
    bool warmup = false;
    bool inFlight = false;
    std::int64_t tSend = kNoTime;
    std::int64_t tFirstContent = kNoTime;
    std::int64_t tEnd = kNoTime;
    std::int64_t longestGapNs = 0;
    std::vector<StallGap> stalls;           // gaps above the threshold, in time order
    std::vector<std::int64_t> eventTimesNs; // every event's time (timeline for the UI), run clock
};

struct StallReport {
    std::int64_t thresholdNs = kNoTime; // kNoTime: no usable threshold (no gaps to take a median of)
    std::int64_t medianChunkGapNs = kNoTime;
    int requestsChecked = 0;
    int requestsStalled = 0;
    int stallsTotal = 0;
    std::int64_t longestGapNs = 0;
    std::vector<StalledRequest> worst; // by longest stall, descending, at most worstCount
};

class StallDetector
{
public:
    static StallReport analyse(const std::vector<RequestRecord> &records, const StallOptions &options = {});
    // Median gap between consecutive content events, pooled over the records; kNoTime when there is none.
    static std::int64_t medianContentGapNs(const std::vector<RequestRecord> &records,
                                           bool includeWarmup = true);
};

} // namespace Throughline
