#include "core/run/runcontroller.h"
#include "core/run/runcontrollerimpl.h"

#include "core/engine/endpointprobe.h"
#include "core/engine/hostprovenance.h"
#include "core/engine/lengthdraw.h"
#include "core/engine/loadschedule.h"
#include "core/engine/modeltime.h"
#include "core/engine/processstats.h"
#include "core/engine/requestbuilder.h"
#include "core/engine/secrets.h"
#include "core/engine/samplepromptsource.h"
#include "core/engine/tokenizerpromptsource.h"
#include "core/engine/worker.h"
#include "core/targets/verdict.h"
#include "core/telemetry/telemetryscraper.h"
#include "core/util/freedmemory.h"
#include "core/util/version.h"
#include "core/workload/sessioncalibration.h"
#include "core/workload/workloaddriver.h"

#include <QDateTime>
#include <QUuid>

#include <curl/curl.h>

#include <algorithm>
#include <cmath>
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

WorkItem RunController::Impl::makeItem(std::int64_t tSched, const WorkloadRequest *wr)
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
    if (!w.record.warmup && p.issueSpanNs > 0 && p.issueUntilNs < 0)
        p.issueUntilNs = tSched + p.issueSpanNs;
    w.record.replica = static_cast<int>(replica);
    w.record.intendedIsl = isl;
    w.record.intendedOsl = osl;
    w.record.tSched = tSched;
    w.options = p.transfer;
    ++p.sent;
    return w;
}

namespace {

bool completesWholePasses(int inWindow, int multiple, int minMeasured)
{
    return inWindow >= minMeasured && inWindow % multiple == 0;
}

} // namespace

void RunController::Impl::onComplete(RequestRecord &&r, int workerIndex)
{
    q->m_live.push(LiveSnapshot::sampleOf(r));
    const bool failed = !r.ok();
    totalFinished.fetch_add(1);
    if (failed)
        totalFailed.fetch_add(1);
    Point &p = point;
    std::unique_lock lock(p.mutex);
    if (r.scenarioIndex != p.scenarioIndex || r.pointIndex != p.pointIndex) {
        // A record of an earlier point that came back after that point closed (its worker was stalled for
        // longer than cancelInFlight waits): it belongs to neither point. That point's validity note counts
        // it as missing; this one must not count it at all.
        return;
    }
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
    // Closed loop bounded by duration: the first slot freed once the measured issue span is over sends the
    // last request (so the span is at least the duration), then the point ends with what it sent — or, with
    // whole passes asked for, the send after which the window holds a whole multiple (and at least the
    // floor) is the last. The window is [first measured send, last send): the last send closes it, so after
    // this send the window holds the measured requests sent before it, p.sent − p.warmup.
    const bool lastSend = p.closedLoop && p.issueUntilNs >= 0 && nowNs() >= p.issueUntilNs &&
                          completesWholePasses(p.sent - p.warmup, p.issueMultiple, p.minMeasured);
    // Closed loop: the freed slot sends the next request at once (t_sched = slot-free time).
    for (WorkloadRequest &n : next)
        dispatchWorkload(std::move(n), lock, workerIndex);
    if (p.closedLoop && !p.driver && !p.stopSubmitting && !cancel.load() && p.sent < p.total) {
        WorkItem w = makeItem(nowNs());
        if (lastSend)
            p.total = p.sent; // waitPointDone returns once these have finished
        lock.unlock();
        workers[static_cast<std::size_t>(workerIndex)]->submit(std::move(w));
        lock.lock();
    }
    p.cv.notify_all();
}

void RunController::Impl::refreshLive()
{
    q->m_live.updateCounters(totalFinished.load(), totalFailed.load(), inFlightTotal(),
                             static_cast<double>(nowNs()) / 1e9);
}

bool RunController::Impl::waitPointDone(std::int64_t pointStartNs, double maxDurationS)
{
    Point &p = point;
    bool truncated = false;
    const std::int64_t deadline = pointStartNs + static_cast<std::int64_t>(maxDurationS * 1e9);
    const std::int64_t hardDeadline = deadline + static_cast<std::int64_t>(opt.graceS * 1e9);
    bool graceStarted = false;
    int samples = 0;
    std::unique_lock lock(p.mutex);
    // Cancels every in-flight transfer (outside the point lock: workers report completions under it) and
    // waits for their records, so a stopped point still accounts for what it sent. Cancelling thousands of
    // streams takes seconds (each closes its socket), so the wait lasts as long as records keep coming and
    // gives up only after 1.5 s without one (a stuck worker). A fixed 1.5 s lost the last few hundred
    // records of a 16,384-stream point (bench_streams hold counted them as streams without a first token);
    // a record that comes back after the point closed is missing from it and lands in the next point.
    auto cancelInFlight = [&] {
        lock.unlock();
        for (auto &w : workers)
            w->cancelAll();
        lock.lock();
        for (int seen = -1; p.finished < p.sent && p.finished != seen;) {
            seen = p.finished;
            p.cv.wait_for(lock, std::chrono::milliseconds(1500),
                          [&] { return p.finished >= p.sent || p.finished != seen; });
        }
    };
    for (;;) {
        const bool allSent = p.stopSubmitting || p.sent >= p.total || !p.closedLoop;
        if (allSent && p.finished >= p.sent && (p.closedLoop ? true : p.stopSubmitting))
            break;
        if (cancel.load() || p.errorAbort) {
            p.stopSubmitting = true;
            cancelInFlight();
            break;
        }
        const std::int64_t now = nowNs();
        if (!graceStarted && now >= deadline) {
            graceStarted = true;
            p.stopSubmitting = true; // no new requests; in-flight ones get the grace period
        }
        if (graceStarted && now >= hardDeadline) {
            truncated = true;
            cancelInFlight();
            break;
        }
        p.cv.wait_for(lock, std::chrono::milliseconds(100));
        p.peakInFlight = std::max(p.peakInFlight, p.sent - p.finished);
        lock.unlock();
        refreshLive();
        if (++samples % 10 == 0) {
            // Listing /proc/self/fd walks every descriptor (16k+ at scale): once a second is plenty.
            const int fds = openFdCount();
            releaseCommittedWhileMeasuring();
            lock.lock();
            p.peakOpenFds = std::max(p.peakOpenFds, fds);
        } else {
            lock.lock();
        }
    }
    refreshLive();
    return truncated;
}

void RunController::Impl::startWorkers(int count)
{
    std::lock_guard lock(workersMutex);
    for (int i = 0; i < count; ++i) {
        workers.push_back(std::make_unique<Worker>(
            i, t0, [this](RequestRecord &&r, std::uint64_t, int wi) { onComplete(std::move(r), wi); }));
        workers.back()->start();
    }
}

void RunController::Impl::stopWorkers()
{
    std::lock_guard lock(workersMutex);
    for (auto &w : workers)
        w->stop();
    workers.clear();     // closes every connection
    cpuWaitBase.clear(); // the next workers' threads count their run-queue wait from zero
}

void RunController::Impl::restartWorkers()
{
    const int count = static_cast<int>(workers.size());
    stopWorkers();
    startWorkers(count);
}

std::vector<double> RunController::Impl::takeLoopLag()
{
    std::vector<double> all;
    ReadObservation obs;
    cpuWaitBase.resize(workers.size());
    obs.cpuWaitKnown = !workers.empty();
    for (std::size_t i = 0; i < workers.size(); ++i) {
        auto v = workers[i]->takeLoopLagMs();
        all.insert(all.end(), v.begin(), v.end());
        workers[i]->takeReadDelays(obs.readDelayCounts);
        const std::optional<ThreadCpuWait> now = workers[i]->cpuWait();
        if (!now) {
            obs.cpuWaitKnown = false;
            continue;
        }
        obs.cpuWaitNs += now->waitNs - cpuWaitBase[i].waitNs;
        obs.wakeups += now->timeslices - cpuWaitBase[i].timeslices;
        cpuWaitBase[i] = *now;
    }
    readObservation = std::move(obs);
    return all;
}

void RunController::Impl::preparePoint(int si, int pi, const Scenario &sc, const RequestBuilder &builder,
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
    p.issueSpanNs = 0; // closed points bounded by duration set it (runClosedPoint)
    p.issueUntilNs = -1;
    p.issueMultiple = 1;
    p.minMeasured = 0;
    p.stopSubmitting = stopSending.load();
    p.errorAbort = false;
    p.errorRateLimit = sc.plan.errorRateLimit;
    p.builder = &builder;
    p.transfer = transfer;
    p.scenario = &sc;
    p.urls = urls;
    p.seed = sc.plan.seed + static_cast<std::uint64_t>(pi);
    // The scenario's read order; each worker applies it before starting any request of this point.
    for (auto &w : workers)
        w->setFirstTokenPriority(sc.plan.firstTokenPriority);
    p.prioritySocketReads0 = prioritySocketReads();
}

void RunController::Impl::prefetchPrompts(const Scenario &sc, const RequestBuilder &builder, int total,
                                          int burst)
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

    // One per core this process may run on: two workers time-sharing a core only delay each other's reads.
    const int nWorkers = impl.opt.workers > 0 ? impl.opt.workers : usableCpuCount();
    impl.startWorkers(nWorkers);

    std::uint64_t planned = 0;
    double issueWallS = 0;
    bool unknownCount = false; // a duration-bounded scenario: the run is planned by time
    for (const Scenario &sc : impl.scenarios) {
        planned += plannedRequests(sc.plan);
        const double issueS = plannedIssueSeconds(sc.plan);
        unknownCount = unknownCount || issueS > 0;
        const bool simulated = sc.endpoint.kind == Endpoint::Kind::Simulated && sc.endpoint.sim.timeScale > 0;
        issueWallS += issueS / (simulated ? sc.endpoint.sim.timeScale : 1.0);
    }
    LiveProgress lp;
    lp.scenarioCount = static_cast<int>(impl.scenarios.size());
    lp.plannedRequests = unknownCount ? 0 : planned;
    lp.plannedIssueWallS = unknownCount ? issueWallS : 0;
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
        if (!driver && sc.plan.datasetSamples > 0)
            prompts = std::make_shared<WithReplacementSampleOrder>(
                prompts ? prompts : std::make_shared<SyntheticPromptSource>(sc.plan.seed),
                static_cast<std::uint64_t>(sc.plan.datasetSamples), sc.plan.seed);
        RequestBuilder builder(sc, m_runId, driver ? driver->prompts() : prompts, apiKey);
        so.requestTemplate = builder.templateJson();
        auto transfer = std::make_shared<TransferOptions>();
        transfer->caFile = sc.endpoint.caFile;
        transfer->insecure = sc.endpoint.insecure;
        transfer->httpVersion = sc.endpoint.httpVersion;
        transfer->readPath = sc.endpoint.readPath;
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
        auto runPoint = [&](const PointLoad &load, const std::function<PointOutcome(int pi)> &measure) {
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
            p.load = load;
            p.pointLabel = pointLoadLabel(load);
            m_live.setProgress(p);
            // The previous point has usually been committed by now (idle check, cooldown): its records go
            // before this point gathers its own, and the heap its finish used goes back to the system, so a
            // long run holds one point's records at a time, not two.
            impl.releaseHeldRecords(out, so);
            returnFreedMemory();
            impl.finishedRun = &out;
            impl.finishedScenario = &so;
            PointOutcome measured = measure(pi);
            impl.finishedRun = nullptr;
            impl.finishedScenario = nullptr;
            so.points.push_back(std::move(measured));
            so.points.back().result.load.repeat =
                load.repeat; // the measurement knows the load, not the repeat
            if (impl.opt.onPointFinished)
                impl.opt.onPointFinished(so, so.points.back());
            impl.releaseHeldRecords(out, so); // this point's records usually go at the next one's end
            if (so.points.back().aborted) {
                so.aborted = true;
                so.abortReason = "error rate above " +
                                 std::to_string(static_cast<int>(sc.plan.errorRateLimit * 100)) + " % at " +
                                 pointLoadLabel(load);
                return false;
            }
            if (impl.opt.stopScenarioAfterPoint) {
                if (std::string rule = impl.opt.stopScenarioAfterPoint(so, so.points.back()); !rule.empty()) {
                    so.aborted = true;
                    so.stoppedByRule = true;
                    so.abortReason = std::move(rule);
                    return false;
                }
            }
            return !impl.cancel.load() && !impl.stopSending.load();
        };
        // A load run plan.repeats times back to back (PointLoad::repeat 1 … N; docs/metrics.md "Repeats"),
        // each repeat after the first on fresh connections. Prompts are never shared: they are keyed by the
        // run-wide request sequence number. False = stop the scenario.
        auto runRepeats = [&](PointLoad load, const std::function<PointOutcome(int pi)> &measure) {
            const int repeats = std::max(1, sc.plan.repeats);
            for (int r = 1; r <= repeats; ++r) {
                load.repeat = repeats > 1 ? r : 0;
                if (r > 1)
                    impl.restartWorkers();
                if (!runPoint(load, measure))
                    return false;
            }
            return true;
        };
        auto runPointClosed = [&](int c) {
            const PointLoad load{PointLoad::Mode::Concurrency, c, 0};
            return runRepeats(load, [&](int pi) {
                if (driver)
                    return impl.runWorkloadPoint(si, pi, sc, *driver, load, builder, transfer, urls,
                                                 so.timeScale, so.simulated);
                return impl.runClosedPoint(si, pi, sc, c, builder, transfer, urls, so.timeScale,
                                           so.simulated);
            });
        };
        // Search mode's bisection step for a load: every repeat meets the SLOs.
        auto loadMeetsSlo = [&]() {
            const int repeats = std::max(1, sc.plan.repeats);
            bool meets = !so.points.empty();
            for (int k = 0; k < repeats && k < static_cast<int>(so.points.size()); ++k)
                meets = meets && searchPointMeetsSlo(so.points[so.points.size() - 1 - k].result, sc.slo);
            return meets;
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

        // Prompt calibration: the server is asked how it counts before the first point (after a cold start,
        // whose first request must be the server's first); docs/workloads.md "Prompt calibration".
        nlohmann::json calibration = nullptr;
        if (!so.aborted && !impl.cancel.load() && !driver) {
            calibration = calibrateScenarioPrompts(sc, prompts, apiKey);
            if (calibration.is_object() && !calibration.value("note", std::string()).empty())
                impl.promptNote +=
                    (impl.promptNote.empty() ? "" : "; ") + calibration["note"].get<std::string>();
        } else if (!so.aborted && !impl.cancel.load()) { // multi-turn chat sessions (sessioncalibration.h)
            calibration = calibrateSessionPrompts(sc, *driver, apiKey);
            if (calibration.is_object() && !calibration.value("note", std::string()).empty())
                impl.promptNote +=
                    (impl.promptNote.empty() ? "" : "; ") + calibration["note"].get<std::string>();
        }

        switch (sc.plan.mode) {
        case LoadPlan::Mode::Closed:
            for (std::size_t k = 0; k < sc.plan.concurrencies.size(); ++k) {
                int c = sc.plan.concurrencies[k];
                if (impl.opt.chooseClosedConcurrency)
                    if (const int chosen = impl.opt.chooseClosedConcurrency(so, static_cast<int>(k), c);
                        chosen > 0)
                        c = chosen;
                if (!runPointClosed(c))
                    break;
            }
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
                search.report(*c, loadMeetsSlo());
            }
            so.searchBest = search.best();
            break;
        }
        case LoadPlan::Mode::Open:
            for (double rate : sc.plan.rates) {
                const PointLoad load{PointLoad::Mode::Rate, 0, rate};
                const bool more = runRepeats(load, [&](int pi) {
                    if (driver)
                        return impl.runWorkloadPoint(si, pi, sc, *driver, load, builder, transfer, urls,
                                                     so.timeScale, so.simulated);
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
            so.stoppedByUser = true;
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
                                 {"first_token_priority", sc.plan.firstTokenPriority},
                                 {"simulated", so.simulated},
                                 {"time_scale", so.timeScale},
                                 {"sim_seed", sc.endpoint.sim.seed}});
        if (calibration.is_object())
            provScenarios.back()["prompt_calibration"] = calibration;
        out.scenarios.push_back(std::move(so));
        // Simulated endpoints stay up until the workers closed their keep-alive connections (below).
        if (sim.owner)
            sims.push_back(std::move(sim));
    }

    impl.stopWorkers();
    if (!sims.empty()) // let an in-process simulator notice the closed connections before it stops
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    sims.clear();
    out.cancelled = impl.cancel.load();

    // Read order (docs/metrics.md "Clock and timestamps"): one value when every scenario used the same, else
    // "per_scenario" (each scenarios[] entry has its own first_token_priority).
    nlohmann::json engine = {{"workers", nWorkers}, {"curl", curl_version()}};
    for (const Scenario &sc : impl.scenarios) {
        const nlohmann::json v = sc.plan.firstTokenPriority;
        if (!engine.contains("first_token_priority"))
            engine["first_token_priority"] = v;
        else if (engine["first_token_priority"] != v)
            engine["first_token_priority"] = "per_scenario";
    }
    out.provenance = {{"tool_version", toolVersion()},
                      {"git_sha", gitSha()},
                      {"campaign", {{"name", impl.opt.campaignName}, {"sha256", impl.opt.campaignSha256}}},
                      {"host", hostProvenance()},
                      {"engine", engine},
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
