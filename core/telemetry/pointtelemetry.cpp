#include "core/telemetry/pointtelemetry.h"

#include "core/telemetry/commonseries.h"
#include "core/telemetry/histogramquantile.h"

#include <algorithm>
#include <cmath>

namespace Throughline {

namespace {

struct WindowStats {
    int n = 0;
    double mean = 0.0;
    double max = 0.0;
};

std::optional<WindowStats> stats(const TelemetrySeries &s, std::int64_t t0, std::int64_t t1)
{
    WindowStats w;
    double sum = 0.0;
    for (const TelemetrySample &p : s.samples) {
        if (p.tNs < t0 || p.tNs > t1 || !std::isfinite(p.value))
            continue;
        w.max = w.n == 0 ? p.value : std::max(w.max, p.value);
        sum += p.value;
        ++w.n;
    }
    if (w.n == 0)
        return std::nullopt;
    w.mean = sum / w.n;
    return w;
}

enum class Combine { SumOfMeans, MaxOfMax, MeanOfMeans };

// Applies `combine` over every series of `name`; peak receives the matching peak (max of maxes, or the sum
// of per-series maxima for SumOfMeans, which bounds the true peak from above).
std::optional<double> combine(const TelemetrySnapshot &snap, const char *name, std::int64_t t0,
                              std::int64_t t1, Combine how, std::optional<double> *peak = nullptr)
{
    double acc = 0.0, peakAcc = 0.0;
    int n = 0;
    for (const TelemetrySeries *s : snap.findAll(name)) {
        auto w = stats(*s, t0, t1);
        if (!w)
            continue;
        switch (how) {
        case Combine::SumOfMeans:
            acc += w->mean;
            peakAcc = n == 0 ? w->max : std::max(peakAcc, w->max);
            break;
        case Combine::MaxOfMax:
            acc = n == 0 ? w->max : std::max(acc, w->max);
            peakAcc = acc;
            break;
        case Combine::MeanOfMeans:
            acc += w->mean;
            peakAcc = n == 0 ? w->max : std::max(peakAcc, w->max);
            break;
        }
        ++n;
    }
    if (n == 0)
        return std::nullopt;
    if (peak)
        *peak = peakAcc;
    return how == Combine::MeanOfMeans ? acc / n : acc;
}

// ∫ value dt over [t0, t1] in value·s, samples held flat to the window edges.
std::optional<double> integrate(const TelemetrySeries &s, std::int64_t t0, std::int64_t t1)
{
    std::vector<TelemetrySample> in;
    for (const TelemetrySample &p : s.samples)
        if (p.tNs >= t0 && p.tNs <= t1 && std::isfinite(p.value))
            in.push_back(p);
    if (in.empty() || t1 <= t0)
        return std::nullopt;
    double joules = in.front().value * double(in.front().tNs - t0) / 1e9;
    for (std::size_t i = 1; i < in.size(); ++i)
        joules += 0.5 * (in[i].value + in[i - 1].value) * double(in[i].tNs - in[i - 1].tNs) / 1e9;
    joules += in.back().value * double(t1 - in.back().tNs) / 1e9;
    return joules;
}

std::optional<double> energy(const TelemetrySnapshot &snap, const char *name, std::int64_t t0,
                             std::int64_t t1)
{
    double total = 0.0;
    int n = 0;
    for (const TelemetrySeries *s : snap.findAll(name))
        if (auto j = integrate(*s, t0, t1)) {
            total += *j;
            ++n;
        }
    return n > 0 ? std::optional<double>(total) : std::nullopt;
}

// Last snapshot at or before t, else the first one after it (window starts before the first scrape).
const HistogramSnapshot *snapshotAt(const TelemetryHistogram &h, std::int64_t t, bool allowAfter)
{
    const HistogramSnapshot *best = nullptr;
    for (const HistogramSnapshot &s : h.snapshots)
        if (s.tNs <= t)
            best = &s;
    if (!best && allowAfter && !h.snapshots.empty())
        best = &h.snapshots.front();
    return best;
}

} // namespace

PointTelemetrySummary PointTelemetry::summarise(const TelemetrySnapshot &snap, std::int64_t t0,
                                                std::int64_t t1, double outputTokens)
{
    using namespace CommonSeries;
    PointTelemetrySummary out;
    out.t0Ns = t0;
    out.t1Ns = t1;

    for (const TelemetrySeries *up : snap.findAll(kScrapeUp))
        for (const TelemetrySample &p : up->samples)
            if (p.tNs >= t0 && p.tNs <= t1) {
                ++out.scrapes;
                if (p.value < 0.5)
                    ++out.scrapeFailures;
            }

    out.meanKvCacheUsage = combine(snap, kKvCacheUsage, t0, t1, Combine::MeanOfMeans, &out.peakKvCacheUsage);
    out.meanWaiting = combine(snap, kWaiting, t0, t1, Combine::SumOfMeans, &out.peakWaiting);
    out.meanRunning = combine(snap, kRunning, t0, t1, Combine::SumOfMeans);
    out.meanGenerationTps = combine(snap, kGenerationTps, t0, t1, Combine::SumOfMeans);
    out.meanGpuUtilPct = combine(snap, kGpuUtilPct, t0, t1, Combine::MeanOfMeans);
    out.peakGpuTempC = combine(snap, kGpuTempC, t0, t1, Combine::MaxOfMax);
    out.meanGpuPowerW = combine(snap, kGpuPowerW, t0, t1, Combine::SumOfMeans);
    out.energyJ = energy(snap, kGpuPowerW, t0, t1);
    if (!out.energyJ) {
        out.energyJ = energy(snap, kGpuEnergyRateW, t0, t1);
        if (!out.meanGpuPowerW)
            out.meanGpuPowerW = combine(snap, kGpuEnergyRateW, t0, t1, Combine::SumOfMeans);
    }
    if (out.energyJ && outputTokens > 0)
        out.energyPerOutputTokenJ = *out.energyJ / outputTokens;

    // Server TTFT over the window: Σ over sources of (snapshot at t1 − snapshot at t0).
    std::vector<double> bounds, cum;
    double dSum = 0.0, dCount = 0.0;
    bool any = false;
    for (const TelemetryHistogram &h : snap.histograms) {
        if (h.name != kServerTtftS)
            continue;
        const HistogramSnapshot *a = snapshotAt(h, t0, true);
        const HistogramSnapshot *b = snapshotAt(h, t1, false);
        if (!a || !b || b->tNs <= a->tNs || b->count < a->count)
            continue; // no interval, or a server restart inside the window
        if (!any) {
            bounds = h.upperBounds;
            cum.assign(bounds.size(), 0.0);
        } else if (bounds != h.upperBounds) {
            continue; // different bucket layouts cannot be added
        }
        for (std::size_t i = 0;
             i < cum.size() && i < b->cumulativeCounts.size() && i < a->cumulativeCounts.size(); ++i)
            cum[i] += b->cumulativeCounts[i] - a->cumulativeCounts[i];
        dSum += b->sum - a->sum;
        dCount += b->count - a->count;
        any = true;
    }
    if (any) {
        out.serverTtftCount = dCount;
        if (dCount > 0) {
            out.serverTtftMeanS = dSum / dCount;
            const double p50 = histogramQuantile(0.5, bounds, cum);
            const double p90 = histogramQuantile(0.9, bounds, cum);
            if (std::isfinite(p50))
                out.serverTtftP50S = p50;
            if (std::isfinite(p90))
                out.serverTtftP90S = p90;
        }
    }
    return out;
}

} // namespace Throughline
