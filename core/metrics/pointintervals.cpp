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
    std::vector<std::pair<std::int64_t, double>> keyed;
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
    out.reserve(keyed.size());
    for (const auto &k : keyed)
        out.push_back(k.second);
    return out;
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
