#pragma once
// Prometheus text exposition format 0.0.4 parser (also accepts the OpenMetrics 1.0 text variations seen in
// practice: "# EOF", "_total"/"_created" counter samples, info/stateset types, exemplars after " # ").
//
// Implemented: # HELP / # TYPE (HELP text unescapes \\ and \n), other comments ignored; metric names
// [a-zA-Z_:][a-zA-Z0-9_:]*; labels {a="x",b="y",} with \\, \" and \n escapes and an optional trailing comma;
// values as Go's ParseFloat writes them (1e+06, NaN, +Inf, -Inf, Inf); an optional integer millisecond
// timestamp (OpenMetrics float seconds accepted and converted); CRLF line ends; blank lines.
// Every sample is attached to its family (histogram _bucket/_sum/_count, summary _sum/_count,
// counter _total/_created) using the # TYPE lines of the same exposition, wherever they appear.
//
// Malformed lines are skipped and reported (line number, reason, excerpt) — the rest still parses.
// Pure function, no I/O, thread-safe.

#include "core/telemetry/parsedexposition.h"

#include <string_view>

namespace Throughline {

class PrometheusParser
{
public:
    static ParsedExposition parse(std::string_view text);

    // True for a valid metric name ([a-zA-Z_:][a-zA-Z0-9_:]*).
    static bool isValidMetricName(std::string_view name);
    // Parses a sample value (Go float syntax incl. NaN, +Inf, -Inf); false if not a number.
    static bool parseValue(std::string_view token, double &out);
};

} // namespace Throughline
