#pragma once
// Private state of RunController, shared by the files that implement it (not part of the public API):
//   runcontroller.cpp          public API, the scenario loop of run(), request/completion bookkeeping
//   syntheticpoint.cpp         closed-loop and open-loop points of the synthetic workload
//   workloadpoint.cpp          points driven by a core/workload WorkloadDriver (sessions, datasets, traces)
//   pointfinish.cpp            turning a finished point into a PointOutcome (metrics, client, telemetry)
//   coldstartmeasurement.cpp   time to ready and the first request of a cold-started endpoint
//
// Thread affinity: everything runs on run()'s thread except onComplete() (worker threads) and the
// DelayedDispatcher callback; `point` is guarded by point.mutex, the counters are atomics.

#include "core/run/runcontroller.h"

#include "core/engine/endpointprobe.h"
#include "core/engine/requestbuilder.h"
#include "core/engine/worker.h"
#include "core/metrics/pointresult.h"
#include "core/run/heldrecords.h"
#include "core/telemetry/telemetryscraper.h"
#include "core/util/freedmemory.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace Throughline {

class DelayedDispatcher;
class WorkloadDriver;
struct WorkloadRequest;

struct RunController::Impl {
    using Clock = std::chrono::steady_clock;

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
    // Dynamo request traces (server_timing dynamo-trace): per file, where the previous point's read stopped.
    std::map<std::string, long long> traceFileOffsets;

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
        // Closed loop bounded by duration (LoadPlan::pointDurationS): the measured requests are issued for
        // this long (wall ns; 0 = no bound) from the first one's t_sched; then no further request is sent.
        std::int64_t issueSpanNs = 0;
        std::int64_t issueUntilNs = -1; // set by the first measured request
        int issueMultiple = 1;          // LoadPlan::issueMultiple / minMeasuredRequests
        int minMeasured = 0;
        int peakOpenFds = 0;  // sampled about once a second while the point runs (controller thread)
        int peakInFlight = 0; // sent − finished, same sampling
        std::uint64_t prioritySocketReads0 = 0; // workers' priority-set reads when the point started
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
    WorkItem makeItem(std::int64_t tSched, const WorkloadRequest *wr = nullptr);

    // Worker thread: records a finished request; closed loop sends the next one on the same worker.
    void onComplete(RequestRecord &&r, int workerIndex);

    // Sockets the workers read from their first-token priority set so far (client.priority_socket_reads).
    std::uint64_t prioritySocketReads() const
    {
        std::uint64_t n = 0;
        for (const auto &w : workers)
            n += w->prioritySocketReads();
        return n;
    }

    int inFlightTotal() const
    {
        int n = 0;
        for (const auto &w : workers)
            n += w->inFlight();
        return n;
    }
    void refreshLive();
    // The engine's workers, one per `count`; restartWorkers() replaces them (closing every keep-alive
    // connection) so the next point starts on fresh connections — what a repeat needs to share no state
    // with the run before it.
    void startWorkers(int count);
    void stopWorkers();
    void restartWorkers();

    // Waits until every sent request finished; enforces max duration + grace → harness-cancelled.
    bool waitPointDone(std::int64_t pointStartNs, double maxDurationS);

    // The workers' self-observation since the previous call (each point calls it as it starts and as it
    // finishes): returns the loop lag samples and leaves the read delays and CPU waits of the same span in
    // readObservation (the client's error budget, docs/metrics.md).
    std::vector<double> takeLoopLag();
    struct ReadObservation {
        std::vector<std::uint64_t> readDelayCounts; // ReadDelayHistogram buckets
        std::int64_t cpuWaitNs = 0;                 // worker threads' run-queue wait in the span
        std::uint64_t wakeups = 0;                  // … and the times they were put on a CPU
        bool cpuWaitKnown = false;
    } readObservation;
    std::vector<ThreadCpuWait> cpuWaitBase; // per worker, at the previous takeLoopLag()

    void preparePoint(int si, int pi, const Scenario &sc, const RequestBuilder &builder,
                      const std::shared_ptr<const TransferOptions> &transfer,
                      const std::vector<std::string> &urls);

    // Lets the prompt source make the point's prompts ahead of sending (seq and ISL as makeItem draws them).
    void prefetchPrompts(const Scenario &sc, const RequestBuilder &builder, int total, int burst);

    // --- pointfinish.cpp
    // Aggregates the point's records (sorted by seq, time-scaled back) with the client's self-observation.
    PointOutcome finishPoint(const Scenario &sc, PointLoad load, std::int64_t scheduleEndNs, bool truncated,
                             double cpu0, std::int64_t wall0, double timeScale, bool simulated);

    // Telemetry summary, stalls and replicas of the point (pointanalysis.h). recs and the window are in
    // model time; the scraper runs on the wall run clock.
    void analysePoint(PointOutcome &out, const std::vector<RequestRecord> &recs, double timeScale,
                      bool simulated, std::int64_t pointStartWallNs);

    // --- syntheticpoint.cpp
    PointOutcome runClosedPoint(int si, int pi, const Scenario &sc, int c, const RequestBuilder &builder,
                                const std::shared_ptr<const TransferOptions> &transfer,
                                const std::vector<std::string> &urls, double timeScale, bool simulated);

    PointOutcome runOpenPoint(int si, int pi, const Scenario &sc, double rate, const RequestBuilder &builder,
                              const std::shared_ptr<const TransferOptions> &transfer,
                              const std::vector<std::string> &urls, double timeScale, bool simulated);

    // --- workloadpoint.cpp
    // Workload hook: sends r now (on workerIndex's worker, -1 = least loaded) or hands it to the dispatcher
    // thread when it is due later (think time, trace timestamp). Caller holds point.mutex via `lock`.
    void dispatchWorkload(WorkloadRequest &&r, std::unique_lock<std::mutex> &lock, int workerIndex);

    // A point run by a workload driver (core/workload): closed loop (load.concurrency sessions), open loop
    // (load.rate session arrivals) or a trace replay (the driver's own schedule).
    PointOutcome runWorkloadPoint(int si, int pi, const Scenario &sc, WorkloadDriver &driver, PointLoad load,
                                  const RequestBuilder &builder,
                                  const std::shared_ptr<const TransferOptions> &transfer,
                                  const std::vector<std::string> &urls, double timeScale, bool simulated);

    void idleCheck(const std::string &baseUrl, double cooldownS, double timeScale)
    {
        waitUntilIdle(baseUrl, cooldownS, timeScale, opt.idleCheckTimeoutS, cancel);
    }

    // RunOptions::recordsHeldElsewhere over the finished scenarios and the running one; returns how many
    // points let their records go.
    int releaseHeldRecords(RunOutcome &out, ScenarioOutcome &current) const
    {
        if (!opt.recordsHeldElsewhere)
            return 0;
        int released = 0;
        for (ScenarioOutcome &so : out.scenarios)
            released += releaseRecordsHeldElsewhere(so, opt.recordsHeldElsewhere);
        return released + releaseRecordsHeldElsewhere(current, opt.recordsHeldElsewhere);
    }

    // The finished points of the run while a point is measured (run()'s outcome and the scenario's, set
    // around measure(); the point being measured is in neither). waitPointDone() lets their records go as
    // soon as the history has committed them, once a second: a point holds only its own records, not also
    // the one before it for as long as the writer takes. Run()'s thread only.
    RunOutcome *finishedRun = nullptr;
    ScenarioOutcome *finishedScenario = nullptr;
    void releaseCommittedWhileMeasuring()
    {
        if (finishedRun && finishedScenario && releaseHeldRecords(*finishedRun, *finishedScenario) > 0)
            returnFreedMemory();
    }

    // --- coldstartmeasurement.cpp
    // Cold start (Endpoint::coldStart): polls /health and /v1/models from sinceNs (run clock) until both
    // answer, then times one first request through the normal worker path (not a measured point). Returns
    // ScenarioOutcome::coldStart; *notReady set when the endpoint did not become ready in time.
    nlohmann::json measureColdStart(int si, const Scenario &sc, std::int64_t sinceNs, const char *since,
                                    const RequestBuilder &builder,
                                    const std::shared_ptr<const TransferOptions> &transfer,
                                    const std::vector<std::string> &urls, double timeScale, bool simulated,
                                    std::string *notReady);
};

} // namespace Throughline
