#pragma once
// Where a point's requests spent their time, part by part, from the server's own per-request timing joined
// to the client's requests (docs/server-timing.md): the join's counts, the clock fit and, per part, the
// distribution over the point's measured requests — from a join at the point's end, or from stored
// per-request breakdowns alone. Plain values; no thread affinity.

#include "core/servertiming/timingjoin.h"
#include "core/util/result.h"

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace Throughline {

struct BreakdownPartSummary {
    PartStatus status = PartStatus::Unknown; // how most requests that have the part got it
    int n = 0;                               // requests with a value
    double mean = kNoValue, p50 = kNoValue, p90 = kNoValue, p99 = kNoValue; // milliseconds
    bool aligned = false; // crosses the two clocks: ± clockBoundMs

    // Shown in tables and charts (CLI, report, History): some measured request has the part and it has a
    // mean.
    bool reported() const { return n > 0 && hasValue(mean); }
};

struct ServerTimingSummary {
    std::string format; // timing format key ("vllm", …); empty = the point has no server timing
    std::string join;   // "same_response", "client_id" or "order_and_time"
    int requests = 0;   // measured requests summarised
    int matched = 0, missing = 0, extraEntries = 0, problemCount = 0;
    std::vector<std::string> problems; // the first few, each naming request and field
    bool clockFitted = false;
    double clockOffsetMs = kNoValue, clockDriftPpm = kNoValue, clockBoundMs = kNoValue;
    bool clockConsistent = true;
    std::array<BreakdownPartSummary, kBreakdownParts> parts{};

    bool empty() const { return format.empty(); }
    const BreakdownPartSummary &operator[](BreakdownPart p) const { return parts[size_t(p)]; }

    nlohmann::json toJson() const;
    // Errors name the field ("server_timing.parts.prefill.p50: not a number").
    static Result<ServerTimingSummary> fromJson(const nlohmann::json &j);
};

// The summary of the requests whose `include` flag is set (measured requests: not warm-up, successful);
// join.requests and include run in the same order. Counts and the clock come from the whole join.
ServerTimingSummary summarizeTiming(const ServerTimingJoin &join, const std::vector<bool> &include);
// From stored breakdowns alone (merges, re-imports): no join counts beyond `requests`, no clock offset.
ServerTimingSummary summarizeBreakdowns(const std::string &format, const std::string &join,
                                        const std::vector<RequestBreakdown> &breakdowns);

} // namespace Throughline
