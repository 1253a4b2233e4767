// RunController: points driven by a core/workload WorkloadDriver; requests due later (think time, trace
// timestamps) wait on a DelayedDispatcher thread.
#include "core/run/runcontrollerimpl.h"

#include "core/engine/loadschedule.h"
#include "core/engine/processstats.h"
#include "core/workload/delayeddispatcher.h"
#include "core/workload/workloaddriver.h"

#include <algorithm>

namespace Throughline {

void RunController::Impl::dispatchWorkload(WorkloadRequest &&r, std::unique_lock<std::mutex> &lock,
                                           int workerIndex)
{
    Point &p = point;
    const std::int64_t now = nowNs();
    if (r.notBeforeNs > now && p.dispatcher) {
        p.dispatcher->schedule(std::move(r));
        return;
    }
    if (p.stopSubmitting || cancel.load() || p.sent >= p.total)
        return;
    // t_sched = the intended time (after think time / at the trace's timestamp); dispatch lateness shows
    // in t_send − t_sched.
    WorkItem w = makeItem(r.notBeforeNs > 0 ? r.notBeforeNs : now, &r);
    lock.unlock();
    workers[static_cast<std::size_t>(workerIndex >= 0 ? workerIndex : leastLoadedWorker())]->submit(
        std::move(w));
    lock.lock();
}

PointOutcome RunController::Impl::runWorkloadPoint(int si, int pi, const Scenario &sc, WorkloadDriver &driver,
                                                   PointLoad load, const RequestBuilder &builder,
                                                   const std::shared_ptr<const TransferOptions> &transfer,
                                                   const std::vector<std::string> &urls, double timeScale,
                                                   bool simulated)
{
    preparePoint(si, pi, sc, builder, transfer, urls);
    const double wallScale = simulated ? timeScale : 1.0;
    WorkloadPointSetup setup;
    setup.closedLoop = load.mode == PointLoad::Mode::Concurrency;
    setup.concurrency = std::max(1, load.concurrency);
    setup.rate = load.rate;
    const ClosedBudget budget = closedBudget(sc.plan, setup.concurrency);
    setup.budgetTotal = budget.total();
    setup.budgetWarmup = budget.warmup;
    setup.seed = point.seed;
    setup.wallScale = wallScale;
    std::int64_t scheduleEnd = kNoTime;
    if (!setup.closedLoop && load.rate > 0) // session arrivals as in runOpenPoint
        driver.setOpenArrivals(sc.plan, load.rate, wallScale, point.seed);
    const double cpu0 = clientCpuSeconds();
    takeLoopLag();
    const std::int64_t start = nowNs() + 1'000'000; // 1 ms to set up
    setup.startNs = start;
    DelayedDispatcher dispatcher(t0, [this](WorkloadRequest &&r) {
        std::unique_lock lock(point.mutex); // due now: tSched stays the intended time
        dispatchWorkload(std::move(r), lock, -1);
    });
    {
        std::unique_lock lock(point.mutex);
        point.closedLoop = true; // the driver's budget: waitPointDone waits for every planned request
        point.total = driver.begin(setup);
        point.warmup = 0;
        point.driver = &driver;
        point.dispatcher = &dispatcher;
        for (WorkloadRequest &r : driver.initial())
            dispatchWorkload(std::move(r), lock, -1);
    }
    if (load.mode == PointLoad::Mode::Rate && driver.scheduleEndNs() != kNoTime)
        scheduleEnd = driver.scheduleEndNs();
    if (driver.offeredRate() > 0)
        load.rate = driver.offeredRate();
    const bool truncated = waitPointDone(start, sc.plan.maxDurationS);
    dispatcher.stop();
    {
        std::lock_guard lock(point.mutex);
        point.stopSubmitting = true; // late completions (after a cancel) start nothing
        point.dispatcher = nullptr;
    }
    PointOutcome out = finishPoint(sc, load, scheduleEnd, truncated, cpu0, start, timeScale, simulated);
    std::lock_guard lock(point.mutex);
    point.driver = nullptr;
    return out;
}

} // namespace Throughline
