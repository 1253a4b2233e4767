#pragma once
// Run-level rows of the history database: the campaign, the run row (status, provenance, writer identity
// for crash detection, heartbeat), its tags, scenarios (with planned points), targets used, and later the
// scenario verdicts / cold start and the run's final status. The SQL behind StorageWriter's run jobs.
//
// Thread affinity: the writer thread (WriterContext).

#include "core/storage/storagetypes.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace Throughline {

struct WriterContext;

class RunRowWriter
{
public:
    static Status begin(WriterContext &ctx, const RunStart &run);
    // Resume: a crashed/cancelled run becomes 'running' under this process (NotFound otherwise).
    static Status reopen(WriterContext &ctx, const std::string &runUuid);
    static Status finish(WriterContext &ctx, const std::string &runUuid, RunStatus status);
    // Provenance keys merged into the stored ones; t0/started_utc kept when t0UnixNs is 0.
    static Status update(WriterContext &ctx, const std::string &runUuid, const nlohmann::json &provenance,
                         bool simulated, double timeScale, std::int64_t t0UnixNs);
    // heartbeat_utc and lease_until_utc of this process's running runs, at most every 2 s (a reader that
    // cannot check the writer's pid tells a live writer from a dead one by the lease, runowner.h). Best
    // effort: a failure is not an error of the batch.
    static void heartbeat(WriterContext &ctx);

    static Status setScenarioVerdict(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                                     const nlohmann::json &verdict);
    static Status setScenarioColdStart(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                                       const nlohmann::json &coldStart);
};

} // namespace Throughline
