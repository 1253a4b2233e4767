#include "core/engine/runcontroller.h"

#include "core/engine/endpointprobe.h"
#include "core/engine/hostprovenance.h"
#include "core/engine/lengthdraw.h"
#include "core/engine/loadschedule.h"
#include "core/engine/modeltime.h"
#include "core/engine/pointanalysis.h"
#include "core/engine/processstats.h"
#include "core/engine/requestbuilder.h"
#include "core/engine/secrets.h"
#include "core/engine/worker.h"
#include "core/metrics/pointaggregate.h"
#include "core/metrics/requestmetrics.h"
#include "core/telemetry/readinessprobe.h"
#include "core/telemetry/telemetryscraper.h"
#include "core/util/version.h"
#include "core/workload/delayeddispatcher.h"
#include "core/workload/workloaddriver.h"

#include <QDateTime>
#include <QUuid>

#include <curl/curl.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <random>
#include <thread>

namespace Throughline {

using Clock = std::chrono::steady_clock;

std::string newUuidV4()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
}

namespace {

// Linear-interpolated percentile (NumPy's default) of the client's self-observation samples.
double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(v.begin(), v.end());
    const double rank = p / 100.0 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(rank));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

} // namespace

// ---------------------------------------------------------------------------------------------------------

struct RunController::Impl {
    RunController *q = nullptr;
    std::vector<Scenario> scenarios;
    RunOptions opt;
    Clock::time_point t0;
    std::vector<std::unique_ptr<Worker>> workers;
    std::mutex workersMutex; // guards the vector itself (cancel() from other threads vs. creation/teardown)
    std::atomic<bool> cancel{false};
    std::atomic<bool> stopSending{
        false}; // no new requests; in-flight ones finish; the run ends after this point
    std::atomic<std::uint64_t> seq{0};
    std::string promptNote; // why the scenario's prompts are not exact (validity note); controller thread
    std::atomic<std::uint64_t> totalFinished{0};
    std::atomic<std::uint64_t> totalFailed{0};

    // Telemetry scraper of the scenario being run (null when not scraping). Set and reset on run()'s thread;
    // liveTelemetry() reads it from any thread under the mutex.
    mutable std::mutex telemetryMutex;
    std::shared_ptr<TelemetryScraper> scraper;
    std::int64_t scrapeIntervalWallNs = 1'000'000'000;

    // State of the point being run (one at a time).
    struct Point {
        std::mutex mutex;
        std::condition_variable cv;
        std::vector<RequestRecord> records;
        int scenarioIndex = 0;
        int pointIndex = 0;
        bool closedLoop = true;
        int total = 0;  // requests to send
        int warmup = 0; // the first `warmup` sends are warm-up
        int sent = 0;   // guarded by mutex
        int finished = 0;
        int failed = 0;
        bool stopSubmitting = false;
        bool errorAbort = false;
        double errorRateLimit = 0.5;
        const RequestBuilder *builder = nullptr;
        std::shared_ptr<const TransferOptions> transfer;
        const Scenario *scenario = nullptr;
        std::vector<std::string> urls;
        std::uint64_t seed = 1;
        int peakOpenFds = 0;  // sampled about once a second while the point runs (controller thread)
        int peakInFlight = 0; // sent − finished, same sampling
        // Workload hook (core/workload): when set, the driver picks every request of the point (lengths,
        // prompt, warm-up) and what follows a completion; delayed sends go through the dispatcher thread.
        WorkloadDriver *driver = nullptr;
        DelayedDispatcher *dispatcher = nullptr;
    } point;

    std::int64_t nowNs() const
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
    }

    int leastLoadedWorker() const
    {
        int best = 0;
        for (int i = 1; i < static_cast<int>(workers.size()); ++i)
            if (workers[i]->inFlight() < workers[best]->inFlight())
                best = i;
        return best;
    }

    // Builds the next request of the point; caller holds point.mutex and has checked the budget.
    WorkItem makeItem(std::int64_t tSched, const WorkloadRequest *wr = nullptr)
    {
        Point &p = point;
        const std::uint64_t s = seq.fetch_add(1);
        std::mt19937_64 rng(p.seed * 1000003ULL + s);
        const int isl = wr ? wr->isl : drawLength(p.scenario->phase.islDist, p.scenario->phase.isl, rng);
        const int osl = wr ? wr->osl : drawLength(p.scenario->phase.oslDist, p.scenario->phase.osl, rng);
        if (wr)
            p.driver->bind(s, *wr); // before build(): the builder asks the driver's prompt source by seq
        const std::size_t replica = s % p.urls.size();
        WorkItem w;
        w.request = p.builder->build(s, isl, osl, p.urls[replica]);
        w.record.seq = s;
        w.record.scenarioIndex = p.scenarioIndex;
        w.record.pointIndex = p.pointIndex;
        w.record.warmup = wr ? wr->warmup : p.sent < p.warmup;
        w.record.replica = static_cast<int>(replica);
        w.record.intendedIsl = isl;
        w.record.intendedOsl = osl;
        w.record.tSched = tSched;
        w.options = p.transfer;
        ++p.sent;
        return w;
    }

    void onComplete(RequestRecord &&r, int workerIndex)
    {
        q->m_live.push(LiveSnapshot::sampleOf(r));
        const bool failed = !r.ok();
        totalFinished.fetch_add(1);
        if (failed)
            totalFailed.fetch_add(1);
        Point &p = point;
        std::unique_lock lock(p.mutex);
        std::vector<WorkloadRequest> next; // workload hook: what this completion unlocks
        if (p.driver && !p.stopSubmitting && !cancel.load())
            next = p.driver->onComplete(r, nowNs());
        p.records.push_back(std::move(r));
        ++p.finished;
        if (failed)
            ++p.failed;
        if (!p.stopSubmitting && p.finished >= 20 &&
            static_cast<double>(p.failed) > p.errorRateLimit * static_cast<double>(p.finished)) {
            p.stopSubmitting = true;
            p.errorAbort = true;
        }
        // Closed loop: the freed slot sends the next request at once (t_sched = slot-free time).
        for (WorkloadRequest &n : next)
            dispatchWorkload(std::move(n), lock, workerIndex);
        if (p.closedLoop && !p.driver && !p.stopSubmitting && !cancel.load() && p.sent < p.total) {
            WorkItem w = makeItem(nowNs());
            lock.unlock();
            workers[static_cast<std::size_t>(workerIndex)]->submit(std::move(w));
            lock.lock();
        }
        p.cv.notify_all();
    }

    int inFlightTotal() const
    {
        int n = 0;
        for (const auto &w : workers)
            n += w->inFlight();
        return n;
    }

    void refreshLive()
    {
        q->m_live.updateCounters(totalFinished.load(), totalFailed.load(), inFlightTotal(),
                                 static_cast<double>(nowNs()) / 1e9);
    }

    // Waits until every sent request finished; enforces max duration + grace → harness-cancelled.
    bool waitPointDone(std::int64_t pointStartNs, double maxDurationS)
    {
        Point &p = point;
        bool truncated = false;
        const std::int64_t deadline = pointStartNs + static_cast<std::int64_t>(maxDurationS * 1e9);
        const std::int64_t hardDeadline = deadline + static_cast<std::int64_t>(opt.graceS * 1e9);
        bool graceStarted = false;
        int samples = 0;
        std::unique_lock lock(p.mutex);
        for (;;) {
            const bool allSent = p.stopSubmitting || p.sent >= p.total || !p.closedLoop;
            if (allSent && p.finished >= p.sent && (p.closedLoop ? true : p.stopSubmitting))
                break;
            if (cancel.load() || p.errorAbort) {
                p.stopSubmitting = true;
                lock.unlock();
                for (auto &w : workers)
                    w->cancelAll();
                lock.lock();
                p.cv.wait_for(lock, std::chrono::milliseconds(1500), [&] { return p.finished >= p.sent; });
                break;
            }
            const std::int64_t now = nowNs();
            if (!graceStarted && now >= deadline) {
                graceStarted = true;
                p.stopSubmitting = true; // no new requests; in-flight ones get the grace period
            }
            if (graceStarted && now >= hardDeadline) {
                truncated = true;
                lock.unlock();
                for (auto &w : workers)
                    w->cancelAll();
                lock.lock();
                p.cv.wait_for(lock, std::chrono::milliseconds(1500), [&] { return p.finished >= p.sent; });
                break;
            }
            p.cv.wait_for(lock, std::chrono::milliseconds(100));
            p.peakInFlight = std::max(p.peakInFlight, p.sent - p.finished);
            lock.unlock();
            refreshLive();
            if (++samples % 10 == 0) {
                // Listing /proc/self/fd costs ~1 ms per 1,000 descriptors: once a second is plenty.
                const int fds = openFdCount();
                lock.lock();
                p.peakOpenFds = std::max(p.peakOpenFds, fds);
            } else {
                lock.lock();
            }
        }
        refreshLive();
        return truncated;
    }

    std::vector<double> takeLoopLag()
    {
        std::vector<double> all;
        for (auto &w : workers) {
            auto v = w->takeLoopLagMs();
            all.insert(all.end(), v.begin(), v.end());
        }
        return all;
    }

    void preparePoint(int si, int pi, const Scenario &sc, const RequestBuilder &builder,
                      const std::shared_ptr<const TransferOptions> &transfer,
                      const std::vector<std::string> &urls)
    {
        Point &p = point;
        std::lock_guard lock(p.mutex);
        p.records.clear();
        p.scenarioIndex = si;
        p.pointIndex = pi;
        p.sent = p.finished = p.failed = 0;
        p.peakOpenFds = p.peakInFlight = 0;
        p.stopSubmitting = stopSending.load();
        p.errorAbort = false;
        p.errorRateLimit = sc.plan.errorRateLimit;
        p.builder = &builder;
        p.transfer = transfer;
        p.scenario = &sc;
        p.urls = urls;
        p.seed = sc.plan.seed + static_cast<std::uint64_t>(pi);
    }

    // Lets the prompt source make the point's prompts ahead of sending (seq and ISL as makeItem draws them).
    void prefetchPrompts(const Scenario &sc, const RequestBuilder &builder, int total, int burst)
    {
        const std::uint64_t pointSeed = point.seed;
        const LengthDist dist = sc.phase.islDist;
        const int isl = sc.phase.isl;
        builder.prompts().prepare(
            seq.load(), static_cast<std::uint64_t>(std::max(total, 0)),
            [pointSeed, dist, isl](std::uint64_t s) {
                std::mt19937_64 rng(pointSeed * 1000003ULL + s);
                return drawLength(dist, isl, rng);
            },
            static_cast<std::uint64_t>(std::max(burst, 0)));
    }

    PointOutcome finishPoint(const Scenario &sc, PointLoad load, std::int64_t scheduleEndNs, bool truncated,
                             double cpu0, std::int64_t wall0, double timeScale, bool simulated)
    {
        Point &p = point;
        PointOutcome out;
        out.pointIndex = p.pointIndex;
        std::vector<RequestRecord> recs;
        {
            std::lock_guard lock(p.mutex);
            recs.swap(p.records);
            out.aborted = p.errorAbort;
        }
        std::sort(recs.begin(), recs.end(),
                  [](const RequestRecord &a, const RequestRecord &b) { return a.seq < b.seq; });
        // Client self-observation stays in real (wall) time: it judges the client, not the simulated server.
        std::vector<double> lateness;
        lateness.reserve(recs.size());
        for (const RequestRecord &r : recs)
            if (!r.warmup && r.tSend != kNoTime && r.tSched != kNoTime)
                lateness.push_back(static_cast<double>(r.tSend - r.tSched) / 1e6);
        if (simulated && timeScale != 1.0) {
            for (RequestRecord &r : recs)
                toModelTime(r, timeScale);
            if (scheduleEndNs != kNoTime)
                scheduleEndNs = static_cast<std::int64_t>(static_cast<double>(scheduleEndNs) * timeScale);
        }
        const double wallS = static_cast<double>(nowNs() - wall0) / 1e9;
        const double cores = std::max(1u, std::thread::hardware_concurrency());
        const double cpuPct = wallS > 0 ? (processCpuSeconds() - cpu0) / wallS / cores * 100.0 : 0.0;
        const std::vector<double> lag = takeLoopLag();

        PointInput in;
        in.load = load;
        in.records = recs;
        in.scheduleEndNs = scheduleEndNs;
        in.gpus = GpuCounts::fromDeployment(sc.deployment);
        in.slo = sc.slo;
        in.client.cpuPct = cpuPct;
        in.client.loopLagP99Ms = lag.empty() ? 0.0 : percentile(lag, 99);
        in.client.sendLatenessP99Ms =
            lateness.empty() ? 0.0 : percentile(lateness, 99); // wall time, unscaled
        in.truncated = truncated;
        in.validity.minWindowS = sc.plan.minWindowS;
        out.result = aggregatePoint(in);
        if (!promptNote.empty())
            out.result.validity.notes.push_back(promptNote);
        if (p.driver) // workload hook: session/chain metrics (model time, like recs)
            out.result.workload = p.driver->summarize(recs);

        out.client = {{"cpu_pct", cpuPct},
                      {"cores", cores},
                      {"open_fds", std::max(openFdCount(), point.peakOpenFds)}, // peak while the point ran
                      {"peak_in_flight", point.peakInFlight},
                      {"loop_lag_p99_ms", in.client.loopLagP99Ms},
                      {"send_lateness_p50_ms", lateness.empty() ? 0.0 : percentile(lateness, 50)},
                      {"send_lateness_p99_ms", lateness.empty() ? 0.0 : percentile(lateness, 99)},
                      {"time_scaled", simulated && timeScale != 1.0}};
        if (load.mode == PointLoad::Mode::Concurrency)
            out.client["target_concurrency"] = load.concurrency;
        else
            out.client["target_rate"] = load.rate;
        analysePoint(out, recs, timeScale, simulated, wall0);
        if (opt.keepRecords)
            out.records = std::move(recs);
        return out;
    }

    // Telemetry summary, stalls and replicas of the point (pointanalysis.h). recs and the window are in
    // model time; the scraper runs on the wall run clock.
    void analysePoint(PointOutcome &out, const std::vector<RequestRecord> &recs, double timeScale,
                      bool simulated, std::int64_t pointStartWallNs)
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
        Throughline::analysePoint(out, recs, snap ? &*snap : nullptr, so, point.urls.size() > 1);
    }

    PointOutcome runClosedPoint(int si, int pi, const Scenario &sc, int c, const RequestBuilder &builder,
                                const std::shared_ptr<const TransferOptions> &transfer,
                                const std::vector<std::string> &urls, double timeScale, bool simulated)
    {
        preparePoint(si, pi, sc, builder, transfer, urls);
        const ClosedBudget budget = closedBudget(sc.plan, c);
        {
            std::lock_guard lock(point.mutex);
            point.closedLoop = true;
            point.total = budget.total();
            point.warmup = budget.warmup;
        }
        prefetchPrompts(sc, builder, budget.total(), c); // the C opening requests are made before the point
        const double cpu0 = processCpuSeconds();
        const std::int64_t start = nowNs();
        takeLoopLag();
        // Open the C slotCount, spread over ramp_up_s (listen backlogs are finite).
        const int slotCount = std::min(c, budget.total());
        for (int i = 0; i < slotCount && !cancel.load(); ++i) {
            if (sc.plan.rampUpS > 0 && slotCount > 1) {
                const auto at =
                    t0 + std::chrono::nanoseconds(
                             start + static_cast<std::int64_t>(sc.plan.rampUpS * 1e9 * i / slotCount));
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

    PointOutcome runOpenPoint(int si, int pi, const Scenario &sc, double rate, const RequestBuilder &builder,
                              const std::shared_ptr<const TransferOptions> &transfer,
                              const std::vector<std::string> &urls, double timeScale, bool simulated)
    {
        preparePoint(si, pi, sc, builder, transfer, urls);
        // Rates are in model time; a simulated endpoint running timeScale× faster gets timeScale× the rate.
        const double wallRate = rate * (simulated ? timeScale : 1.0);
        const double measuredS =
            sc.plan.pointDurationS > 0
                ? sc.plan.pointDurationS
                : (sc.plan.requestCount > 0 ? sc.plan.requestCount / rate : sc.plan.requestMultiplier);
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
        const double cpu0 = processCpuSeconds();
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
        const std::int64_t scheduleEnd =
            start + static_cast<std::int64_t>((warmS + measuredS) / wallScale * 1e9);
        const bool truncated = waitPointDone(start, sc.plan.maxDurationS);
        PointLoad load;
        load.mode = PointLoad::Mode::Rate;
        load.rate = rate;
        return finishPoint(sc, load, scheduleEnd, truncated, cpu0, start, timeScale, simulated);
    }

    // Workload hook: sends r now (on workerIndex's worker, -1 = least loaded) or hands it to the dispatcher
    // thread when it is due later (think time, trace timestamp). Caller holds point.mutex via `lock`.
    void dispatchWorkload(WorkloadRequest &&r, std::unique_lock<std::mutex> &lock, int workerIndex)
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

    // A point run by a workload driver (core/workload): closed loop (load.concurrency sessions), open loop
    // (load.rate session arrivals) or a trace replay (the driver's own schedule).
    PointOutcome runWorkloadPoint(int si, int pi, const Scenario &sc, WorkloadDriver &driver, PointLoad load,
                                  const RequestBuilder &builder,
                                  const std::shared_ptr<const TransferOptions> &transfer,
                                  const std::vector<std::string> &urls, double timeScale, bool simulated)
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
        const double cpu0 = processCpuSeconds();
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

    void idleCheck(const std::string &baseUrl, double cooldownS, double timeScale)
    {
        waitUntilIdle(baseUrl, cooldownS, timeScale, opt.idleCheckTimeoutS, cancel);
    }

    // Cold start (Endpoint::coldStart): polls /health and /v1/models from sinceNs (run clock) until both
    // answer, then times one first request through the normal worker path (not a measured point). Returns
    // ScenarioOutcome::coldStart; *notReady set when the endpoint did not become ready in time.
    nlohmann::json measureColdStart(int si, const Scenario &sc, std::int64_t sinceNs, const char *since,
                                    const RequestBuilder &builder,
                                    const std::shared_ptr<const TransferOptions> &transfer,
                                    const std::vector<std::string> &urls, double timeScale, bool simulated,
                                    std::string *notReady)
    {
        const ColdStartOptions &cs = sc.endpoint.coldStart;
        ReadinessOptions ro;
        ro.pollInterval =
            std::chrono::milliseconds(std::max<std::int64_t>(10, std::llround(cs.pollIntervalS * 1e3)));
        ro.attemptTimeout = std::max(ro.pollInterval, std::chrono::milliseconds(1000));
        // The timeout counts from the start moment, which may lie before this call (--ready-since).
        const double leftS = cs.timeoutS - static_cast<double>(nowNs() - sinceNs) / 1e9;
        ro.deadline = std::chrono::milliseconds(std::max<std::int64_t>(0, std::llround(leftS * 1e3)));
        ro.bearerToken = transfer->apiKey;
        ro.caFile = sc.endpoint.caFile;
        ro.insecure = sc.endpoint.insecure;
        auto secondsSince = [sinceNs](std::int64_t t) {
            return t < 0 ? nlohmann::json(nullptr) : nlohmann::json(static_cast<double>(t - sinceNs) / 1e9);
        };
        nlohmann::json j = {{"since", since}, {"poll_interval_s", cs.pollIntervalS}};
        const auto ready = ReadinessProbe::waitUntilReady(urls.front(), t0, ro, &cancel);
        if (!ready) {
            j["time_to_ready_s"] = nullptr;
            j["error"] = redactSecrets(ready.error().message, transfer->apiKey);
            *notReady = j["error"].get<std::string>();
            return j;
        }
        j["time_to_ready_s"] = secondsSince(ready->readyNs);
        j["health_ok_s"] = secondsSince(ready->healthOkNs);
        j["models_ok_s"] = secondsSince(ready->modelsOkNs);
        j["polls"] = ready->attempts;

        // The first request: one closed-loop slot, one request, marked warm-up (never part of a point).
        preparePoint(si, -1, sc, builder, transfer, urls);
        WorkItem w;
        {
            std::lock_guard lock(point.mutex);
            point.closedLoop = true;
            point.total = 1;
            point.warmup = 1;
            w = makeItem(nowNs());
        }
        const std::int64_t start = nowNs();
        workers.front()->submit(std::move(w));
        waitPointDone(start, sc.plan.maxDurationS);
        std::vector<RequestRecord> recs;
        {
            std::lock_guard lock(point.mutex);
            recs.swap(point.records);
        }
        takeLoopLag();
        if (recs.empty()) {
            j["first_request_ok"] = false;
            j["error"] = "first request did not finish";
            return j;
        }
        RequestRecord &r = recs.front();
        if (simulated && timeScale != 1.0)
            toModelTime(r, timeScale);
        j["first_request_ok"] = r.ok();
        const RequestMetrics m = computeRequestMetrics(r);
        auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
        j["first_request_ttft_ms"] = r.ok() ? finite(m.ttftMs) : nlohmann::json(nullptr);
        j["first_request_e2e_ms"] = r.ok() ? finite(m.e2eMs) : nlohmann::json(nullptr);
        if (!r.ok())
            j["error"] = "first request failed: " + redactSecrets(r.errorDetail, transfer->apiKey);
        return j;
    }
};

// ---------------------------------------------------------------------------------------------------------

TelemetrySnapshot RunController::liveTelemetry(std::int64_t sinceNs) const
{
    std::shared_ptr<TelemetryScraper> sc;
    {
        std::lock_guard lock(d->telemetryMutex);
        sc = d->scraper;
    }
    return sc ? sc->snapshot(sinceNs) : TelemetrySnapshot{};
}

RunController::RunController(std::vector<Scenario> scenarios, RunOptions options)
    : d(std::make_unique<Impl>())
{
    d->q = this;
    d->scenarios = std::move(scenarios);
    d->opt = std::move(options);
    m_runId = d->opt.runId.empty() ? newUuidV4() : d->opt.runId;
}

RunController::~RunController()
{
    std::lock_guard wl(d->workersMutex);
    for (auto &w : d->workers)
        w->stop();
}

void RunController::stopSending()
{
    d->stopSending = true;
    std::lock_guard lock(d->point.mutex);
    d->point.stopSubmitting = true;
    d->point.cv.notify_all();
}

void RunController::cancel()
{
    d->cancel = true;
    {
        std::lock_guard wl(d->workersMutex);
        for (auto &w : d->workers)
            w->cancelAll();
    }
    std::lock_guard lock(d->point.mutex);
    d->point.cv.notify_all();
}

Result<RunOutcome> RunController::run()
{
    Impl &impl = *d;
    RunOutcome out;
    out.runId = m_runId;
    out.startedUtc = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
    impl.t0 = Clock::now();
    out.t0SteadyNs = std::chrono::duration_cast<std::chrono::nanoseconds>(impl.t0.time_since_epoch()).count();
    raiseOpenFileLimit();
    impl.seq = impl.opt.firstSeq;

    const int nWorkers = impl.opt.workers > 0
                             ? impl.opt.workers
                             : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::unique_lock workersLock(impl.workersMutex);
    for (int i = 0; i < nWorkers; ++i) {
        impl.workers.push_back(
            std::make_unique<Worker>(i, impl.t0, [this](RequestRecord &&r, std::uint64_t, int wi) {
                d->onComplete(std::move(r), wi);
            }));
        impl.workers.back()->start();
    }
    workersLock.unlock();

    std::uint64_t planned = 0;
    for (const Scenario &sc : impl.scenarios)
        planned += plannedRequests(sc.plan);
    LiveProgress lp;
    lp.scenarioCount = static_cast<int>(impl.scenarios.size());
    lp.plannedRequests = planned;
    lp.running = true;
    m_live.setProgress(lp);

    std::vector<SimulatedEndpoint> sims;
    bool readySinceUsed = false; // --ready-since applies to the first cold-start scenario only
    nlohmann::json provScenarios = nlohmann::json::array();
    nlohmann::json servers = nlohmann::json::object();

    for (int si = 0;
         si < static_cast<int>(impl.scenarios.size()) && !impl.cancel.load() && !impl.stopSending.load();
         ++si) {
        Scenario sc = impl.scenarios[static_cast<std::size_t>(si)];
        ScenarioOutcome so;
        so.scenarioIndex = si;
        const std::int64_t scenarioStartNs = si == 0 ? 0 : impl.nowNs(); // cold start's default start moment
        lp = m_live.progress();
        lp.scenarioIndex = si;
        lp.scenarioId = sc.id;
        m_live.setProgress(lp);

        // Simulated endpoint: started per scenario (its model and deployment are the scenario's).
        SimulatedEndpoint sim;
        if (sc.endpoint.kind == Endpoint::Kind::Simulated) {
            if (!impl.opt.simLauncher) {
                so.aborted = true;
                so.abortReason = "simulated endpoint requested but no simulator launcher is available";
                so.scenario = sc;
                out.scenarios.push_back(std::move(so));
                continue;
            }
            int plannedStreams = 1;
            for (int c : sc.plan.concurrencies)
                plannedStreams = std::max(plannedStreams, c);
            if (sc.plan.mode == LoadPlan::Mode::Curve || sc.plan.mode == LoadPlan::Mode::Search)
                plannedStreams = std::max(plannedStreams, sc.plan.cMax);
            if (sc.plan.mode == LoadPlan::Mode::Open && sc.plan.concurrencyCap > 0)
                plannedStreams = std::max(plannedStreams, sc.plan.concurrencyCap);
            auto started = impl.opt.simLauncher(sc, plannedStreams);
            if (!started.ok()) {
                so.aborted = true;
                so.endpointDown = true;
                so.abortReason = "simulator failed to start: " + started.error().message;
                so.scenario = sc;
                out.scenarios.push_back(std::move(so));
                continue;
            }
            sim = *started;
            sc.endpoint.baseUrl = sim.baseUrl;
            so.simulated = true;
            so.timeScale = sim.timeScale > 0 ? sim.timeScale : 1.0;
            out.simulated = true;
            out.timeScale = so.timeScale;
        }
        so.scenario = sc;

        auto key = resolveApiKey(sc.endpoint, impl.opt.apiKeyEnvOverride);
        if (!key.ok()) {
            so.aborted = true;
            so.abortReason = key.error().message;
            out.scenarios.push_back(std::move(so));
            continue;
        }
        const std::string apiKey = *key;
        // Workload hook: a non-synthetic phase gets a driver (datasets and traces are loaded here).
        auto workload = WorkloadDriver::create(sc);
        if (!workload.ok()) {
            so.aborted = true;
            so.abortReason = "workload: " + workload.error().message;
            out.scenarios.push_back(std::move(so));
            continue;
        }
        const std::unique_ptr<WorkloadDriver> driver = std::move(*workload);
        if (driver && sc.phase.workload.kind == Workload::Kind::Trace) {
            // A trace is one open-loop point on its own schedule: the plan's rates and concurrencies do not
            // apply.
            sc.plan.mode = LoadPlan::Mode::Open;
            sc.plan.rates = {0.0};
        }
        std::shared_ptr<const PromptSource> prompts = impl.opt.prompts;
        impl.promptNote.clear();
        if (!driver && !prompts && impl.opt.promptFactory) {
            PromptSourceChoice choice = impl.opt.promptFactory(sc);
            prompts = std::move(choice.source);
            impl.promptNote = std::move(choice.note);
        }
        RequestBuilder builder(sc, m_runId, driver ? driver->prompts() : prompts, apiKey);
        so.requestTemplate = builder.templateJson();
        auto transfer = std::make_shared<TransferOptions>();
        transfer->caFile = sc.endpoint.caFile;
        transfer->insecure = sc.endpoint.insecure;
        transfer->httpVersion = sc.endpoint.httpVersion;
        transfer->connectTimeoutS = sc.endpoint.connectTimeoutS;
        transfer->requestTimeoutS = sc.plan.requestTimeoutS / (so.simulated ? so.timeScale : 1.0);
        transfer->firstTokenTimeoutS = transfer->requestTimeoutS;
        transfer->stallTimeoutS =
            std::min(impl.opt.stallTimeoutS / (so.simulated ? so.timeScale : 1.0), transfer->requestTimeoutS);
        transfer->storeText = sc.plan.storeText;
        transfer->apiKey = apiKey;
        std::vector<std::string> urls{sc.endpoint.baseUrl};
        for (const std::string &u : sc.endpoint.replicaUrls)
            urls.push_back(u);

        // Server provenance once per distinct base URL.
        if (!servers.contains(sc.endpoint.baseUrl)) {
            nlohmann::json s = serverFacts(sc.endpoint.baseUrl, apiKey);
            s["simulated"] = so.simulated;
            if (so.simulated)
                s["simulator"] = sim.description;
            servers[so.simulated ? sc.id + " (simulated)" : sc.endpoint.baseUrl] = s;
        }

        // Server telemetry for the whole scenario, on its own thread and connections (never the load's).
        std::shared_ptr<TelemetryScraper> scraper;
        if (impl.opt.scrapeTelemetry && sc.endpoint.telemetryIntervalS > 0) {
            std::vector<ScrapeTarget> targets;
            if (so.simulated) {
                // The simulator serves vLLM-named metrics on /metrics whatever the scenario's backend.
                targets.push_back(
                    ScrapeTarget{urls.front() + "/metrics", TelemetrySource::Format::Prometheus, "vllm"});
                for (const std::string &u : sc.endpoint.telemetryUrls)
                    targets.push_back(ScrapeTarget{u, TelemetrySource::Format::Prometheus, std::string()});
            } else {
                targets = TelemetryScraper::targetsFor(urls, sc.backend, sc.endpoint.telemetryUrls);
            }
            if (!targets.empty()) {
                ScraperOptions sopt;
                // The interval is model time; a time-scaled simulator gets proportionally faster scrapes.
                const double wallS = sc.endpoint.telemetryIntervalS / (so.simulated ? so.timeScale : 1.0);
                sopt.interval =
                    std::chrono::milliseconds(std::max<std::int64_t>(50, std::llround(wallS * 1e3)));
                sopt.timeout =
                    std::min(sopt.timeout, std::max(sopt.interval, std::chrono::milliseconds(200)));
                sopt.connectTimeout = std::min(sopt.connectTimeout, sopt.timeout);
                scraper = std::make_shared<TelemetryScraper>(std::move(targets), sopt);
                scraper->start(impl.t0);
                std::lock_guard lock(impl.telemetryMutex);
                impl.scraper = scraper;
                impl.scrapeIntervalWallNs =
                    std::chrono::duration_cast<std::chrono::nanoseconds>(sopt.interval).count();
            }
        }

        auto healthy = [&](std::string *why) {
            for (const std::string &u : urls)
                if (!healthCheck(u, impl.opt.healthTimeoutS, why))
                    return false;
            return true;
        };

        // One load point: health check, idle check, measurement, per-point callback. False = stop this
        // scenario (endpoint down, error-rate abort, cancel or stop-sending).
        auto runPoint = [&](const std::string &label, const std::function<PointOutcome(int pi)> &measure) {
            const int pi = static_cast<int>(so.points.size());
            if (so.aborted) // e.g. not ready after the cold-start timeout
                return false;
            // Resume: a point stored by the interrupted run stands in for running it again.
            if (const auto it = impl.opt.completedPoints.find({si, pi});
                it != impl.opt.completedPoints.end()) {
                PointOutcome po;
                po.pointIndex = pi;
                po.result = it->second;
                po.stored = true;
                so.points.push_back(std::move(po));
                return !impl.cancel.load() && !impl.stopSending.load();
            }
            std::string why;
            if (!healthy(&why)) {
                so.aborted = true;
                so.endpointDown = true;
                so.abortReason = "endpoint unreachable: " + redactSecrets(why, apiKey);
                return false;
            }
            if (pi > 0 && !so.points.back().stored)
                impl.idleCheck(sc.endpoint.baseUrl, sc.plan.cooldownS, so.timeScale);
            if (impl.stopSending.load())
                return false; // stopped before this point began: no empty point (nothing would be sent)
            LiveProgress p = m_live.progress();
            p.pointIndex = pi;
            p.pointLabel = label;
            m_live.setProgress(p);
            so.points.push_back(measure(pi));
            if (impl.opt.onPointFinished)
                impl.opt.onPointFinished(so, so.points.back());
            if (so.points.back().aborted) {
                so.aborted = true;
                so.abortReason = "error rate above " +
                                 std::to_string(static_cast<int>(sc.plan.errorRateLimit * 100)) + " % at " +
                                 label;
                return false;
            }
            return !impl.cancel.load() && !impl.stopSending.load();
        };
        auto runPointClosed = [&](int c) {
            return runPoint("C=" + std::to_string(c), [&](int pi) {
                if (driver)
                    return impl.runWorkloadPoint(si, pi, sc, *driver,
                                                 PointLoad{PointLoad::Mode::Concurrency, c, 0}, builder,
                                                 transfer, urls, so.timeScale, so.simulated);
                return impl.runClosedPoint(si, pi, sc, c, builder, transfer, urls, so.timeScale,
                                           so.simulated);
            });
        };

        // Cold start: wait for the endpoint from the start moment, time its first request. Skipped for a
        // resumed scenario (its server has long been up). Not ready in time = endpoint down.
        bool resumedScenario = false;
        for (const auto &[key, stored] : impl.opt.completedPoints)
            resumedScenario = resumedScenario || key.first == si;
        if (sc.endpoint.coldStart.enabled && !resumedScenario && !impl.cancel.load()) {
            std::int64_t sinceNs = scenarioStartNs;
            const char *since = si == 0 ? "run_start" : "scenario_start";
            if (impl.opt.readySinceUnixMs > 0 && !readySinceUsed) {
                readySinceUsed = true;
                since = "ready_since";
                const std::int64_t agoMs = QDateTime::currentMSecsSinceEpoch() - impl.opt.readySinceUnixMs;
                sinceNs = impl.nowNs() - agoMs * 1'000'000;
            }
            std::string notReady;
            so.coldStart = impl.measureColdStart(si, sc, sinceNs, since, builder, transfer, urls,
                                                 so.timeScale, so.simulated, &notReady);
            if (!notReady.empty()) {
                so.aborted = true;
                so.endpointDown = true;
                so.abortReason = "endpoint not ready: " + notReady;
            }
        }

        switch (sc.plan.mode) {
        case LoadPlan::Mode::Closed:
            for (int c : sc.plan.concurrencies)
                if (!runPointClosed(c))
                    break;
            break;
        case LoadPlan::Mode::Curve: {
            double prevTps = 0;
            double firstTtft = std::numeric_limits<double>::quiet_NaN();
            for (int c : curveConcurrencies(sc.plan)) {
                if (!runPointClosed(c))
                    break;
                const PointResult &r = so.points.back().result;
                const double tps = r.metrics.outputTps;
                const double ttft = r.metricValue("ttft_ms", "p90").value_or(r.metrics.ttftMs.mean);
                if (std::isnan(firstTtft))
                    firstTtft = ttft;
                if (curveShouldStop(prevTps, tps, firstTtft, ttft))
                    break;
                prevTps = tps;
            }
            break;
        }
        case LoadPlan::Mode::Search: {
            SearchBisection search(sc.plan.cMin, sc.plan.cMax, sc.plan.searchMaxPoints);
            while (auto c = search.next()) {
                if (!runPointClosed(*c))
                    break;
                const PointResult &r = so.points.back().result;
                const double pct = sc.slo.percentile;
                const std::string stat = pct >= 99 ? "p99" : pct >= 95 ? "p95" : pct >= 90 ? "p90" : "p50";
                auto within = [&](const char *metric, double limit) {
                    if (limit <= 0)
                        return true;
                    auto v = r.metricValue(metric, stat);
                    return v.has_value() && *v <= limit;
                };
                const bool meets = r.validity.valid && r.nOk > 0 && within("ttft_ms", sc.slo.ttftMs) &&
                                   within("tpot_ms", sc.slo.tpotMs) && within("e2e_ms", sc.slo.e2eMs);
                search.report(*c, meets);
            }
            so.searchBest = search.best();
            break;
        }
        case LoadPlan::Mode::Open:
            for (double rate : sc.plan.rates) {
                const bool more = runPoint("rate=" + std::to_string(rate) + "/s", [&](int pi) {
                    if (driver)
                        return impl.runWorkloadPoint(si, pi, sc, *driver,
                                                     PointLoad{PointLoad::Mode::Rate, 0, rate}, builder,
                                                     transfer, urls, so.timeScale, so.simulated);
                    return impl.runOpenPoint(si, pi, sc, rate, builder, transfer, urls, so.timeScale,
                                             so.simulated);
                });
                if (!more)
                    break;
            }
            break;
        }
        if (impl.cancel.load() && !so.aborted) {
            so.aborted = true;
            so.abortReason = "cancelled";
        } else if (impl.stopSending.load() && !so.aborted) {
            so.aborted = true;
            so.abortReason = "stopped by the user (no new requests; in-flight requests completed)";
        }
        if (scraper) {
            scraper->stop();
            {
                std::lock_guard lock(impl.telemetryMutex);
                impl.scraper.reset();
            }
            so.telemetry = scraper->snapshot();
            if (so.simulated && so.timeScale != 1.0)
                toModelTime(so.telemetry, so.timeScale);
        }
        provScenarios.push_back({{"id", sc.id},
                                 {"request_template", so.requestTemplate},
                                 {"seed", sc.plan.seed},
                                 {"simulated", so.simulated},
                                 {"time_scale", so.timeScale},
                                 {"sim_seed", sc.endpoint.sim.seed}});
        out.scenarios.push_back(std::move(so));
        // Simulated endpoints stay up until the workers closed their keep-alive connections (below).
        if (sim.owner)
            sims.push_back(std::move(sim));
    }

    {
        std::lock_guard lock(impl.workersMutex);
        for (auto &w : impl.workers)
            w->stop();
        impl.workers.clear(); // closes every connection
    }
    if (!sims.empty()) // let an in-process simulator notice the closed connections before it stops
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    sims.clear();
    out.cancelled = impl.cancel.load();

    out.provenance = {{"tool_version", toolVersion()},
                      {"git_sha", gitSha()},
                      {"campaign", {{"name", impl.opt.campaignName}, {"sha256", impl.opt.campaignSha256}}},
                      {"host", hostProvenance()},
                      {"engine", {{"workers", nWorkers}, {"curl", curl_version()}}},
                      {"servers", servers},
                      {"scenarios", provScenarios},
                      {"started_utc", out.startedUtc},
                      {"run_id", out.runId}};
    lp = m_live.progress();
    lp.running = false;
    m_live.setProgress(lp);
    impl.refreshLive();
    return out;
}

} // namespace Throughline
