#pragma once
// The run driver of `throughline-cli run`: the whole campaign in one engine run (RunController) or this
// shard's share of every point (ShardRunner), each printing progress and stopped cooperatively by Ctrl-C or
// SIGTERM. Thread affinity: call from the command's thread. The signal handler only sets a flag; a watcher
// thread of the driver turns it into cancel() within ~100 ms.

#include "command.h"
#include "runplan.h"

#include "core/run/campaignrun.h"

#include <QDateTime>
#include <QString>

#include <functional>
#include <vector>

namespace Throughline::Cli {

// Ctrl-C and SIGTERM (a scheduler stopping the job): installInterruptHandler() routes both to the flag
// interrupted() reads, so the run ends as 'cancelled' with what it finished (exit 130) rather than being
// killed mid-write; restoreInterruptHandler() restores the default actions.
void installInterruptHandler();
void restoreInterruptHandler();
bool interrupted();

// The whole campaign in one CampaignRun (recorded and judged as the desktop app's run), with a progress
// line on stderr. After --start-at the run's recording is opened (CampaignRun::begin); an error there
// (a failed resume) ends the run before any load is offered.
Result<CampaignRun::Finished> runWhole(Context &ctx, CampaignRun &run, std::size_t scenarioCount,
                                       const QDateTime &startAt, const QString &path);

// This shard's share of every point, on the plan's time schedule (shardrunner.h).
Result<RunOutcome> runSharded(Context &ctx, const RunPlan &plan, const RunOptions &opt, qint64 clockOffsetMs);

} // namespace Throughline::Cli
