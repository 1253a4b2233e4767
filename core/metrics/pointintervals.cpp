#include "core/metrics/pointintervals.h"

#include "core/metrics/pointrateintervals.h"
#include "core/stats/meaninterval.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <utility>

namespace Throughline {

namespace {
double valueOf(const RequestMetrics &m, PointDistribution which)
{
    switch (which) {
    case PointDistribution::Ttft:
        return m.ttftMs;
    case PointDistribution::TtftQ:
        return m.ttftQMs;
    case PointDistribution::Tpot:
        return m.tpotMs;
    case PointDistribution::E2e:
        return m.e2eMs;
    case PointDistribution::Interactivity:
        return m.interactivityTpsUser;
    case PointDistribution::TpotMlperf:
        return m.tpotMlperfMs;
    case PointDistribution::ChunkGap:
        break;
    }
    return std::nan("");
}

constexpr std::array<std::pair<PointDistribution, std::string_view>, 7> kDistributions{{
    {PointDistribution::Ttft, "ttft_ms"},
    {PointDistribution::TtftQ, "ttft_q_ms"},
    {PointDistribution::Tpot, "tpot_ms"},
    {PointDistribution::E2e, "e2e_ms"},
    {PointDistribution::ChunkGap, "chunk_gap_ms"},
    {PointDistribution::Interactivity, "interactivity_tps_user"},
    {PointDistribution::TpotMlperf, "tpot_mlperf_ms"},
}};

const StatSummary &summaryOf(const PointMetrics &pm, PointDistribution which)
{
    switch (which) {
    case PointDistribution::Ttft:
        return pm.ttftMs;
    case PointDistribution::TtftQ:
        return pm.ttftQMs;
    case PointDistribution::Tpot:
        return pm.tpotMs;
    case PointDistribution::E2e:
        return pm.e2eMs;
    case PointDistribution::ChunkGap:
        return pm.chunkGapMs;
    case PointDistribution::Interactivity:
        return pm.interactivityTpsUser;
    case PointDistribution::TpotMlperf:
        break;
    }
    return pm.tpotMlperfMs;
}

// Successful measured requests (the samples of timeOrderedSample), by send time.
std::vector<std::size_t> measuredInSendOrder(std::span<const RequestRecord> records,
                                             std::span<const RequestMetrics> metrics,
                                             const PointWindow &window)
{
    const std::size_t n = std::min(records.size(), metrics.size());
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < n; ++i)
        if (window.measures(records[i]) && metrics[i].ok)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return records[a].tSend < records[b].tSend; });
    return order;
}

// The lag-window floor for a distribution's series: the in-flight overlap for per-request series (in send
// order); none for chunk gaps, whose series is in event order and long enough for the bandwidth rule.
std::size_t dependenceReach(std::span<const RequestRecord> records, std::span<const RequestMetrics> metrics,
                            const PointWindow &window, PointDistribution which)
{
    return which == PointDistribution::ChunkGap ? 0 : inFlightOverlap(records, metrics, window);
}

void addDistributionIntervals(PointIntervals &out, const PointInput &in,
                              std::span<const RequestMetrics> metrics, const PointWindow &window,
                              const PointResult &values)
{
    const double level = in.confidenceLevel;
    for (const auto &[which, key] : kDistributions) {
        const StatSummary &summary = summaryOf(values.metrics, which);
        if (summary.n == 0)
            continue;
        const std::vector<double> sample = timeOrderedSample(in.records, metrics, window, which);
        std::vector<double> ps;
        std::vector<std::string_view> statKeys;
        for (std::size_t i = 0; i < kPercentiles.size(); ++i) {
            if (!summary.reported(i))
                continue;
            ps.push_back(kPercentiles[i].permille / 1000.0);
            statKeys.push_back(kPercentiles[i].key);
        }
        const std::size_t minimumLag = dependenceReach(in.records, metrics, window, which);
        const std::vector<QuantileBounds> bounds = quantileBounds(sample, ps, {level, true, minimumLag});
        for (std::size_t i = 0; i < bounds.size(); ++i)
            out.set(key, statKeys[i], bounds[i].interval);
        out.set(key, "mean", meanInterval(sample, level, minimumLag));
    }
}
// The content events' times of each request in `order` are in arrival order; a stream whose are not
// (never seen, but cheap to check) sends the caller to the sort.
bool contentTimesAscending(const RequestRecord &r)
{
    std::int64_t prev = kNoTime;
    for (const StreamEvent &e : r.events) {
        if (e.kind != StreamEvent::Kind::Content)
            continue;
        if (prev != kNoTime && e.tNs < prev)
            return false;
        prev = e.tNs;
    }
    return true;
}

// The chunk gaps of the requests in `order`, each keyed by the time of the event that ends it, in ascending
// time; equal times keep the order of the requests in `order`, then of their events — what a stable sort of
// every (time, gap) pair gives. Each request's gaps are already in time order, so they are merged (a heap of
// one cursor per request) instead: the point's finish holds the 8 bytes of the result per output token, not
// 16-byte pairs plus the sort's buffer of as many (issue 23: a long point has millions).
std::vector<double> chunkGapsInEventOrder(std::span<const RequestRecord> records,
                                          const std::vector<std::size_t> &order)
{
    struct Cursor {
        std::int64_t tNs;    // end of the gap the cursor is at
        std::size_t rank;    // the request's position in `order` (ties)
        std::size_t event;   // index of that event in the request's events
        std::int64_t prevNs; // the content event before it
    };
    const auto later = [](const Cursor &a, const Cursor &b) {
        return a.tNs != b.tNs ? a.tNs > b.tNs : a.rank > b.rank;
    };
    // The cursor's next gap of request records[order[c.rank]] from event index `from` on; false when none.
    const auto advance = [&](Cursor &c, std::size_t from) {
        const std::vector<StreamEvent> &events = records[order[c.rank]].events;
        for (std::size_t k = from; k < events.size(); ++k) {
            if (events[k].kind != StreamEvent::Kind::Content)
                continue;
            if (c.prevNs != kNoTime) {
                c.tNs = events[k].tNs;
                c.event = k;
                return true;
            }
            c.prevNs = events[k].tNs;
        }
        return false;
    };
    std::vector<Cursor> heap;
    std::size_t total = 0;
    bool ascending = true;
    for (std::size_t rank = 0; rank < order.size(); ++rank) {
        const RequestRecord &r = records[order[rank]];
        ascending = ascending && contentTimesAscending(r);
        Cursor c{0, rank, 0, kNoTime};
        if (advance(c, 0))
            heap.push_back(c);
        const auto content = std::count_if(r.events.begin(), r.events.end(), [](const StreamEvent &e) {
            return e.kind == StreamEvent::Kind::Content;
        });
        total += content > 1 ? std::size_t(content - 1) : 0;
    }
    std::vector<double> out;
    out.reserve(total);
    if (!ascending) { // the sort of every pair, as before
        std::vector<std::pair<std::int64_t, double>> keyed;
        keyed.reserve(total);
        for (std::size_t i : order) {
            std::int64_t prev = kNoTime;
            for (const StreamEvent &e : records[i].events) {
                if (e.kind != StreamEvent::Kind::Content)
                    continue;
                if (prev != kNoTime)
                    keyed.emplace_back(e.tNs, double(e.tNs - prev) / 1e6);
                prev = e.tNs;
            }
        }
        std::stable_sort(keyed.begin(), keyed.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        for (const auto &k : keyed)
            out.push_back(k.second);
        return out;
    }
    std::make_heap(heap.begin(), heap.end(), later);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        Cursor &c = heap.back();
        out.push_back(double(c.tNs - c.prevNs) / 1e6);
        c.prevNs = c.tNs;
        if (advance(c, c.event + 1))
            std::push_heap(heap.begin(), heap.end(), later);
        else
            heap.pop_back();
    }
    return out;
}
} // namespace

std::size_t inFlightOverlap(std::span<const RequestRecord> records, std::span<const RequestMetrics> metrics,
                            const PointWindow &window)
{
    const std::vector<std::size_t> order = measuredInSendOrder(records, metrics, window);
    if (order.empty())
        return 0;
    std::vector<std::int64_t> sends;
    sends.reserve(order.size());
    for (std::size_t i : order)
        sends.push_back(records[i].tSend);
    double later = 0; // Σ over requests of the measured requests sent after it and before its end
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::int64_t end = records[order[k]].tEnd;
        if (end == kNoTime)
            continue;
        const auto until = std::lower_bound(sends.begin() + std::ptrdiff_t(k) + 1, sends.end(), end);
        later += double(until - sends.begin()) - double(k) - 1;
    }
    return std::size_t(std::ceil(later / double(order.size())));
}

std::vector<double> timeOrderedSample(std::span<const RequestRecord> records,
                                      std::span<const RequestMetrics> metrics, const PointWindow &window,
                                      PointDistribution which)
{
    const std::vector<std::size_t> order = measuredInSendOrder(records, metrics, window);
    std::vector<double> out;
    if (which != PointDistribution::ChunkGap) {
        for (std::size_t i : order) {
            const double v = valueOf(metrics[i], which);
            if (!std::isnan(v))
                out.push_back(v);
        }
        return out;
    }
    // Chunk gaps keyed by the time of the event that ends them: gaps of one step across concurrent
    // requests are neighbours, which is where their dependence is.
    return chunkGapsInEventOrder(records, order);
}

QuantileBounds pointPercentileBounds(std::span<const RequestRecord> records,
                                     std::span<const RequestMetrics> metrics, const PointWindow &window,
                                     PointDistribution which, double p, const PointIntervalOptions &options)
{
    const std::vector<double> sample = timeOrderedSample(records, metrics, window, which);
    return quantileBounds(sample, p, {options.level, true, dependenceReach(records, metrics, window, which)});
}

PointIntervals computePointIntervals(const PointInput &in, std::span<const RequestMetrics> metrics,
                                     const PointWindow &window, const PointResult &values)
{
    PointIntervals out;
    const double level = in.confidenceLevel;
    if (!(level > 0 && level < 1))
        return out;
    out.level = level;
    addDistributionIntervals(out, in, metrics, window, values);

    addRateIntervals(out, in, metrics, window);

    // Keep only what the point reports: an interval of an undefined value would be noise in the file.
    for (auto m = out.byMetric.begin(); m != out.byMetric.end();) {
        for (auto st = m->second.begin(); st != m->second.end();)
            st = values.metricValue(m->first, st->first) ? std::next(st) : m->second.erase(st);
        m = m->second.empty() ? out.byMetric.erase(m) : std::next(m);
    }
    if (out.byMetric.empty())
        out.level = 0;
    return out;
}

} // namespace Throughline
