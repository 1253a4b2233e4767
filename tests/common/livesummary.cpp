#include "tests/common/livesummary.h"

#include "core/metrics/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Throughline {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Percentile of an unsorted sample by selection (O(n)); same interpolation as percentileSorted.
double select(std::vector<double> &v, double p)
{
    if (v.empty())
        return kNaN;
    const double h = static_cast<double>(v.size() - 1) * p;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
    const double a = v[lo];
    const double frac = h - static_cast<double>(lo);
    if (frac == 0.0 || lo + 1 >= v.size())
        return a;
    const double b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
    return a + frac * (b - a);
}
} // namespace

LiveSummary::LiveSummary(std::chrono::nanoseconds window, std::chrono::nanoseconds bin,
                         std::size_t historyBins)
    : m_windowNs(std::max<std::int64_t>(1, window.count()))
    , m_binNs(std::max<std::int64_t>(1, bin.count()))
    , m_historyBins(std::max<std::size_t>(1, historyBins))
{
}

void LiveSummary::reset()
{
    m_samples.clear();
    m_bins.clear();
    m_firstBinIndex = 0;
    m_totalOk = m_totalFailed = 0;
}

void LiveSummary::add(const RequestRecord &r)
{
    add(r, computeRequestMetrics(r));
}

void LiveSummary::add(const RequestRecord &r, const RequestMetrics &m)
{
    const std::int64_t tEnd = r.tEnd != kNoTime ? r.tEnd : r.tSend;
    m_samples.push_back({tEnd, m.ok, m.ttftMs, m.tpotMs, m.e2eMs});
    (m.ok ? m_totalOk : m_totalFailed) += 1;
    if (m.contentEvents > 0) {
        const std::vector<double> per = tokensPerContentEvent(r, m.nOut);
        std::size_t k = 0;
        for (const StreamEvent &e : r.events)
            if (e.kind == StreamEvent::Kind::Content)
                addTokens(e.tNs, per[k++]);
    }
}

void LiveSummary::addTokens(std::int64_t tNs, double tokens)
{
    const std::int64_t idx = tNs >= 0 ? tNs / m_binNs : (tNs - m_binNs + 1) / m_binNs;
    if (m_bins.empty()) {
        m_firstBinIndex = idx;
        m_bins.push_back(0);
    }
    if (idx < m_firstBinIndex) {
        if (m_firstBinIndex - idx > static_cast<std::int64_t>(m_historyBins))
            return; // older than the history: dropped
        while (idx < m_firstBinIndex) {
            m_bins.push_front(0);
            --m_firstBinIndex;
        }
    }
    while (idx >= m_firstBinIndex + static_cast<std::int64_t>(m_bins.size()))
        m_bins.push_back(0);
    m_bins[static_cast<std::size_t>(idx - m_firstBinIndex)] += tokens;
    while (m_bins.size() > m_historyBins) {
        m_bins.pop_front();
        ++m_firstBinIndex;
    }
}

void LiveSummary::prune(std::int64_t nowNs)
{
    const std::int64_t cutoff = nowNs - m_windowNs;
    // Records arrive roughly in t_end order; drop from the front while old.
    while (!m_samples.empty() && m_samples.front().tEndNs < cutoff)
        m_samples.pop_front();
}

LiveSnapshot LiveSummary::snapshot(std::int64_t nowNs)
{
    prune(nowNs);
    LiveSnapshot s;
    s.nowNs = nowNs;
    s.windowS = static_cast<double>(m_windowNs) / 1e9;
    s.totalCompleted = m_totalOk;
    s.totalFailed = m_totalFailed;
    std::vector<double> ttft, tpot, e2e;
    const std::int64_t cutoff = nowNs - m_windowNs;
    for (const Sample &x : m_samples) {
        if (x.tEndNs < cutoff || x.tEndNs > nowNs)
            continue;
        if (!x.ok) {
            ++s.failed;
            continue;
        }
        ++s.completed;
        if (!std::isnan(x.ttftMs))
            ttft.push_back(x.ttftMs);
        if (!std::isnan(x.tpotMs))
            tpot.push_back(x.tpotMs);
        if (!std::isnan(x.e2eMs))
            e2e.push_back(x.e2eMs);
    }
    s.ttftN = ttft.size();
    s.tpotN = tpot.size();
    s.ttftP50Ms = select(ttft, 0.5);
    s.ttftP90Ms = select(ttft, 0.9);
    s.ttftP99Ms = select(ttft, 0.99);
    s.tpotP50Ms = select(tpot, 0.5);
    s.tpotP90Ms = select(tpot, 0.9);
    s.e2eP50Ms = select(e2e, 0.5);
    s.requestRate = static_cast<double>(s.completed) / s.windowS;

    // Tokens in [cutoff, now]: whole bins inside, partial bins prorated by overlap.
    double tokens = 0;
    const double binS = static_cast<double>(m_binNs) / 1e9;
    for (std::size_t i = 0; i < m_bins.size(); ++i) {
        const std::int64_t b0 = (m_firstBinIndex + static_cast<std::int64_t>(i)) * m_binNs;
        const std::int64_t b1 = b0 + m_binNs;
        const std::int64_t a = std::max(b0, cutoff);
        const std::int64_t b = std::min(b1, nowNs);
        if (b > a)
            tokens += m_bins[i] * static_cast<double>(b - a) / static_cast<double>(m_binNs);
        s.tokensPerSecond.emplace_back(static_cast<double>(b0) / 1e9, m_bins[i] / binS);
    }
    s.outputTps = tokens / s.windowS;
    return s;
}

} // namespace Throughline
