#pragma once
// A stored run as the campaign's baseline (targets.baseline_run, the Targets page's "Use as baseline"): each
// scenario's operating point becomes Exemplar baseline rows — output tokens/s per GPU ≥ its value (the 95 %
// rule applies in judgeRow), TTFT mean ≤ its value — carrying the baseline's interval, so a candidate is
// judged against the baseline's own noise. One rule for the Targets page and CampaignRun (app and CLI runs).
// Pure functions.

#include "core/results/resultsjson.h"
#include "core/targets/targettable.h"

#include <vector>

namespace Throughline {

// The verdict's operating point, else the valid point with the highest output tokens/s per GPU; -1: none.
int baselineOperatingPoint(const ScenarioResult &scenario);

// Rows of every scenario of `baseline` with an operating point, scoped to that scenario's model, backend,
// GPU, count and phase; source "run <8 hex> <scenario id>".
std::vector<TargetRow> baselineRowsOfRun(const RunResults &baseline);

} // namespace Throughline
