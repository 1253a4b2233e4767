#pragma once
// One run of a campaign, the same for the desktop app and `throughline-cli run`:
//   hash (campaignhash.h) → targets loaded once → run row recorded (history, before the first request) →
//   RunController runs, each finished point recorded as it finishes (LiveRunRecording) → every scenario
//   judged once (judgeRun) → verdicts, provenance and final status recorded.
// The apps keep argument parsing and presentation: the run page shows Finished::results, the CLI prints and
// writes them.
//
// Thread affinity: run() blocks the calling thread (never the UI thread); controller() (cancel, live,
// telemetry) from any thread while run() is going.

#include "core/campaign/campaign.h"
#include "core/results/resultsjson.h"
#include "core/run/liverunrecording.h"
#include "core/run/runcontroller.h"
#include "core/targets/targettable.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace Throughline {

// The campaign's target table and baseline, loaded once per run.
struct RunTargets {
    std::optional<TargetTable> table;
    nlohmann::json used; // stored with the run (targets_used): {name, file, preset, text}; null = none
    // targets.baseline_run's rows (core/results/baselinerows.h), judged with the table's.
    std::vector<TargetRow> baselineRows;
    std::string baselineRunId; // full id; "" = no baseline
    std::vector<TargetRow> rowsFor(const Scenario &scenario) const;
};

// Loads `campaign.targets.file` (relative to baseDir unless absolute or a ":/" resource; "#preset" suffix
// kept); no file = no table. With `historyDb`, targets.baseline_run is read from it: each scenario of that
// run adds its Exemplar baseline rows (the same rows the Targets page judges with). A baseline the history
// does not hold is an error naming the field and the run.
Result<RunTargets> loadRunTargets(const Campaign &campaign, const std::string &baseDir,
                                  const std::string &historyDb = {});

// Results (identity, points, verdict) of an outcome, every scenario judged once against its SLOs and the
// targets: what both apps show, store and write.
RunResults judgeRun(const RunOutcome &run, const std::string &campaignName, const std::string &campaignSha256,
                    const RunTargets &targets);

// Scenarios of `planned` (indices) the outcome never reached: stored with verdict "not_run".
std::vector<int> scenariosNotRun(const RunOutcome &run, int plannedCount);

class CampaignRun
{
public:
    struct Setup {
        std::vector<Scenario> scenarios; // expanded (and filtered/overridden by the caller)
        std::string campaignName;
        std::string campaignText; // canonical text (campaignhash.h): stored and hashed
        RunTargets targets;
        std::string historyDb; // "" = not recorded
        std::string source = "throughline";
        std::string planId;
        nlohmann::json provenance = nlohmann::json::object(); // run-row provenance added by the app
        RunOptions options; // campaignName/campaignSha256/runId are filled here
        // Raw records stay in the outcome after the run (requests.csv); false drops them once recorded.
        bool keepRecordsAfterRun = true;
        // With a history database: each point's raw records leave the outcome once the history has committed
        // them (PointOutcome::recordsInHistory; read them back with StoredRecords::ofPoint), so memory
        // follows the largest point, not the whole run. Records the history does not hold (a storage error, a
        // point not recorded) stay in the outcome.
        bool releaseRecordedPoints = false;
        // Continue a crashed or cancelled run (`run --resume`) instead of recording a new one: its uuid is
        // options.runId; `dropPoints` (scenario, point) were partially written and lose their rows;
        // scenarios in `keptScenarios` were reached before (never "not_run"); results keep `startedUtc`.
        struct Resume {
            std::vector<std::pair<int, int>> dropPoints;
            std::vector<int> keptScenarios;
            std::string startedUtc;
        };
        std::optional<Resume> resume;
        // Asked before each finished point is recorded (unset = always): the CLI skips a point cut short by
        // Ctrl-C, so --resume runs it again.
        std::function<bool()> recordPoint;
        // Provenance keys added when the run is finished (e.g. the CLI's "resumes" log).
        std::function<nlohmann::json(const RunOutcome &)> finishProvenance;
    };
    struct Finished {
        RunOutcome run;
        RunResults results;
        std::string recordError; // "" = recorded (or not asked to)
        bool recorded = false;
    };

    explicit CampaignRun(Setup setup);
    ~CampaignRun();
    CampaignRun(const CampaignRun &) = delete;
    CampaignRun &operator=(const CampaignRun &) = delete;

    const std::string &campaignSha256() const { return m_sha; }
    RunController &controller() { return *m_controller; }

    // Opens the recording: the run row (or, resuming, the stored run) before any load is offered. Called by
    // run() when not called before. An error only when resuming fails (the run must not start then); a
    // storage error otherwise ends the recording (Finished::recordError), never the run.
    Status begin();

    // Blocking. An error only when the engine could not run at all.
    Result<Finished> run();

private:
    void releaseCommittedRecords(RunOutcome &run) const;

    Setup m_setup;
    std::string m_sha;
    LiveRunRecording m_recording;
    bool m_recordingOpen = false;
    bool m_begun = false;
    std::string m_recordError;
    std::unique_ptr<RunController> m_controller;
};

} // namespace Throughline
