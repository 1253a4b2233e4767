#pragma once
// Runs a list of scenarios through the load engine: for each scenario a health check, then its load points
// (closed loop, open loop, curve with early stop, search by bisection) with cooldown + idle check in between;
// per point the records are aggregated by core/metrics. A scenario whose endpoint is down or whose error rate
// exceeds the limit is aborted; the campaign goes on. Simulated endpoints are started through the injected
// launcher (core cannot link throughline_sim; both apps wire core/sim/simlauncher.h).
//
// Thread affinity: run() blocks the calling thread (never the UI thread); cancel() and live() from any
// thread. Workers live for the whole run so keep-alive connections are reused across points.

#include "core/campaign/scenario.h"
#include "core/campaign/simulatedendpoint.h"
#include "core/run/livesnapshot.h"
#include "core/engine/promptsource.h"
#include "core/engine/requestrecord.h"
#include "core/metrics/pointresult.h"
#include "core/engine/stalldetector.h"
#include "core/telemetry/telemetrysnapshot.h"
#include "core/util/result.h"

#include <atomic>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace Throughline {

struct ScenarioOutcome;
struct PointOutcome;

struct RunOptions {
    int workers = 0;               // 0 = one per core this process may run on (affinity mask)
    std::string apiKeyEnvOverride; // --api-key-env
    std::string campaignName;
    std::string campaignSha256;
    SimLauncher simLauncher;
    // Prompts of every scenario; null = promptFactory, else SyntheticPromptSource(plan.seed).
    std::shared_ptr<const PromptSource> prompts;
    // Per-scenario prompt source when `prompts` is null (exactPromptSourceFactory(): exact-length prompts
    // with the model's tokenizer); its note goes into every point's validity notes of that scenario.
    PromptSourceFactory promptFactory;
    double idleCheckTimeoutS = 30;
    double graceS = 10; // after max duration, before harness-cancelled
    double healthTimeoutS = 5;
    double stallTimeoutS = 30; // no byte for this long after the first token → stall-mid-stream (model time)
    bool keepRecords = true;   // keep raw records in the outcome (for requests.csv / storage)
    // Server telemetry: a TelemetryScraper per scenario on the backend preset's telemetry paths (simulated
    // endpoints: /metrics) plus Endpoint::telemetryUrls, every Endpoint::telemetryIntervalS (0 there = off).
    // Scrape failures never affect the load; they are counted per point and per source.
    bool scrapeTelemetry = true;
    // Stall detection per point (always on; nowNs is ignored; minThresholdNs is wall time, i.e. × the time
    // scale of a simulated endpoint).
    StallOptions stalls;
    // Cold start (Endpoint::coldStart): start moment of the first scenario that measures it, as Unix epoch
    // milliseconds (`run --ready-since`, a server started just before the run); 0 = the run's start. Later
    // scenarios measure from their own start.
    std::int64_t readySinceUnixMs = 0;
    // Called on run()'s thread after each load point, with its scenario's outcome so far (the point is the
    // last of scenario.points). The GUI marshals it to its own thread; it must not block for long.
    std::function<void(const ScenarioOutcome &scenario, const PointOutcome &point)> onPointFinished;
    // Asked on run()'s thread after onPointFinished: a non-empty answer stops the scenario there (aborted,
    // stoppedByRule, abortReason = the answer); later scenarios still run. The MLPerf mode's "can no longer
    // comply" (core/run/mlperfmode.h).
    std::function<std::string(const ScenarioOutcome &scenario, const PointOutcome &point)>
        stopScenarioAfterPoint;
    // Asked on run()'s thread before each point of a closed-loop list: the concurrency to run as the
    // `listIndex`-th point instead of `planned` (≤ 0 = keep it). MLPerf mode's adaptive placement.
    std::function<int(const ScenarioOutcome &scenario, int listIndex, int planned)> chooseClosedConcurrency;
    // Asked on run()'s thread after each point, for every earlier point of the run that still holds raw
    // records: true = they are safely elsewhere (committed to the history database), so the outcome lets them
    // go (PointOutcome::recordsInHistory). Unset = records stay. Keeps a long run's memory at about its
    // largest point rather than the sum of all points.
    std::function<bool(int scenarioIndex, int pointIndex)> recordsHeldElsewhere;
    // Resume (`run --resume`): reuse this run id (empty = a new UUIDv4) and start request seqs at firstSeq
    // (X-Request-Id stays unique within the run). Points in completedPoints, keyed (scenario index, point
    // index), are not run again: their stored results enter the outcome as they are (PointOutcome::stored,
    // no records, no onPointFinished) so curve early-stop and search decisions see them.
    std::string runId;
    std::uint64_t firstSeq = 0;
    std::map<std::pair<int, int>, PointResult> completedPoints;
};

struct PointOutcome {
    int pointIndex = 0;
    PointResult result;
    std::vector<RequestRecord> records; // time-scaled back for simulated endpoints
    nlohmann::json client;              // extras: open_fds, achieved/target load, send lateness, lag
    bool aborted = false;               // error-rate limit hit
    bool stored = false;                // resume: taken from RunOptions::completedPoints, not run now
    // The raw records left the outcome once the history had committed them (RunOptions::recordsHeldElsewhere,
    // CampaignRun::Setup::releaseRecordedPoints): read them back with StoredRecords::ofPoint.
    bool recordsInHistory = false;
    void leaveRecordsToHistory()
    {
        std::vector<RequestRecord>().swap(records);
        recordsInHistory = true;
    }
    // Telemetry and stream analysis of the point: {"telemetry": the flat summary also in result.telemetry,
    // "stalls": {threshold_ms, …, worst[…]}, "replicas": […] (several replicas only), "sources": […]}.
    // Stall/replica/scrape-failure findings are also sentences in result.validity.notes.
    nlohmann::json telemetry = nlohmann::json::object();
    // Server timing (Endpoint::serverTiming, docs/server-timing.md): one breakdown per record, in seq order,
    // model time; empty when the endpoint publishes none. Its summary is result.serverTiming.
    std::vector<RequestBreakdown> breakdowns;
};

struct ScenarioOutcome {
    int scenarioIndex = 0;
    Scenario scenario;
    std::vector<PointOutcome> points;
    bool aborted = false;
    std::string
        abortReason; // "endpoint unreachable: …", "error rate …", "cancelled", "stopped by the user …"
    bool stoppedByUser = false; // stopSending() ended it: in-flight requests finished and count
    bool stoppedByRule = false; // RunOptions::stopScenarioAfterPoint ended it (abortReason names the rule)
    bool endpointDown = false;
    bool simulated = false;
    double timeScale = 1.0;
    nlohmann::json requestTemplate;
    int searchBest = 0; // search mode: highest concurrency meeting the SLOs (0 = none)
    // Series scraped during the scenario on the run clock (model time for time-scaled simulated endpoints:
    // times × time scale, rates ÷, seconds ×), with each source's ok/failed counts. Empty when not scraped.
    TelemetrySnapshot telemetry;
    // Cold start ("time to ready", null unless the endpoint's cold_start is enabled): {since: run_start |
    // scenario_start | ready_since, time_to_ready_s, health_ok_s, models_ok_s (wall seconds from the start
    // moment), polls, poll_interval_s, first_request_ttft_ms, first_request_e2e_ms (model time),
    // first_request_ok, error (when not ready in time or the first request failed)}. results.json
    // "cold_start".
    nlohmann::json coldStart;
};

struct RunOutcome {
    std::string runId; // UUIDv4
    std::string startedUtc;
    std::vector<ScenarioOutcome> scenarios;
    nlohmann::json provenance;
    bool cancelled = false;
    bool simulated = false;
    double timeScale = 1.0;
    std::int64_t t0SteadyNs = 0; // steady_clock (CLOCK_MONOTONIC) nanoseconds of the run's t=0
};

class RunController
{
public:
    RunController(std::vector<Scenario> scenarios, RunOptions options);
    ~RunController();

    Result<RunOutcome> run();
    void cancel(); // stops within ~1 s: in-flight requests end as harness-cancelled, outcome marked cancelled
    // Gentler stop: no new requests from now on; in-flight ones finish normally, then the run ends (the
    // current point is kept, its scenario marked stopped). Thread-safe.
    void stopSending();
    LiveSnapshot &live() { return m_live; }
    // Telemetry of the scenario being run so far (samples after sinceNs; wall run clock, not time-scaled);
    // empty between scenarios or when not scraping. Thread-safe.
    TelemetrySnapshot liveTelemetry(std::int64_t sinceNs = std::numeric_limits<std::int64_t>::min()) const;
    const std::string &runId() const { return m_runId; }

private:
    struct Impl;
    std::unique_ptr<Impl> d;
    std::string m_runId;
    LiveSnapshot m_live;
};

std::string newUuidV4();

} // namespace Throughline
