// RunController: closed-loop (C slots) and open-loop (arrival schedule, optional cap) points of the
// synthetic workload.
#include "core/run/runcontrollerimpl.h"

#include "core/engine/loadschedule.h"
#include "core/engine/processstats.h"

#include <cmath>
#include <thread>

namespace Throughline {

PointOutcome RunController::Impl::runClosedPoint(int si, int pi, const Scenario &sc, int c,
                                                 const RequestBuilder &builder,
                                                 const std::shared_ptr<const TransferOptions> &transfer,
                                                 const std::vector<std::string> &urls, double timeScale,
                                                 bool simulated)
{
    preparePoint(si, pi, sc, builder, transfer, urls);
    const ClosedBudget budget = closedBudget(sc.plan, c);
    {
        std::lock_guard lock(point.mutex);
        point.closedLoop = true;
        point.total = budget.total();
        point.warmup = budget.warmup;
        // plan.pointDurationS is model time; the simulator runs timeScale× faster than the wall clock.
        point.issueSpanNs =
            static_cast<std::int64_t>(sc.plan.pointDurationS * 1e9 / (simulated ? timeScale : 1.0));
        point.issueUntilNs = -1;
        point.issueMultiple = std::max(1, sc.plan.issueMultiple);
        point.minMeasured = std::max(0, sc.plan.minMeasuredRequests);
    }
    prefetchPrompts(sc, builder, budget.total(), c); // the C opening requests are made before the point
    const double cpu0 = clientCpuSeconds();
    const std::int64_t start = nowNs();
    takeLoopLag();
    // Open the C slotCount, spread over ramp_up_s (listen backlogs are finite).
    const int slotCount = std::min(c, budget.total());
    for (int i = 0; i < slotCount && !cancel.load(); ++i) {
        if (sc.plan.rampUpS > 0 && slotCount > 1) {
            const auto at = t0 + std::chrono::nanoseconds(start + static_cast<std::int64_t>(
                                                                      sc.plan.rampUpS * 1e9 * i / slotCount));
            std::this_thread::sleep_until(at);
        }
        WorkItem w;
        {
            std::lock_guard lock(point.mutex);
            if (point.stopSubmitting || point.sent >= point.total)
                break;
            w = makeItem(nowNs());
        }
        workers[static_cast<std::size_t>(i) % workers.size()]->submit(std::move(w));
    }
    const bool truncated = waitPointDone(start, sc.plan.maxDurationS);
    PointLoad load;
    load.mode = PointLoad::Mode::Concurrency;
    load.concurrency = c;
    return finishPoint(sc, load, kNoTime, truncated, cpu0, start, timeScale, simulated);
}

PointOutcome RunController::Impl::runOpenPoint(int si, int pi, const Scenario &sc, double rate,
                                               const RequestBuilder &builder,
                                               const std::shared_ptr<const TransferOptions> &transfer,
                                               const std::vector<std::string> &urls, double timeScale,
                                               bool simulated)
{
    preparePoint(si, pi, sc, builder, transfer, urls);
    // Rates are in model time; a simulated endpoint running timeScale× faster gets timeScale× the rate.
    const double wallRate = rate * (simulated ? timeScale : 1.0);
    const double measuredS = openLoopMeasuredS(sc.plan, rate);
    const double warmS = sc.plan.warmupS;
    const double wallScale = simulated ? timeScale : 1.0;
    const auto offsets =
        arrivalOffsetsNs(sc.plan.arrival, wallRate, sc.plan.burstiness, (warmS + measuredS) / wallScale,
                         sc.plan.seed + static_cast<std::uint64_t>(pi));
    const std::int64_t warmEndOffset = static_cast<std::int64_t>(warmS / wallScale * 1e9);
    int warmCount = 0;
    for (std::int64_t o : offsets)
        warmCount += o < warmEndOffset;
    {
        std::lock_guard lock(point.mutex);
        point.closedLoop = false;
        point.total = static_cast<int>(offsets.size());
        point.warmup = warmCount;
    }
    prefetchPrompts(sc, builder, static_cast<int>(offsets.size()),
                    static_cast<int>(std::ceil(wallRate)) + 1); // about the first second of arrivals
    const double cpu0 = clientCpuSeconds();
    takeLoopLag();
    const std::int64_t start = nowNs() + 1'000'000; // 1 ms to set up
    const std::int64_t deadline = start + static_cast<std::int64_t>(sc.plan.maxDurationS * 1e9);
    const int cap = sc.plan.concurrencyCap;
    for (std::int64_t off : offsets) {
        const std::int64_t tSched = start + off;
        if (tSched > deadline)
            break;
        std::this_thread::sleep_until(t0 + std::chrono::nanoseconds(tSched));
        if (cancel.load())
            break;
        if (cap > 0) {
            // Capped: wait for a free slot; the wait shows up as send lateness (t_send − t_sched).
            std::unique_lock lock(point.mutex);
            point.cv.wait_for(lock, std::chrono::milliseconds(1000), [&] {
                return point.sent - point.finished < cap || cancel.load() || point.errorAbort;
            });
            while (point.sent - point.finished >= cap && !cancel.load() && !point.errorAbort &&
                   nowNs() < deadline)
                point.cv.wait_for(lock, std::chrono::milliseconds(100));
        }
        WorkItem w;
        {
            std::lock_guard lock(point.mutex);
            if (point.stopSubmitting)
                break;
            w = makeItem(tSched);
        }
        workers[static_cast<std::size_t>(leastLoadedWorker())]->submit(std::move(w));
        if ((point.sent & 63) == 0)
            refreshLive();
    }
    {
        std::lock_guard lock(point.mutex);
        point.stopSubmitting = true;
        point.total = point.sent;
    }
    const std::int64_t scheduleEnd = start + static_cast<std::int64_t>((warmS + measuredS) / wallScale * 1e9);
    const bool truncated = waitPointDone(start, sc.plan.maxDurationS);
    PointLoad load;
    load.mode = PointLoad::Mode::Rate;
    load.rate = rate;
    return finishPoint(sc, load, scheduleEnd, truncated, cpu0, start, timeScale, simulated);
}

} // namespace Throughline
