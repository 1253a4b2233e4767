#pragma once
// The expanded load plan of `throughline-cli run`: every scenario × load point with its planned load, budget
// and (where the plan allows) duration, plus the share of one shard (`--shard i/N`, see
// core/campaign/shardselector.h). Printed by `run --plan-only`; in shard mode it is also what runs: one
// engine scenario entry per load point that has a share on this shard. The plan id (same on every shard of
// one campaign and plan) is stored with the run so that `merge` refuses bundles of different plans.

#include "core/campaign/scenario.h"
#include "core/campaign/shardselector.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace Throughline::Cli {

struct PlannedPoint {
    int pointIndex = 0;    // within the scenario: the index stored in results and keyed on by merge
    int repeat = 0;        // plan.repeats > 1: 1 … repeats (PointLoad::repeat), back to back per load
    bool rateMode = false; // open loop (rate) vs fixed concurrency
    int concurrency = 0;   // whole campaign: closed/curve C; open loop: the concurrency cap (0 = none)
    double rate = 0;       // whole campaign, requests/s (model time)
    int measured = 0;      // closed: measured requests; open: expected arrivals in the measured window
    int warmup = 0;        // closed: warm-up requests; open: expected arrivals in the warm-up
    double warmupS = 0;    // open loop warm-up, model seconds
    double durationS = 0;  // open loop measured schedule length, model seconds

    // This shard's share (equal to the whole when not sharded).
    int shardConcurrency = 0;
    double shardRate = 0;
    int shardMeasured = 0;
    int shardWarmup = 0;
    bool onShard = true; // false: C < N and this shard gets no share of this point

    // Wall-clock seconds the point is expected to last, time scale applied: open loop = its arrival schedule
    // ("schedule"); closed loop against a simulated endpoint = requests ÷ the analytic model's request rate
    // at this concurrency ("sim_model", core/sim/performancemodel.h; prefill not overlapped, so rough).
    // Closed loops against real servers depend on the server: nullopt, bounded by maxDurationS.
    std::optional<double> estimatedS;
    std::string estimateSource;
    double maxDurationS = 0; // wall-clock upper bound (plan max_duration_s, time scale applied)

    nlohmann::json loadJson(bool shardShare) const; // {"mode": "concurrency", "concurrency": C} / rate
    std::string loadLabel() const;                  // "C=16" / "λ=2.5/s" (+ " · repeat 2")
};

struct PlannedScenario {
    Scenario scenario;
    std::vector<PlannedPoint> points;
    std::string note;     // "curve: stops early when …", "search: up to 8 points by bisection"
    double timeScale = 1; // simulated endpoints: > 1 runs faster than real time
};

class RunPlan
{
public:
    // Fails for a search-mode scenario when sharded (bisection is adaptive: shards could not agree on
    // points). startAtUnixMs (0 = none) and pointSlotS (0 = points back to back) are the time schedule of a
    // sharded run: point k of the plan starts at startAt + k × pointSlotS on every shard. Both enter the plan
    // id.
    static Result<RunPlan> build(const std::vector<Scenario> &scenarios, const ShardSpec &shard,
                                 const std::string &campaignName, const std::string &campaignSha256,
                                 std::int64_t startAtUnixMs = 0, double pointSlotS = 0);
    std::int64_t startAtUnixMs() const { return m_startAtUnixMs; }
    double pointSlotS() const { return m_pointSlotS; }
    // Longest estimated point of the plan (wall seconds), if every point on any shard has an estimate.
    std::optional<double> longestPointS() const;

    const ShardSpec &shard() const { return m_shard; }
    const std::vector<PlannedScenario> &scenarios() const { return m_scenarios; }
    // sha256 (first 16 hex digits) over campaign hash, shard count and every point's whole-campaign load and
    // budget — not the shard index, so all shards of one plan share it.
    const std::string &planId() const { return m_planId; }

    // Sum of the open-loop estimates; `complete` is false when some point has no estimate (closed loops).
    double estimatedS(bool *complete) const;
    int pointCount(bool onThisShardOnly) const;

    nlohmann::json toJson() const;
    void printTable(std::FILE *out) const;

    // Engine input for a sharded run: one Scenario per point with a share on this shard (closed: one
    // concurrency and an explicit budget; open: one rate with the whole schedule length), and for each entry
    // the (scenario, point) index it stands for.
    struct Entry {
        int scenarioIndex = 0;
        int pointIndex = 0;
        int slot = 0; // position of the point in the whole plan (all shards agree): its time slot
    };
    std::vector<Scenario> shardEntries(std::vector<Entry> *map) const;

private:
    ShardSpec m_shard;
    std::string m_campaignName, m_campaignSha256;
    std::int64_t m_startAtUnixMs = 0;
    double m_pointSlotS = 0;
    std::vector<PlannedScenario> m_scenarios;
    std::string m_planId;
};

} // namespace Throughline::Cli
