#pragma once
// `run --baseline RUN|auto`: the finished run compared with a baseline run beyond noise
// (core/results/runcomparison.h), the table printed, and the exit code gated on it. `auto` is the campaign's
// targets.baseline_run — the same baseline the Targets page sets and the verdicts judge the 95 % rule
// against — else the newest earlier run of the same campaign in the history.

#include "command.h"

#include "core/campaign/campaign.h"
#include "core/results/resultsjson.h"

#include <QString>

#include <cstdio>

namespace Throughline::Cli {

// ExitOk when nothing regressed (or no baseline was found for `auto`, said on `out`), ExitFailed on a
// regression, ExitBadInput / ExitRuntime when the named baseline cannot be read.
int gateOnBaseline(const Context &ctx, const QString &spec, const RunResults &run, const Campaign &campaign,
                   std::FILE *out);

} // namespace Throughline::Cli
