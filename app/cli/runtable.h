#pragma once
// The result table `throughline-cli run` prints when a run ends: per scenario its verdict, one row per load
// point (throughput, TTFT/TPOT percentiles, ok/error counts, validity), the server-telemetry and cold-start
// lines, and the verdict's checks.

#include "core/run/runcontroller.h"
#include "core/results/resultsjson.h"

#include <cstdio>
#include <string>

namespace Throughline::Cli {

// `v` with `prec` decimals; "n/a" for NaN.
std::string formatFixed(double v, int prec = 1);

// `res` holds one ScenarioResult per scenario of `run`, in the same order.
void printTable(std::FILE *out, const RunResults &res, const RunOutcome &run);

} // namespace Throughline::Cli
