#pragma once
// Records a run into a history database while it runs (crash-safe), rather than after it (runrecording.h):
// the run row (status 'running', exact campaign JSON, plan id) before the first request; each load point
// (point row, aggregates, its requests and their events, telemetry summary) in one transaction as soon as the
// point finishes; scenario verdicts, provenance and the final status at the end. A SIGKILL mid-run leaves the
// run 'running' with every finished point intact; the next writer marks it 'crashed' (StorageWriter::open)
// and `throughline-cli run --resume` continues it through resume().
//
// The engine hands points over from RunOptions::onPointFinished; the records are copied into the
// StorageWriter's queue and written by its thread, so the engine never waits on the disk. A storage error
// stops the recording (lastError()), never the run.
//
// Thread affinity: start()/resume()/finish() on the thread that owns the run; pointFinished() from the
// engine's run() thread (the single producer of the writer's per-point groups).

#include "core/run/runcontroller.h"
#include "core/results/resultsjson.h"
#include "core/storage/storagetypes.h"
#include "core/storage/storagewriter.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace Throughline {

class LiveRunRecording
{
public:
    LiveRunRecording() = default;
    ~LiveRunRecording(); // closes the writer (a run left unfinished stays 'running' until recovered)
    LiveRunRecording(const LiveRunRecording &) = delete;
    LiveRunRecording &operator=(const LiveRunRecording &) = delete;

    // Identity of a scenario as stored (key, model, backend, gpu, phase, lengths, config). `index` is its
    // position in the list given to the engine (RunOutcome scenario index).
    static ScenarioInfo scenarioInfo(int index, const Scenario &scenario);

    // Opens (creating/migrating, recovering crashed runs) `path` and writes the run row. `run.t0UnixNs` is
    // the wall clock the point start times are computed from: take it right before RunController::run().
    // Blocking until the row is committed (errors surface here, before any load is offered).
    Status start(const std::string &path, RunStart run);

    // Continues a crashed or cancelled run `uuid` in `path`: the run becomes 'running' under this process and
    // the points in `dropPoints` (scenario, point) — partially written by the interrupted run — lose their
    // rows. `t0UnixNs`: wall clock of the resumed engine run's t=0. Blocking; fails when the run is not
    // crashed/cancelled (e.g. resumed meanwhile by another process).
    Status resume(const std::string &path, const std::string &uuid,
                  const std::vector<std::pair<int, int>> &dropPoints, std::int64_t t0UnixNs);

    // Server telemetry of the scenario being run, on the wall clock (RunController::liveTelemetry()): when
    // set, each finished point also stores its scenario's series so far (model time for time-scaled
    // simulators), so a crash keeps the telemetry of every committed point. Called on the engine's run()
    // thread from pointFinished() only; finish() drops it (the controller may be gone by then).
    void setLiveTelemetry(std::function<TelemetrySnapshot()> liveTelemetry);

    // One finished point (not PointOutcome::stored ones): enqueued as one transaction with the scenario's
    // telemetry so far (setLiveTelemetry); returns at once.
    // `config` = the stored point config (null = {"load": the point's load as run}).
    void pointFinished(const ScenarioOutcome &scenario, const PointOutcome &point,
                       nlohmann::json config = nullptr);

    // Verdicts (results: one ScenarioResult per outcome scenario), scenario telemetry (replacing the rows
    // stored per point), provenance (the outcome's plus `extraProvenance` keys), final status (cancelled or
    // completed); then flushes and closes.
    // keepStartTime (resume): the original run's t=0, started_utc and provenance stay; only extraProvenance
    // keys are added/replaced.
    // notRunScenarios: indices of scenarios the run never reached (cancelled or stopped before them); their
    // rows get verdict {"status": "not_run"} and no points, as recordRun's plannedScenarios stores them.
    Status finish(const RunOutcome &run, const RunResults &results, const nlohmann::json &extraProvenance,
                  bool keepStartTime, const std::vector<int> &notRunScenarios = {});

    bool isOpen() const { return m_writer.isOpen(); }
    const std::string &runUuid() const { return m_uuid; }
    std::optional<Error> lastError() const { return m_writer.lastError(); }
    StorageWriter::Stats stats() const { return m_writer.stats(); }

    // True once the point given to pointFinished() is committed (its transaction, and every one queued before
    // it; the writer counts requests only at COMMIT). False for a point never handed over, and after any
    // storage error. Same thread as pointFinished().
    bool committed(int scenarioIndex, int pointIndex) const;

private:
    StorageWriter m_writer;
    // Per handed-over point: the writer's requestsEnqueued right after its group, reached by
    // requestsWritten once the group is committed.
    std::map<std::pair<int, int>, std::uint64_t> m_committedAt;
    std::string m_uuid;
    std::int64_t m_t0UnixNs = 0;
    std::function<TelemetrySnapshot()> m_liveTelemetry;
};

} // namespace Throughline
