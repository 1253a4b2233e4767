#include "core/metrics/timingsummary.h"

#include "core/metrics/jsonnumber.h"
#include "core/metrics/stats.h"

#include <algorithm>

namespace Throughline {

namespace {

using nlohmann::json;

PartStatus statusByKey(const std::string &key)
{
    if (key == "measured")
        return PartStatus::Measured;
    if (key == "derived")
        return PartStatus::Derived;
    return PartStatus::Unknown;
}

// The distribution of one part over the breakdowns given; the status most of them have.
BreakdownPartSummary summarizePart(BreakdownPart part, const std::vector<const RequestBreakdown *> &rows)
{
    BreakdownPartSummary s;
    std::vector<double> values;
    values.reserve(rows.size());
    int measured = 0, derived = 0;
    for (const RequestBreakdown *b : rows) {
        const PartValue &v = (*b)[part];
        if (v.status == PartStatus::Unknown || !hasValue(v.ms))
            continue;
        values.push_back(v.ms);
        (v.status == PartStatus::Measured ? measured : derived) += 1;
        s.aligned = s.aligned || v.aligned;
    }
    s.n = int(values.size());
    if (values.empty())
        return s;
    s.status = measured >= derived ? PartStatus::Measured : PartStatus::Derived;
    std::sort(values.begin(), values.end());
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / double(values.size());
    s.p50 = percentileSorted(values, 0.50);
    s.p90 = percentileSorted(values, 0.90);
    s.p99 = percentileSorted(values, 0.99);
    return s;
}

void summarizeParts(ServerTimingSummary &s, const std::vector<const RequestBreakdown *> &rows)
{
    s.requests = int(rows.size());
    for (int i = 0; i < kBreakdownParts; ++i)
        s.parts[size_t(i)] = summarizePart(BreakdownPart(i), rows);
}

Error bad(const std::string &where, const std::string &what)
{
    return makeError(ErrorCode::InvalidInput, "server_timing." + where + ": " + what);
}

} // namespace

ServerTimingSummary summarizeTiming(const ServerTimingJoin &join, const std::vector<bool> &include)
{
    ServerTimingSummary s;
    s.format = timingFormatInfo(join.format).key;
    s.join = timingJoinKey(join.method);
    s.matched = join.matched;
    s.missing = join.missing;
    s.extraEntries = join.extraEntries;
    s.problemCount = join.problemCount;
    s.problems = join.problems;
    s.clockFitted = join.fit.valid;
    if (join.fit.valid) {
        s.clockOffsetMs = join.fit.offsetS * 1e3;
        s.clockDriftPpm = join.fit.drift * 1e6;
        s.clockBoundMs = join.fit.boundMs;
        s.clockConsistent = join.fit.consistent;
    }
    std::vector<const RequestBreakdown *> rows;
    for (size_t i = 0; i < join.requests.size(); ++i)
        if (i < include.size() && include[i])
            rows.push_back(&join.requests[i]);
    summarizeParts(s, rows);
    return s;
}

ServerTimingSummary summarizeBreakdowns(const std::string &format, const std::string &join,
                                        const std::vector<RequestBreakdown> &breakdowns)
{
    ServerTimingSummary s;
    s.format = format;
    s.join = join;
    std::vector<const RequestBreakdown *> rows;
    rows.reserve(breakdowns.size());
    for (const RequestBreakdown &b : breakdowns) {
        rows.push_back(&b);
        if (b.problem.empty())
            ++s.matched;
        else
            ++s.missing;
    }
    summarizeParts(s, rows);
    double bound = kNoValue;
    for (const RequestBreakdown &b : breakdowns)
        if (hasValue(b.alignBoundMs))
            bound = hasValue(bound) ? std::max(bound, b.alignBoundMs) : b.alignBoundMs;
    s.clockBoundMs = bound;
    return s;
}

json ServerTimingSummary::toJson() const
{
    json parts = json::object();
    for (int i = 0; i < kBreakdownParts; ++i) {
        const BreakdownPartSummary &p = this->parts[size_t(i)];
        json o = {{"status", partStatusKey(p.status)}, {"n", p.n}};
        if (p.n > 0) {
            o["mean"] = JsonNumber::orNull(p.mean);
            o["p50"] = JsonNumber::orNull(p.p50);
            o["p90"] = JsonNumber::orNull(p.p90);
            o["p99"] = JsonNumber::orNull(p.p99);
        }
        if (p.aligned)
            o["aligned"] = true;
        parts[breakdownPartKey(BreakdownPart(i))] = std::move(o);
    }
    json clock = {{"fitted", clockFitted}};
    if (clockFitted) {
        clock["offset_ms"] = JsonNumber::orNull(clockOffsetMs);
        clock["drift_ppm"] = JsonNumber::orNull(clockDriftPpm);
        clock["consistent"] = clockConsistent;
    }
    if (hasValue(clockBoundMs))
        clock["bound_ms"] = JsonNumber::orNull(clockBoundMs);
    return {{"format", format},
            {"join", join},
            {"requests", requests},
            {"matched", matched},
            {"missing", missing},
            {"extra_entries", extraEntries},
            {"problem_count", problemCount},
            {"problems", problems},
            {"clock", std::move(clock)},
            {"parts", std::move(parts)}};
}

Result<ServerTimingSummary> ServerTimingSummary::fromJson(const json &j)
{
    if (!j.is_object())
        return bad("", "not an object");
    ServerTimingSummary s;
    auto text = [&](const char *key, std::string &out) -> bool {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_string())
            return false;
        out = it->get<std::string>();
        return true;
    };
    if (!text("format", s.format) || s.format.empty())
        return bad("format", "missing or not a format key");
    if (!text("join", s.join))
        return bad("join", "missing or not a string");
    for (auto [key, out] : {std::pair{"requests", &s.requests}, std::pair{"matched", &s.matched},
                            std::pair{"missing", &s.missing}, std::pair{"extra_entries", &s.extraEntries},
                            std::pair{"problem_count", &s.problemCount}}) {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_number_integer())
            return bad(key, "missing or not an integer");
        *out = it->get<int>();
    }
    if (const auto pr = j.find("problems"); pr != j.end()) {
        if (!pr->is_array())
            return bad("problems", "not a list");
        for (const json &m : *pr) {
            if (!m.is_string())
                return bad("problems", "holds a non-string");
            s.problems.push_back(m.get<std::string>());
        }
    }
    const auto clock = j.find("clock");
    if (clock == j.end() || !clock->is_object())
        return bad("clock", "missing or not an object");
    s.clockFitted = clock->value("fitted", false);
    bool ok = true;
    s.clockOffsetMs = JsonNumber::read(*clock, "offset_ms", ok);
    s.clockDriftPpm = JsonNumber::read(*clock, "drift_ppm", ok);
    s.clockBoundMs = JsonNumber::read(*clock, "bound_ms", ok);
    s.clockConsistent = clock->value("consistent", true);
    if (!ok)
        return bad("clock", "a numeric field holds a non-number");
    const auto parts = j.find("parts");
    if (parts == j.end() || !parts->is_object())
        return bad("parts", "missing or not an object");
    for (int i = 0; i < kBreakdownParts; ++i) {
        const char *key = breakdownPartKey(BreakdownPart(i));
        const auto it = parts->find(key);
        if (it == parts->end())
            continue; // a part a newer build added is simply unknown here
        if (!it->is_object())
            return bad(std::string("parts.") + key, "not an object");
        BreakdownPartSummary &p = s.parts[size_t(i)];
        p.status = statusByKey(it->value("status", std::string()));
        const auto n = it->find("n");
        if (n == it->end() || !n->is_number_integer())
            return bad(std::string("parts.") + key + ".n", "missing or not an integer");
        p.n = n->get<int>();
        p.mean = JsonNumber::read(*it, "mean", ok);
        p.p50 = JsonNumber::read(*it, "p50", ok);
        p.p90 = JsonNumber::read(*it, "p90", ok);
        p.p99 = JsonNumber::read(*it, "p99", ok);
        p.aligned = it->value("aligned", false);
        if (!ok)
            return bad(std::string("parts.") + key, "a statistic is not a number");
    }
    return s;
}

} // namespace Throughline
