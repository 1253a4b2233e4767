#include "core/engine/stalldetector.h"

#include <algorithm>
#include <cmath>

namespace Throughline {

std::int64_t StallDetector::medianContentGapNs(const std::vector<RequestRecord> &records, bool includeWarmup)
{
    std::vector<std::int64_t> gaps;
    for (const RequestRecord &r : records) {
        if (r.warmup && !includeWarmup)
            continue;
        std::int64_t prev = kNoTime;
        for (const StreamEvent &e : r.events) {
            if (e.kind != StreamEvent::Kind::Content)
                continue;
            if (prev != kNoTime)
                gaps.push_back(e.tNs - prev);
            prev = e.tNs;
        }
    }
    if (gaps.empty())
        return kNoTime;
    // Median with linear interpolation between the two middle values (NumPy default).
    const std::size_t mid = gaps.size() / 2;
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(mid), gaps.end());
    const std::int64_t upper = gaps[mid];
    if (gaps.size() % 2 == 1)
        return upper;
    const std::int64_t lower =
        *std::max_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(mid));
    return lower + (upper - lower) / 2;
}

StallReport StallDetector::analyse(const std::vector<RequestRecord> &records, const StallOptions &options)
{
    StallReport report;
    report.medianChunkGapNs = medianContentGapNs(records, options.includeWarmup);

    std::int64_t threshold = kNoTime;
    if (options.medianGapFactor > 0 && report.medianChunkGapNs != kNoTime) {
        const auto rel = static_cast<std::int64_t>(
            std::llround(options.medianGapFactor * double(report.medianChunkGapNs)));
        threshold = std::max(rel, options.minThresholdNs);
    }
    if (options.absoluteThresholdNs > 0)
        threshold = threshold == kNoTime ? options.absoluteThresholdNs
                                         : std::max(threshold, options.absoluteThresholdNs);
    report.thresholdNs = threshold;

    std::vector<StalledRequest> stalled;
    for (const RequestRecord &r : records) {
        if (r.warmup && !options.includeWarmup)
            continue;
        ++report.requestsChecked;
        if (threshold == kNoTime)
            continue;
        StalledRequest s;
        s.seq = r.seq;
        s.replica = r.replica;
        s.warmup = r.warmup;
        s.tSend = r.tSend;
        s.tEnd = r.tEnd;
        s.inFlight = r.tEnd == kNoTime;

        auto consider = [&](std::int64_t from, std::int64_t to, bool open) {
            if (from == kNoTime || to == kNoTime || to - from <= threshold)
                return;
            s.stalls.push_back(StallGap{from, to, open});
            s.longestGapNs = std::max(s.longestGapNs, to - from);
        };

        std::int64_t prev = kNoTime;
        for (const StreamEvent &e : r.events) {
            s.eventTimesNs.push_back(e.tNs);
            if (s.tFirstContent == kNoTime) {
                if (e.kind == StreamEvent::Kind::Content) {
                    s.tFirstContent = e.tNs;
                    if (options.includeTimeToFirstToken)
                        consider(r.tSend, e.tNs, false);
                    prev = e.tNs;
                }
                continue;
            }
            consider(prev, e.tNs, false);
            prev = e.tNs;
        }
        if (s.tFirstContent == kNoTime && options.includeTimeToFirstToken) {
            // No token yet: the whole wait is one gap (open while in flight).
            const std::int64_t end = r.tEnd != kNoTime ? r.tEnd : options.nowNs;
            consider(r.tSend, end, r.tEnd == kNoTime);
        } else if (prev != kNoTime) {
            if (r.tEnd != kNoTime)
                consider(prev, r.tEnd, false);
            else if (options.nowNs != kNoTime)
                consider(prev, options.nowNs, true);
        }
        if (s.stalls.empty())
            continue;
        ++report.requestsStalled;
        report.stallsTotal += static_cast<int>(s.stalls.size());
        report.longestGapNs = std::max(report.longestGapNs, s.longestGapNs);
        stalled.push_back(std::move(s));
    }
    std::sort(stalled.begin(), stalled.end(), [](const StalledRequest &a, const StalledRequest &b) {
        return a.longestGapNs != b.longestGapNs ? a.longestGapNs > b.longestGapNs : a.seq < b.seq;
    });
    if (stalled.size() > options.worstCount)
        stalled.resize(options.worstCount);
    report.worst = std::move(stalled);
    return report;
}

} // namespace Throughline
