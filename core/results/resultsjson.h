#pragma once
// results.json ("schema": "throughline.results/5", ARCHITECTURE.md "results.json"): the run, its
// scenarios with verdicts and point objects. Value types + JSON round trip + atomic file writer.
// resources/schemas/results.schema.json describes the same document (checked in tests).

#include "core/campaign/scenario.h"
#include "core/metrics/pointresult.h"
#include "core/targets/verdict.h"
#include "core/util/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace Throughline {

struct ScenarioResult {
    std::string id; // model/backend/gpu×count/phase
    std::string model;
    std::string backend;
    std::string gpu;
    int gpus = 1;
    int prefillGpus = 0;
    int decodeGpus = 0;
    std::string phase;
    int isl = 0;
    int osl = 0;
    Verdict verdict;
    std::vector<PointResult> points;
    // Optional "cold_start" object (ScenarioOutcome::coldStart, issue 9); null = not measured.
    nlohmann::json coldStart;
    // Engine settings that shaped the numbers ("engine" object): the read order of the workers
    // (LoadPlan::firstTokenPriority, docs/metrics.md "Clock and timestamps"). Unset = not known (files
    // written before the field existed, imports); then "engine" is not written.
    std::optional<bool> firstTokenPriority;

    // Identity fields from an expanded scenario (verdict and points stay empty).
    static ScenarioResult fromScenario(const Scenario &s);
};

struct RunResults {
    // /4 adds repeats (plan.repeats): each point's load.repeat, its "intervals_across" (derived: recomputed
    // on read, core/metrics/repeatgroups.h) and the checks' "interval_source" / "repeats_needed"; /3 files
    // read as runs without repeats. /3 added each point's "intervals" and the verdicts' inconclusive outcome
    // with the checks' intervals (docs/metrics.md "Intervals"); /2 files read without intervals (their checks
    // judged on the value) and are written back as the current version. /2 added the client's error budget to
    // each point's "client" object; /1 files read with those figures unmeasured (null).
    static constexpr std::string_view kSchema = "throughline.results/5";
    static constexpr std::string_view kSchemaV4 = "throughline.results/4";
    static constexpr std::string_view kSchemaV3 = "throughline.results/3";
    static constexpr std::string_view kSchemaV2 = "throughline.results/2";
    static constexpr std::string_view kSchemaV1 = "throughline.results/1";

    std::string runId; // UUIDv4
    std::string toolVersion;
    std::string startedUtc; // ISO 8601, e.g. 2026-11-29T16:00:00Z
    bool simulated = false; // any scenario ran against the simulated endpoint
    double timeScale = 1;   // simulator time scale; results are already scaled back to real time
    std::string campaignName;
    std::string campaignSha256;
    std::vector<ScenarioResult> scenarios;

    nlohmann::json toJson() const;
    static Result<RunResults> fromJson(const nlohmann::json &j);
    // Exit code of the campaign from the scenario verdicts (see campaignExitCode).
    int exitCode(bool strict) const;
};

// Writes atomically (QSaveFile), pretty-printed with 2 spaces.
Status writeResultsJson(const RunResults &run, const std::string &path);
Result<RunResults> readResultsJson(const std::string &path);

} // namespace Throughline
