#pragma once
// `show RUN --breakdown`: where one point's requests spent their time, part by part, from the point's stored
// server-timing summary (results "server_timing", docs/server-timing.md).

#include "core/metrics/timingsummary.h"

#include <cstdio>

namespace Throughline::Cli {

// Prints the summary as an indented table under the point's row: the join line, then one line per part
// that any request has (status, n, mean, p50, p90, p99 in ms; "±" on parts that cross the two clocks).
void printBreakdown(std::FILE *out, const ServerTimingSummary &summary);

} // namespace Throughline::Cli
