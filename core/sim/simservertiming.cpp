#include "core/sim/simservertiming.h"

#include "core/sim/simservercore.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace Throughline::SimDetail {

using nlohmann::json;

bool timingEmitOf(std::string_view key, TimingEmit &out)
{
    static const std::pair<std::string_view, TimingEmit> table[] = {
        {"", TimingEmit::None},
        {"llamacpp", TimingEmit::LlamaCpp},
        {"vllm", TimingEmit::Vllm},
        {"sglang", TimingEmit::Sglang},
        {"dynamo-nvext", TimingEmit::DynamoNvext},
        {"dynamo-trace", TimingEmit::DynamoTrace},
        {"trtllm-perf", TimingEmit::TrtllmPerf},
    };
    for (const auto &[k, v] : table)
        if (k == key) {
            out = v;
            return true;
        }
    return false;
}

namespace {

// Milliseconds of a true interval on the server's clock; null when either end is unknown.
json spanMs(const ServerCore &core, std::int64_t from, std::int64_t to)
{
    if (from <= 0 || to <= 0)
        return nullptr;
    return core.serverClock.spanS(from, to) * 1e3;
}

json llamaTimings(const ServerCore &core, const RequestContext &c)
{
    const int cached = std::max(0, c.nCached);
    const int promptN = std::max(0, c.nPrompt - cached);
    const json prompt = spanMs(core, c.tAdmittedNs, c.tFirstTokenNs),
               pred = spanMs(core, c.tFirstTokenNs, c.tLastTokenNs);
    const double promptMs = prompt.is_number() ? prompt.get<double>() : 0.0;
    const double predMs = pred.is_number() ? pred.get<double>() : 0.0;
    // llama-server counts the first token as predicted: predicted_ms runs from the end of the prompt.
    return json{{"cache_n", cached},
                {"prompt_n", promptN},
                {"prompt_ms", promptMs},
                {"prompt_per_token_ms", promptN > 0 ? promptMs / promptN : 0.0},
                {"prompt_per_second", promptMs > 0 ? 1e3 * promptN / promptMs : 0.0},
                {"predicted_n", c.sent},
                {"predicted_ms", predMs},
                {"predicted_per_token_ms", c.sent > 0 ? predMs / c.sent : 0.0},
                {"predicted_per_second", predMs > 0 ? 1e3 * c.sent / predMs : 0.0}};
}

json vllmMetrics(const ServerCore &core, const RequestContext &c)
{
    const json gen = spanMs(core, c.tFirstTokenNs, c.tLastTokenNs);
    const json sched = spanMs(core, c.tAdmittedNs, c.tLastTokenNs);
    return json{{"time_to_first_token_ms", spanMs(core, c.tAdmittedNs, c.tFirstTokenNs)},
                {"generation_time_ms", c.sent > 1 ? gen : json(nullptr)},
                {"queue_time_ms", spanMs(core, c.tSubmitNs, c.tAdmittedNs)},
                {"mean_itl_ms",
                 c.sent > 1 && gen.is_number() ? json(gen.get<double>() / (c.sent - 1)) : json(nullptr)},
                {"tokens_per_second", sched.is_number() && sched.get<double>() > 0
                                          ? json(1e3 * c.sent / sched.get<double>())
                                          : json(nullptr)}};
}

json sglangMetaInfo(const ServerCore &core, const RequestContext &c)
{
    const ServerClockModel &k = core.serverClock;
    json m = {{"id", c.requestId.empty() ? c.id : c.requestId},
              {"prompt_tokens", c.nPrompt},
              {"completion_tokens", c.sent},
              {"cached_tokens", std::max(0, c.nCached)},
              {"request_received_ts", k.epochS(c.tAcceptNs)},
              {"request_sent_to_scheduler_ts", k.epochS(c.tSubmitNs)},
              {"prefill_finished_ts", k.epochS(c.tFirstTokenNs)},
              {"response_sent_to_client_ts", k.epochS(c.tFirstWriteNs)},
              {"decode_finished_ts", k.epochS(c.tLastTokenNs)},
              {"e2e_latency", k.spanS(c.tAcceptNs, c.tLastTokenNs)},
              {"inference_time", k.spanS(c.tAdmittedNs, c.tLastTokenNs)}};
    const double decodeS = k.spanS(c.tFirstTokenNs, c.tLastTokenNs);
    m["decode_throughput"] = decodeS > 0 ? json(c.sent / decodeS) : json(nullptr);
    return m;
}

json dynamoTiming(const ServerCore &core, const RequestContext &c)
{
    const ServerClockModel &k = core.serverClock;
    json t = {{"request_received_ms", std::int64_t(std::floor(k.epochS(c.tAcceptNs) * 1e3))},
              {"prefill_wait_time_ms", spanMs(core, c.tAcceptNs, c.tAdmittedNs)},
              {"prefill_time_ms", spanMs(core, c.tAdmittedNs, c.tFirstTokenNs)},
              {"ttft_ms", spanMs(core, c.tAcceptNs, c.tFirstTokenNs)},
              {"total_time_ms", spanMs(core, c.tAcceptNs, c.tLastTokenNs)}};
    if (c.nCached >= 0 && c.nPrompt > 0)
        t["kv_hit_rate"] = double(c.nCached) / c.nPrompt;
    return t;
}

} // namespace

std::string inlineTimingMember(const ServerCore &core, const RequestContext &c, bool usageChunk, bool body)
{
    switch (core.timing) {
    case TimingEmit::LlamaCpp:
        return "\"timings\":" + llamaTimings(core, c).dump();
    case TimingEmit::Vllm: // only where usage rides (stream_options.include_usage), or the whole body
        return usageChunk || body ? "\"metrics\":" + vllmMetrics(core, c).dump() : std::string();
    case TimingEmit::Sglang:
        return "\"meta_info\":" + sglangMetaInfo(core, c).dump();
    case TimingEmit::DynamoNvext:
        return c.askedTiming ? "\"nvext\":" + json{{"timing", dynamoTiming(core, c)}}.dump() : std::string();
    default:
        return {};
    }
}

std::string dynamoTraceRow(const ServerCore &core, const RequestContext &c)
{
    const ServerClockModel &k = core.serverClock;
    json req = dynamoTiming(core, c);
    req["request_id"] = c.id;
    req["x_request_id"] = c.requestId;
    req["model"] = core.modelName;
    req["input_tokens"] = c.nPrompt;
    req["output_tokens"] = c.sent;
    req["cached_tokens"] = std::max(0, c.nCached);
    if (c.sent > 1 && c.tLastTokenNs > 0 && c.tFirstTokenNs > 0)
        req["avg_itl_ms"] = k.spanS(c.tFirstTokenNs, c.tLastTokenNs) * 1e3 / (c.sent - 1);
    if (c.tKvEndNs > 0) // disaggregated: Dynamo's estimate; here the transfer the model really took
        req["kv_transfer_estimated_latency_ms"] = spanMs(core, c.tKvStartNs, c.tKvEndNs);
    req["worker"] = c.tKvEndNs > 0 ? json{{"prefill_worker_id", 1}, {"decode_worker_id", 2}}
                                   : json{{"prefill_worker_id", 1}, {"decode_worker_id", 1}};
    req["finish_reason_metadata"] = {{"finish_reason", c.finishReason}, {"tool_calls", json::array()}};
    const json row = {{"schema", "dynamo.request.trace.v1"},
                      {"event_type", "request_end"},
                      {"event_time_unix_ms", std::int64_t(std::floor(k.epochS(c.tLastTokenNs) * 1e3))},
                      {"event_source", "frontend"},
                      {"agent_context", {{"session_id", nullptr}, {"parent_session_id", nullptr}}},
                      {"request", std::move(req)}};
    return row.dump();
}

std::string trtllmPerfEntry(const ServerCore &core, const RequestContext &c)
{
    const ServerClockModel &k = core.serverClock;
    json tm = {{"server_arrival_time", k.steadyS(c.tAcceptNs)},
               {"arrival_time", k.steadyS(c.tSubmitNs)},
               {"first_scheduled_time", k.steadyS(c.tAdmittedNs)},
               {"first_token_time", k.steadyS(c.tFirstTokenNs)},
               {"server_first_token_time", k.steadyS(c.tFirstWriteNs)},
               {"last_token_time", k.steadyS(c.tLastTokenNs)}};
    json e = {{"request_id", c.seq}};
    if (c.tKvEndNs > 0) {
        e["ctx_request_id"] = c.seq + 1'000'000;
        tm["kv_cache_size"] = c.nPrompt; // tokens here: the simulator has no block layout
        tm["kv_cache_transfer_start"] = k.steadyS(c.tKvStartNs);
        tm["kv_cache_transfer_end"] = k.steadyS(c.tKvEndNs);
    }
    e["perf_metrics"] = {{"first_iter", 0}, {"last_iter", c.sent}, {"timing_metrics", std::move(tm)}};
    return e.dump();
}

} // namespace Throughline::SimDetail
