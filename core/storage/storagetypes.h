#pragma once
// Value types exchanged with the history store. Plain data, copied across threads (immutable once handed
// over). Aggregates travel as the results.json point object (nlohmann::json) so storage does not depend on
// the metrics structs; the writer copies a few keys into indexed columns.

#include "core/engine/requestrecord.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace Throughline {

enum class RunStatus { Running, Completed, Cancelled, Crashed };
std::string toString(RunStatus s);

// One scenario of a run, as expanded. plannedPoints: load configs of every point the plan will run (resume
// lists those not completed).
struct ScenarioInfo {
    int index = 0;
    std::string key; // model/backend/gpu×count/phase
    std::string model, backend, gpu, phase;
    int gpus = 0, prefillGpus = 0, decodeGpus = 0;
    int isl = 0, osl = 0;
    nlohmann::json config = nlohmann::json::object();
    std::vector<nlohmann::json> plannedPoints;
};

struct RunStart {
    std::string uuid;         // UUIDv4, lower-case with dashes
    std::string campaignJson; // exact text; sha256 computed by the writer
    std::string campaignName;
    std::string planId;
    bool simulated = false;
    double timeScale = 1.0;
    std::int64_t t0UnixNs = 0; // wall clock at t=0
    nlohmann::json provenance = nlohmann::json::object();
    std::vector<std::string> tags;
    std::string notes;
    bool storeText = false;
    std::string source = "throughline";
    std::string shard; // "i/N" for shard runs
    std::vector<ScenarioInfo> scenarios;
    std::vector<nlohmann::json> targets; // target tables used (name in "name")
};

// A finished load point: the results.json point object. valid/flags/indexed columns are read from it.
struct FinishedPoint {
    int scenarioIndex = 0;
    int pointIndex = 0;
    nlohmann::json aggregates = nlohmann::json::object();
    std::string verdict; // optional per-point verdict ("" = none)
    std::int64_t windowStartNs = kNoTime;
    std::int64_t windowEndNs = kNoTime;
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct RunSummary {
    std::int64_t id = 0;
    std::string uuid, status, startedUtc, finishedUtc, campaignName, campaignSha, planId, source, notes,
        shard;
    bool simulated = false;
    double timeScale = 1.0;
    std::int64_t t0UnixNs = 0;
    std::vector<std::string> tags;
    int scenarioCount = 0, pointCount = 0;
    std::string
        verdict; // worst scenario verdict: fail > invalid > inconclusive > pass > no_target ("" when none)
    std::string models, backends, gpus, phases; // distinct values, comma-separated
};

// Filters for run lists; empty = no restriction. Globs use * and ? (case-insensitive, SQLite GLOB on
// lower()).
struct RunFilter {
    std::vector<std::string> model, backend, gpu, phase, verdict, status;
    std::string fromUtc, toUtc; // ISO-8601 prefix compare on started_utc, inclusive
    std::string tag;
    std::string text; // substring of uuid, campaign name, notes, scenario key
    int limit = 0;
};

struct ScenarioRow {
    std::int64_t id = 0;
    int index = 0;
    std::string key, model, backend, gpu, phase, verdict;
    int gpus = 0, prefillGpus = 0, decodeGpus = 0, isl = 0, osl = 0;
    nlohmann::json config, verdictJson;
};

struct PointRow {
    std::int64_t id = 0, runId = 0, scenarioId = 0;
    std::string runUuid, scenarioKey, status, verdict;
    int scenarioIndex = 0, pointIndex = 0;
    nlohmann::json config, aggregates;
    double outputTpsPerGpu = kNaN, ttftMsP90 = kNaN, tpotMsP90 = kNaN;
    int valid = -1; // -1 unknown
    std::vector<std::string> flags;
    std::int64_t windowStartNs = kNoTime, windowEndNs = kNoTime, startedUnixNs = kNoTime;
};

struct RunDetail {
    RunSummary summary;
    nlohmann::json provenance;
    std::string campaignJson;
    std::vector<ScenarioRow> scenarios;
    std::vector<PointRow> points;
    std::vector<nlohmann::json> targets;
};

// The narrow request row (µs durations, ns timestamps; -1 = unknown).
struct RequestRow {
    std::int64_t id = 0, pointId = 0, seq = 0;
    bool warmup = false;
    std::int64_t tSchedNs = kNoTime, tSendNs = kNoTime, tFirstTokenNs = kNoTime, tLastTokenNs = kNoTime,
                 tEndNs = kNoTime;
    std::int64_t ttftUs = -1, tpotUs = -1, e2eUs = -1;
    int promptTokens = -1, completionTokens = -1, cachedTokens = -1, reasoningTokens = -1;
    int nOut = -1, nOutSource = 2, nFirst = 1, nContent = 0;
    int errorClass = 0, httpStatus = 0;
};

// Re-derivation of a point from the narrow table under other definitions.
struct DeriveOptions {
    std::vector<double> percentiles{50, 90, 95, 99};
    bool includeWarmup = false;
    // Measured window on t_send; kNoTime = the point's stored window, else every request.
    std::int64_t windowStartNs = kNoTime, windowEndNs = kNoTime;
    int gpus = 0;               // per-GPU divisor; 0 = the scenario's GPU count
    bool errorAdjusted = false; // failed requests count as +inf in latency percentiles
};

} // namespace Throughline
