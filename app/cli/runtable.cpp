#include "runtable.h"

#include "core/targets/verdict.h"

#include <cmath>
#include <cstdio>

namespace Throughline::Cli {

std::string formatFixed(double v, int prec)
{
    if (std::isnan(v))
        return "n/a";
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", prec, v);
    return b;
}

namespace {
// "C=16", "λ=2.50", "C=16 #2" for the second repeat: short enough for the table's load column.
std::string loadColumn(const PointLoad &l)
{
    std::string load = l.mode == PointLoad::Mode::Concurrency ? "C=" + std::to_string(l.concurrency)
                                                              : "λ=" + formatFixed(l.rate, 2);
    return l.repeat > 0 ? load + " #" + std::to_string(l.repeat) : load;
}

std::string stat(const PointResult &p, const char *metric, const char *s)
{
    auto v = p.metricValue(metric, s);
    return v ? formatFixed(*v, 1) : "n/a";
}

// Under a scenario's table: one server-telemetry line per point that has a telemetry summary (peak KV,
// mean queue, scrape failures, stalled streams, energy per output token when DCGM power was scraped), and
// the cold-start facts when measured.
void printTelemetryLines(std::FILE *out, const ScenarioResult &s)
{
    for (const PointResult &p : s.points) {
        const auto &t = p.telemetry;
        if (t.empty())
            continue;
        auto has = [&t](const char *k) { return t.count(k) > 0 && std::isfinite(t.at(k)); };
        const std::string load = loadColumn(p.load);
        std::string line = "  telemetry " + load + ":";
        std::string sep = " ";
        auto add = [&](const std::string &part) {
            line += sep + part;
            sep = ", ";
        };
        if (has("kv_cache_usage_peak"))
            add("KV peak " + formatFixed(t.at("kv_cache_usage_peak") * 100.0, 1) + " %");
        if (has("waiting_mean"))
            add("waiting mean " + formatFixed(t.at("waiting_mean"), 1));
        if (has("scrapes"))
            add("scrape failures " + formatFixed(has("scrape_failures") ? t.at("scrape_failures") : 0.0, 0) +
                "/" + formatFixed(t.at("scrapes"), 0));
        if (has("stalled_requests"))
            add("stalled streams " + formatFixed(t.at("stalled_requests"), 0));
        if (has("energy_per_output_token_j"))
            add("energy " + formatFixed(t.at("energy_per_output_token_j"), 3) + " J/token");
        std::fprintf(out, "%s\n", line.c_str());
    }
    const nlohmann::json &c = s.coldStart;
    if (!c.is_object())
        return;
    auto num = [&c](const char *k, int prec) {
        return c.contains(k) && c[k].is_number() ? formatFixed(c[k].get<double>(), prec) : std::string("n/a");
    };
    const std::string since = c.value("since", std::string());
    const std::string from = since == "ready_since" ? "--ready-since"
                             : since == "run_start" ? "run start"
                                                    : "scenario start";
    if (!c.contains("time_to_ready_s") || !c["time_to_ready_s"].is_number()) {
        std::fprintf(out, "  cold start: not ready (%s)\n", c.value("error", std::string("?")).c_str());
        return;
    }
    std::fprintf(out,
                 "  cold start: ready after %s s from %s (%s polls every %s s); first request TTFT %s ms, "
                 "E2E %s ms%s\n",
                 num("time_to_ready_s", 2).c_str(), from.c_str(), num("polls", 0).c_str(),
                 num("poll_interval_s", 2).c_str(), num("first_request_ttft_ms", 1).c_str(),
                 num("first_request_e2e_ms", 1).c_str(),
                 c.value("first_request_ok", true) ? ""
                                                   : (" (" + c.value("error", std::string()) + ")").c_str());
}

// After a repeated load's last repeat: the mean over its repeats with the across-repeat interval of the
// headline figures ("  across 3 repeats: out tok/s 1503.2 [95 % 1490.1, 1516.3], TTFT p95 …").
bool lastRepeatOfLoad(const std::vector<PointResult> &points, std::size_t k)
{
    if (points[k].acrossRepeats.empty())
        return false;
    return k + 1 == points.size() || !points[k + 1].load.sameLoad(points[k].load);
}

void printAcrossRepeats(std::FILE *out, const PointResult &p)
{
    const struct {
        const char *label, *metric, *stat;
    } figures[] = {
        {"out tok/s", "output_tps", "value"}, {"TTFT p95", "ttft_ms", "p95"}, {"TPOT p90", "tpot_ms", "p90"}};
    std::string line;
    int repeats = 0;
    for (const auto &f : figures) {
        const auto iv = p.acrossRepeatInterval(f.metric, f.stat);
        if (!iv)
            continue;
        repeats = int(iv->effectiveN);
        line += std::string(line.empty() ? "" : ", ") + f.label + " " + formatFixed(iv->estimate, 1) + " [" +
                formatFixed(iv->level * 100, 0) + " % " + formatFixed(iv->lower, 1) + ", " +
                formatFixed(iv->upper, 1) + "]";
    }
    if (!line.empty())
        std::fprintf(out, "  %-10s across %d repeats (mean, Student t): %s\n", "", repeats, line.c_str());
}

// " [95 % 401.2, 488.0]" (an open side reads "open"), and for an inconclusive check what would decide it.
std::string checkIntervalText(const VerdictCheck &c)
{
    std::string out;
    const bool across = c.intervalSource == VerdictCheck::IntervalSource::AcrossRepeats;
    if (c.level > 0) {
        const auto side = [](double v) { return std::isfinite(v) ? formatFixed(v, 2) : std::string("open"); };
        out += " [" + formatFixed(c.level * 100, 0) + " % " + side(c.lower) + ", " + side(c.upper) + "]";
        if (c.hadAcrossRepeats)
            out += across ? " across repeats (wider than the repeat's own)"
                          : " within the run (wider than across repeats)";
    }
    if (c.outcome != VerdictCheck::Outcome::Inconclusive)
        return out;
    if (c.requestsNeeded <= 0)
        return out + "; the estimate sits on the target: more " + (across ? "repeats" : "requests") +
               " cannot decide it";
    return out + "; about " + std::string(c.requestsNeededIsMinimum ? "≥ " : "") +
           formatFixed(c.requestsNeeded, 0) +
           (across ? " repeats of the load would decide it"
                   : " requests at the judged point would decide it");
}

} // namespace

void printTable(std::FILE *out, const RunResults &res, const RunOutcome &run)
{
    for (std::size_t i = 0; i < res.scenarios.size(); ++i) {
        const ScenarioResult &s = res.scenarios[i];
        const ScenarioOutcome &so = run.scenarios[i];
        std::fprintf(
            out, "\n%s  [%s]%s%s\n", s.id.c_str(), std::string(verdictStatusKey(s.verdict.status)).c_str(),
            so.simulated ? "  (simulated)" : "", so.aborted ? ("  ABORTED: " + so.abortReason).c_str() : "");
        std::fprintf(out, "  %-10s %10s %10s %9s %9s %9s %9s %6s %6s  %s\n", "load", "out tok/s", "tok/s/GPU",
                     "TTFT p50", "TTFT p95", "TPOT p50", "TPOT p90", "ok", "err", "validity");
        for (std::size_t k = 0; k < s.points.size(); ++k) {
            const PointResult &p = s.points[k];
            const std::string load = loadColumn(p.load);
            int errs = 0;
            for (const auto &[k2, n] : p.errors)
                errs += n;
            std::string validity = p.validity.valid ? "valid" : "";
            for (const std::string &f : p.validity.flags)
                validity += (validity.empty() ? "" : ",") + f;
            if (static_cast<int>(k) == s.verdict.operatingPoint)
                validity += " *op";
            std::fprintf(out, "  %-10s %10s %10s %9s %9s %9s %9s %6d %6d  %s\n", load.c_str(),
                         formatFixed(p.metrics.outputTps).c_str(),
                         formatFixed(p.metrics.outputTpsPerGpu).c_str(), stat(p, "ttft_ms", "p50").c_str(),
                         stat(p, "ttft_ms", "p95").c_str(), stat(p, "tpot_ms", "p50").c_str(),
                         stat(p, "tpot_ms", "p90").c_str(), p.nOk, errs, validity.c_str());
            if (lastRepeatOfLoad(s.points, k))
                printAcrossRepeats(out, p);
        }
        printTelemetryLines(out, s);
        for (const VerdictCheck &c : s.verdict.checks)
            std::fprintf(out, "  check %s %s %s %g: value %s%s (%s)\n", c.metric.c_str(), c.stat.c_str(),
                         std::string(comparatorKey(c.cmp)).c_str(), c.target, formatFixed(c.value, 2).c_str(),
                         checkIntervalText(c).c_str(), std::string(checkOutcomeKey(c.outcome)).c_str());
    }
    std::fprintf(out,
                 "  (latencies in ms; n/a = not reportable at this sample size; *op = operating point)\n");
}

} // namespace Throughline::Cli
