#pragma once
// Runs this machine's share of a sharded plan on the time schedule of ARCHITECTURE.md "Growing past one
// machine": point k of the plan starts at startAt + k × pointSlot (wall clock) on every shard, also when this
// shard has no share of an earlier point, so the shards' points overlap on the shared server. Each point is
// one RunController run (the engine has no per-point start hook); their outcomes are moved onto the first
// point's t=0 and folded back into the campaign's scenarios (shardoutcome.h). Requests of point k carry that
// point's engine run id in X-Request-Id; the map is stored in provenance["shard"]["engine_runs"].
//
// Thread affinity: run() blocks the calling thread; cancel() from any thread (e.g. a SIGINT watcher).

#include "runplan.h"

#include "core/run/runcontroller.h"

#include <atomic>
#include <cstdio>
#include <functional>
#include <mutex>

namespace Throughline::Cli {

class ShardRunner
{
public:
    ShardRunner(const RunPlan &plan, RunOptions options, std::FILE *log);

    // Testing: adds ms to every wall-clock reading of this shard (slot waits and the recorded start times),
    // as a machine whose clock is off by that much would; stored in provenance shard.clock_offset_ms.
    void setClockOffsetMs(std::int64_t ms) { m_clockOffsetMs = ms; }

    Result<RunOutcome> run();
    void cancel();

    // Progress of the point running now (for the CLI's progress line); empty before the first point.
    std::string currentLabel() const;

private:
    const RunPlan &m_plan;
    RunOptions m_options;
    std::FILE *m_log;
    std::int64_t m_clockOffsetMs = 0;
    std::atomic<bool> m_cancel{false};
    mutable std::mutex m_mutex; // guards m_current and m_label
    RunController *m_current = nullptr;
    std::string m_label;
};

} // namespace Throughline::Cli
