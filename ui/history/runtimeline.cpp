#include "ui/history/runtimeline.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace Throughline {

double RunTimeline::bucketFor(double spanS, double minS)
{
    const double raw = spanS / 150.0;
    if (!(raw > minS))
        return minS;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw)
            return m * mag;
    return 10 * mag;
}

double RunTimeline::percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(v.begin(), v.end());
    const double h = (double(v.size()) - 1) * q / 100.0;
    const auto lo = std::size_t(h);
    return lo + 1 < v.size() ? v[lo] + (h - double(lo)) * (v[lo + 1] - v[lo]) : v[lo];
}

RunTimeline::Series RunTimeline::compute(const std::vector<RequestRow> &rows, double bucketS)
{
    Series out;
    std::int64_t first = std::numeric_limits<std::int64_t>::max(),
                 last = std::numeric_limits<std::int64_t>::min();
    for (const RequestRow &r : rows) {
        if (r.tSendNs == kNoTime)
            continue;
        ++out.requests;
        first = std::min(first, r.tSendNs);
        last = std::max(last, r.tEndNs != kNoTime ? r.tEndNs : r.tSendNs);
    }
    if (out.requests == 0)
        return out;
    out.t0S = double(first) / 1e9;
    out.t1S = double(last) / 1e9;
    out.bucketS = bucketS > 0 ? bucketS : bucketFor(out.t1S - out.t0S);
    // Buckets aligned to multiples of the width on the run clock (stable under a different first request).
    const double w = out.bucketS;
    const auto firstBucket = static_cast<std::int64_t>(std::floor(out.t0S / w));
    const auto nBuckets = static_cast<std::size_t>(std::floor(out.t1S / w) - double(firstBucket)) + 1;
    auto bucketOf = [&](std::int64_t tNs) {
        const auto b = static_cast<std::int64_t>(std::floor(double(tNs) / 1e9 / w)) - firstBucket;
        return static_cast<std::size_t>(std::clamp<std::int64_t>(b, 0, std::int64_t(nBuckets) - 1));
    };
    std::vector<double> tokens(nBuckets, 0.0), finished(nBuckets, 0.0);
    std::vector<std::vector<double>> ttft(nBuckets), tpot(nBuckets);
    std::vector<std::pair<std::int64_t, int>> edges; // (t_ns, +1 send / −1 end)
    edges.reserve(rows.size() * 2);
    for (const RequestRow &r : rows) {
        if (r.tSendNs == kNoTime)
            continue;
        if (r.tEndNs != kNoTime && r.tEndNs >= r.tSendNs) {
            edges.emplace_back(r.tSendNs, +1);
            edges.emplace_back(r.tEndNs, -1);
        }
        if (r.errorClass != 0 || r.tEndNs == kNoTime)
            continue;
        const std::size_t b = bucketOf(r.tEndNs);
        const int nOut = std::max(0, r.nOut);
        tokens[b] += nOut;
        finished[b] += 1;
        out.outputTokens += nOut;
        if (r.ttftUs >= 0)
            ttft[b].push_back(double(r.ttftUs) / 1000.0);
        if (r.tpotUs >= 0)
            tpot[b].push_back(double(r.tpotUs) / 1000.0);
    }
    std::sort(edges.begin(), edges.end());
    // Sweep: integral of the in-flight count over each bucket.
    std::vector<double> area(nBuckets, 0.0); // request·seconds
    int inFlight = 0;
    double prevS = double(firstBucket) * w;
    auto accumulate = [&](double toS) {
        while (prevS < toS) {
            const auto b = static_cast<std::size_t>(std::floor(prevS / w + 1e-9) - double(firstBucket));
            if (b >= nBuckets)
                break;
            const double bucketEnd = (double(firstBucket) + double(b) + 1) * w;
            const double next = std::min(toS, bucketEnd);
            area[b] += inFlight * (next - prevS);
            prevS = next;
        }
    };
    for (const auto &[tNs, delta] : edges) {
        accumulate(double(tNs) / 1e9);
        inFlight += delta;
    }
    for (std::size_t b = 0; b < nBuckets; ++b) {
        const double centre = (double(firstBucket) + double(b) + 0.5) * w;
        out.outputTps.append(QPointF(centre, tokens[b] / w));
        out.requestRate.append(QPointF(centre, finished[b] / w));
        out.inFlight.append(QPointF(centre, area[b] / w));
        auto add = [&](QList<QPointF> &p50, QList<QPointF> &p90, QList<QPointF> &p99,
                       std::vector<double> &v) {
            if (v.empty())
                return;
            p50.append(QPointF(centre, percentile(v, 50)));
            p90.append(QPointF(centre, percentile(v, 90)));
            // ≥ 100 samples: looser than the tables' reportable-p99 rule (1,000); a time plot shows trends.
            if (v.size() >= 100)
                p99.append(QPointF(centre, percentile(v, 99)));
        };
        add(out.ttftP50, out.ttftP90, out.ttftP99, ttft[b]);
        add(out.tpotP50, out.tpotP90, out.tpotP99, tpot[b]);
    }
    return out;
}

} // namespace Throughline
