#include "breakdowntable.h"

#include <cmath>
#include <string>

namespace Throughline::Cli {
namespace {

std::string ms(double v)
{
    if (std::isnan(v))
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string joinLine(const ServerTimingSummary &s)
{
    std::string line = s.format + ", " + s.join + ": " + std::to_string(s.matched) + " of " +
                       std::to_string(s.matched + s.missing) +
                       " successful requests carried it (warm-up included); parts over the " +
                       std::to_string(s.requests) + " measured requests";
    if (s.extraEntries > 0)
        line += "; " + std::to_string(s.extraEntries) + " entries of other requests";
    if (s.clockFitted)
        line +=
            "; clocks aligned ±" + ms(s.clockBoundMs) + " ms" + (s.clockConsistent ? "" : " (inconsistent)");
    return line;
}

} // namespace

void printBreakdown(std::FILE *out, const ServerTimingSummary &s)
{
    std::fprintf(out, "       where the time goes: %s\n", joinLine(s).c_str());
    std::fprintf(out, "       %-14s %-9s %6s %9s %9s %9s %9s\n", "part", "status", "n", "mean ms", "p50",
                 "p90", "p99");
    for (int i = 0; i < kBreakdownParts; ++i) {
        const BreakdownPartSummary &p = s.parts[size_t(i)];
        if (!p.reported())
            continue;
        std::fprintf(out, "       %-14s %-9s %6d %9s %9s %9s %9s%s\n", breakdownPartKey(BreakdownPart(i)),
                     partStatusKey(p.status), p.n, ms(p.mean).c_str(), ms(p.p50).c_str(), ms(p.p90).c_str(),
                     ms(p.p99).c_str(), p.aligned ? "  ±" : "");
    }
    for (const std::string &problem : s.problems)
        std::fprintf(out, "       problem: %s\n", problem.c_str());
}

} // namespace Throughline::Cli
