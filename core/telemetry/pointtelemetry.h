#pragma once
// Per-load-point telemetry summary for results, reports and the run detail (pure).
//
// Over the window [t0, t1] of the run clock: peak and mean KV-cache usage, mean/peak server queue length,
// mean running batch, GPU utilisation/temperature/power, energy, energy per output token, and the server's
// own TTFT distribution over the window (difference of the cumulative histogram snapshots at the window's
// edges). With several series of one kind (DP engines, GPUs, replicas): queue/running/power/throughput are
// sums of per-series means; KV usage and temperature take the maximum; utilisation the mean.
// Energy = Σ over GPUs of the time integral of gpu_power_w over the window (trapezoid between samples, the
// first/last sample held to the window edges); falls back to gpu_energy_rate_w when power is absent.

#include "core/telemetry/telemetrysnapshot.h"

#include <cstdint>
#include <optional>

namespace Throughline {

struct PointTelemetrySummary {
    std::int64_t t0Ns = 0;
    std::int64_t t1Ns = 0;
    int scrapes = 0; // scrape attempts in the window (all sources)
    int scrapeFailures = 0;
    std::optional<double> peakKvCacheUsage; // ratio 0…1
    std::optional<double> meanKvCacheUsage;
    std::optional<double> meanWaiting; // requests
    std::optional<double> peakWaiting;
    std::optional<double> meanRunning;
    std::optional<double> meanGenerationTps; // server-reported tokens/s
    std::optional<double> meanGpuUtilPct;
    std::optional<double> peakGpuTempC;
    std::optional<double> meanGpuPowerW; // all GPUs together
    std::optional<double> energyJ;       // all GPUs, over the window
    std::optional<double> energyPerOutputTokenJ;
    std::optional<double> serverTtftMeanS;
    std::optional<double> serverTtftP50S;
    std::optional<double> serverTtftP90S;
    std::optional<double> serverTtftCount; // observations in the window
};

class PointTelemetry
{
public:
    // outputTokens: the point's client-measured output tokens in [t0, t1] (for energy per token); ≤ 0 skips
    // it.
    static PointTelemetrySummary summarise(const TelemetrySnapshot &snapshot, std::int64_t t0Ns,
                                           std::int64_t t1Ns, double outputTokens);
};

} // namespace Throughline
