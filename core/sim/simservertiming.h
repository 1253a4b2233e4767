#pragma once
// The simulated endpoint's per-request server timing (--server-timing FORMAT, docs/simulator.md): each
// format as the real server publishes it, with its real limits — llama.cpp `timings` on the final chunk;
// vLLM `metrics` only on the usage chunk; SGLang `meta_info` (epoch seconds) on the final chunk; Dynamo
// `nvext.timing` only when the request asks `nvext.extra_fields: ["timing"]` (epoch ms, whole); Dynamo's
// request trace as JSONL rows in a file; TensorRT-LLM entries with engine ids only on GET /perf_metrics, from
// a bounded queue, on a monotonic clock. Timestamps run on a server clock with a configurable offset and
// drift from the true clock (CLOCK_MONOTONIC), so the client's clock alignment can be checked against the
// ground-truth log. Beast-free. Thread affinity: the calling session's strand; the clock model is immutable.

#include "core/sim/simrequestcontext.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace Throughline::SimDetail {

struct ServerCore;

enum class TimingEmit { None, LlamaCpp, Vllm, Sglang, DynamoNvext, DynamoTrace, TrtllmPerf };

// "" → None; the keys of docs/server-timing.md; false for an unknown key.
bool timingEmitOf(std::string_view key, TimingEmit &out);

// server = true + offset + drift · (true − base), in the server's steady or epoch seconds.
struct ServerClockModel {
    std::int64_t baseNs = 0;      // true steady ns at server start
    double epochMinusSteadyS = 0; // wall clock − steady clock at start
    double offsetS = 0;
    double drift = 0; // 1e-6 = 1 ppm

    double steadyS(std::int64_t ns) const
    {
        const double rel = double(ns - baseNs) / 1e9;
        return double(baseNs) / 1e9 + offsetS + rel * (1.0 + drift);
    }
    double epochS(std::int64_t ns) const { return steadyS(ns) + epochMinusSteadyS; }
    double spanS(std::int64_t from, std::int64_t to) const { return double(to - from) / 1e9 * (1.0 + drift); }
};

// The member to add to the final chunk or the body (`"timings":{…}` without a leading comma), or "" when
// this format does not put timing there (`usageChunk`: the chunk carries usage; `body`: non-streamed).
std::string inlineTimingMember(const ServerCore &core, const RequestContext &ctx, bool usageChunk, bool body);
// Fetched formats, appended when the request ends: a Dynamo trace row (JSONL line) and a TensorRT-LLM
// /perf_metrics entry (one JSON object).
std::string dynamoTraceRow(const ServerCore &core, const RequestContext &ctx);
std::string trtllmPerfEntry(const ServerCore &core, const RequestContext &ctx);

} // namespace Throughline::SimDetail
