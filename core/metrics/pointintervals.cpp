#include "core/metrics/pointintervals.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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
    case PointDistribution::ChunkGap:
        break;
    }
    return std::nan("");
}

std::size_t measuredOk(std::span<const RequestRecord> records, std::span<const RequestMetrics> metrics,
                       const PointWindow &window)
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < records.size() && i < metrics.size(); ++i)
        n += window.measures(records[i]) && metrics[i].ok;
    return n;
}
} // namespace

std::vector<double> timeOrderedSample(std::span<const RequestRecord> records,
                                      std::span<const RequestMetrics> metrics, const PointWindow &window,
                                      PointDistribution which)
{
    const std::size_t n = std::min(records.size(), metrics.size());
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < n; ++i)
        if (window.measures(records[i]) && metrics[i].ok)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return records[a].tSend < records[b].tSend; });
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
    return quantileBounds(sample, p, {options.level, true});
}

BootstrapResult steadyOutputTpsInterval(std::span<const RequestRecord> records,
                                        std::span<const RequestMetrics> metrics, const PointWindow &window,
                                        const PointIntervalOptions &options)
{
    const std::size_t n = std::min(records.size(), metrics.size());
    std::vector<double> times, tokens;
    for (std::size_t i = 0; i < n; ++i) {
        const RequestMetrics &m = metrics[i];
        if (m.contentEvents == 0)
            continue;
        const std::vector<double> perEvent = tokensPerContentEvent(records[i], m.nOut);
        std::size_t k = 0;
        for (const StreamEvent &e : records[i].events) {
            if (e.kind != StreamEvent::Kind::Content)
                continue;
            times.push_back(double(e.tNs) / 1e9);
            tokens.push_back(k < perEvent.size() ? perEvent[k] : 0.0);
            ++k;
        }
    }
    std::size_t slices = options.slices;
    if (slices == 0)
        slices = std::clamp<std::size_t>(measuredOk(records, metrics, window) / 4, 20, 400);
    const SlicedWindow w =
        sliceWindow(times, tokens, double(window.w0Ns) / 1e9, double(window.w1Ns) / 1e9, slices);
    BlockBootstrapOptions o;
    o.level = options.level;
    return blockBootstrapRatio(w.sums, w.seconds, o);
}

} // namespace Throughline
