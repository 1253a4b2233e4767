// RunController: a finished load point → PointOutcome (metrics, client self-observation, telemetry, stalls).
#include "core/run/runcontrollerimpl.h"

#include "core/engine/modeltime.h"
#include "core/engine/readdelayhistogram.h"
#include "core/metrics/clientbudget.h"
#include "core/metrics/jsonnumber.h"
#include "core/metrics/pointanalysis.h"
#include "core/engine/processstats.h"
#include "core/metrics/pointaggregate.h"
#include "core/metrics/stats.h"
#include "core/run/pointtiming.h"
#include "core/workload/workloaddriver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

namespace Throughline {

namespace {

// Linear-interpolated percentile (NumPy's default) of the client's self-observation samples.
double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return percentileSorted(v, p / 100.0); // p in percent
}

} // namespace

PointOutcome RunController::Impl::finishPoint(const Scenario &sc, PointLoad load, std::int64_t scheduleEndNs,
                                              bool truncated, double cpu0, std::int64_t wall0,
                                              double timeScale, bool simulated)
{
    Point &p = point;
    PointOutcome out;
    out.pointIndex = p.pointIndex;
    std::vector<RequestRecord> recs;
    int missingRecords = 0; // sent, but no record came back before the point closed
    {
        std::lock_guard lock(p.mutex);
        recs.swap(p.records);
        out.aborted = p.errorAbort;
        missingRecords = p.sent - p.finished;
    }
    std::sort(recs.begin(), recs.end(),
              [](const RequestRecord &a, const RequestRecord &b) { return a.seq < b.seq; });
    // Client self-observation stays in real (wall) time: it judges the client, not the simulated server.
    std::vector<double> lateness;
    lateness.reserve(recs.size());
    for (const RequestRecord &r : recs)
        if (!r.warmup && r.tSend != kNoTime && r.tSched != kNoTime)
            lateness.push_back(static_cast<double>(r.tSend - r.tSched) / 1e6);
    const auto blockedMs = static_cast<double>(sendBlockedNs(recs)) / 1e6; // wall time, before scaling
    // The server's clocks meet the client's wall clock: joined before the records move into model time.
    PointTimingSource timingSource = pointTimingSource(sc, p.urls);
    timingSource.fileOffset = &traceFileOffsets[timingSource.file];
    if (p.builder)
        timingSource.headers = p.builder->authHeaders();
    PointTiming timing = joinPointTiming(timingSource, recs, p.builder ? p.builder->runId() : std::string(),
                                         simulated ? timeScale : 1.0);
    for (RequestRecord &r : recs)
        std::string().swap(r.serverTiming); // parsed: the closing chunks are not kept
    if (simulated && timeScale != 1.0) {
        for (RequestRecord &r : recs)
            toModelTime(r, timeScale);
        if (scheduleEndNs != kNoTime)
            scheduleEndNs = static_cast<std::int64_t>(static_cast<double>(scheduleEndNs) * timeScale);
    }
    const double wallS = static_cast<double>(nowNs() - wall0) / 1e9;
    const double cores = usableCpuCount(); // the process's share of the machine: what "100 %" can mean
    const double cpuPct = wallS > 0 ? (clientCpuSeconds() - cpu0) / wallS / cores * 100.0 : 0.0;
    const std::vector<double> lag = takeLoopLag();
    const ReadObservation &reads = readObservation; // the same span as the loop lag
    const double readDelayP99Ms = ReadDelayHistogram::quantileMs(reads.readDelayCounts, 0.99);
    const double cpuWaitPerWakeMs = reads.cpuWaitKnown && reads.wakeups > 0
                                        ? static_cast<double>(reads.cpuWaitNs) / 1e6 / reads.wakeups
                                        : std::numeric_limits<double>::quiet_NaN();

    PointInput in;
    in.load = load;
    in.records = recs;
    in.scheduleEndNs = scheduleEndNs;
    in.gpus = GpuCounts::fromDeployment(sc.deployment);
    in.slo = sc.slo;
    in.client.cpuPct = cpuPct;
    in.client.loopLagP99Ms = lag.empty() ? 0.0 : percentile(lag, 99);
    in.client.sendLatenessP99Ms = lateness.empty() ? 0.0 : percentile(lateness, 99); // wall time, unscaled
    // The client's error budget, all wall clock (docs/metrics.md): client_bound is judged on it.
    in.client.sendBlockedMs = blockedMs;
    in.client.sendBlockedPct = wallS > 0 ? blockedMs / (wallS * 1000.0) * 100.0 : 0.0;
    in.client.readDelayP99Ms = readDelayP99Ms;
    in.client.cpuWaitPerWakeMs = cpuWaitPerWakeMs;
    in.client.addedDelayP99Ms = addedDelayEstimateMs(readDelayP99Ms, cpuWaitPerWakeMs);
    in.client.readPath = readPathName(recs);
    in.truncated = truncated;
    in.validity.minWindowS = sc.plan.minWindowS;
    in.confidenceLevel = sc.plan.confidenceLevel;
    out.result = aggregatePoint(in);
    if (!promptNote.empty())
        out.result.validity.notes.push_back(promptNote);
    if (missingRecords > 0)
        out.result.validity.notes.push_back(
            std::to_string(missingRecords) +
            " sent requests are missing from this point: no record came back for 1.5 s after it was "
            "cancelled (a starved client), so they are in no statistic.");
    if (!timing.summary.empty()) {
        for (std::string &note : timing.notes)
            out.result.validity.notes.push_back(std::move(note));
        if (timing.summary.missing > 0)
            out.result.validity.notes.push_back(serverTimingMissingNote(timing.summary));
        out.result.serverTiming = std::move(timing.summary);
        out.breakdowns = std::move(timing.breakdowns);
    }
    if (p.driver) // workload hook: session/chain metrics (model time, like recs)
        out.result.workload = p.driver->summarize(recs);

    out.client = {{"cpu_pct", cpuPct},
                  {"cores", cores},
                  {"open_fds", std::max(openFdCount(), point.peakOpenFds)}, // peak while the point ran
                  {"peak_in_flight", point.peakInFlight},
                  {"loop_lag_p99_ms", in.client.loopLagP99Ms},
                  {"send_lateness_p50_ms", lateness.empty() ? 0.0 : percentile(lateness, 50)},
                  {"send_lateness_p99_ms", lateness.empty() ? 0.0 : percentile(lateness, 99)},
                  {"send_blocked_ms", blockedMs},
                  {"send_blocked_pct", in.client.sendBlockedPct},
                  {"read_delay_p99_ms", JsonNumber::orNull(readDelayP99Ms)},
                  {"cpu_wait_per_wake_ms", JsonNumber::orNull(cpuWaitPerWakeMs)},
                  {"added_delay_p99_ms", JsonNumber::orNull(in.client.addedDelayP99Ms)},
                  {"time_scaled", simulated && timeScale != 1.0},
                  // Read order of the point (LoadPlan::firstTokenPriority) and how often the workers read
                  // sockets from their first-token set (0 when off).
                  {"first_token_priority", sc.plan.firstTokenPriority},
                  {"priority_socket_reads", prioritySocketReads() - p.prioritySocketReads0}};
    if (load.mode == PointLoad::Mode::Concurrency)
        out.client["target_concurrency"] = load.concurrency;
    else
        out.client["target_rate"] = load.rate;
    analysePoint(out, recs, timeScale, simulated, wall0);
    if (opt.keepRecords)
        out.records = std::move(recs);
    return out;
}

void RunController::Impl::analysePoint(PointOutcome &out, const std::vector<RequestRecord> &recs,
                                       double timeScale, bool simulated, std::int64_t pointStartWallNs)
{
    const double scale = simulated && timeScale != 1.0 ? timeScale : 1.0;
    std::shared_ptr<TelemetryScraper> sc;
    {
        std::lock_guard lock(telemetryMutex);
        sc = scraper;
    }
    std::optional<TelemetrySnapshot> snap;
    if (sc) {
        // Samples from shortly before the point: the summary holds the last earlier sample to the edge.
        snap = sc->snapshot(pointStartWallNs - 3 * scrapeIntervalWallNs);
        if (scale != 1.0)
            toModelTime(*snap, scale);
    }
    StallOptions so = opt.stalls;
    // The floor holds in wall time: on a time-scaled simulator a client hiccup of 60 ms would otherwise
    // read as a model-time stall of 60 ms × scale.
    so.minThresholdNs = static_cast<std::int64_t>(static_cast<double>(so.minThresholdNs) * scale);
    Throughline::analysePoint(out.result, out.telemetry, recs, snap ? &*snap : nullptr, so,
                              point.urls.size() > 1);
}

} // namespace Throughline
