#pragma once
// Per-request derived metrics (ARCHITECTURE.md "Metric definitions / Per request").
// Pure function of one RequestRecord; safe on any thread. Times in the record are client
// steady_clock ns relative to run t=0; derived durations are in ms (double).

#include "core/engine/requestrecord.h"

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace Throughline {

// Optional tokenizer hook: returns the exact number of output tokens of a request (normally by
// tokenizing record.text), or -1 when it cannot (no text stored, no tokenizer for the model).
using OutputTokenCounter = std::function<int(const RequestRecord &)>;

struct RequestMetrics {
    bool ok = false;                      // record.ok()
    int contentEvents = 0;                // events of kind Content (role-only/usage/finish chunks excluded)
    std::int64_t tFirstTokenNs = kNoTime; // time of the first content event
    std::int64_t tLastTokenNs = kNoTime;  // time of the last content event

    // NaN when undefined (no content event, missing timestamps, denominator < 1).
    double ttftMs = 0;       // t_first_token − t_send
    double ttftQMs = 0;      // t_first_token − t_sched (client queueing included)
    double e2eMs = 0;        // t_end − t_send
    double tpotMs = 0;       // (t_last − t_first) / (N_out − N_first)
    double tpotMlperfMs = 0; // (t_end − t_first) / (tokens after the first chunk, tokenizer-counted)
    double interactivityTpsUser = 0; // 1000 / tpotMs
    std::vector<double> chunkGapsMs; // consecutive content-event differences

    int nOut = 0; // output tokens, resolved: usage → tokenizer → event count
    TokenCountSource nOutSource = TokenCountSource::EventCount;
    bool nOutApproximate = true; // true when counted from events
    int nOutTokenizer = -1;      // tokenizer count when the hook gave one (MLPerf variant), else -1
    int nFirst = 1;              // tokens in the first content event
    bool nFirstApproximate = true;
    int nIn = 0;                // input tokens: usage.prompt_tokens, else the intended ISL
    bool tpotUndefined = false; // a content event exists but N_out − N_first < 1 (counted, excluded)
};

// Resolution order for N_out: usage.completion_tokens ≥ 0 → tokenizer hook ≥ 0 → record.nOut when
// the engine already tokenizer-counted it (nOutSource == Tokenizer) → number of content events
// (approximate). N_first: the first content event's own token count (per-chunk usage) → record.nFirst
// when not flagged approximate → 1 (approximate).
RequestMetrics computeRequestMetrics(const RequestRecord &record, const OutputTokenCounter &counter = {});

// TPOT (ms) of a record by the rule above (N_out and N_first resolved as computeRequestMetrics does, no
// tokenizer hook), NaN when undefined; *nOut (optional) receives the resolved N_out. Allocation-free: the
// live view (core/run/livesnapshot.cpp) calls it for every finished request.
double requestTpotMs(const RequestRecord &record, int *nOut = nullptr);

// Tokens carried by each content event, in order: the per-event counts when every content event
// has one, else N_out spread evenly (fractional). Used by steady-state throughput.
std::vector<double> tokensPerContentEvent(const RequestRecord &record, int nOut);

// Stable snake_case keys used in results.json ("errors"), CSV and the database.
std::string_view errorClassKey(ErrorClass c);
std::string_view tokenCountSourceKey(TokenCountSource s);

} // namespace Throughline
