#include "core/servertiming/timingparsers.h"

#include "core/servertiming/timingfieldreader.h"

#include <algorithm>

namespace Throughline {

using nlohmann::json;
using TimingDetail::FieldReader;

namespace {

Result<ServerTiming> finish(FieldReader &r, ServerTiming t)
{
    if (r.failed())
        return r.error();
    return t;
}

// usage.{prompt_tokens, completion_tokens, prompt_tokens_details.cached_tokens} of an OpenAI-shaped body,
// where the timing object itself carries no counts.
void readUsage(FieldReader &r, const json &body, ServerTiming &t)
{
    const json *usage = r.object(body, {}, "usage");
    if (!usage)
        return;
    t.promptTokens = r.count(*usage, "usage", "prompt_tokens");
    t.outputTokens = r.count(*usage, "usage", "completion_tokens");
    if (const json *d = r.object(*usage, "usage", "prompt_tokens_details"))
        t.cachedTokens = r.count(*d, "usage.prompt_tokens_details", "cached_tokens");
}

const json *timingObject(FieldReader &r, const json &body, const char *key, const char *missingHint)
{
    if (!body.is_object()) {
        r.fail({}, std::string("the response is ") + TimingDetail::jsonKindName(body) + ", not an object");
        return nullptr;
    }
    const auto it = body.find(key);
    if (it == body.end() || it->is_null()) {
        r.fail(key, std::string(it == body.end() ? "missing" : "null") + " (" + missingHint + ')');
        return nullptr;
    }
    return r.object(body, {}, key, true);
}

} // namespace

Result<ServerTiming> parseLlamaCppTimings(const json &body, std::string_view request)
{
    ServerTiming t;
    t.format = TimingFormat::LlamaCpp;
    t.clock = ServerClock::None;
    FieldReader r(request, t.format, t);
    const json *o = timingObject(r, body, "timings", "llama-server puts it on the final chunk");
    if (!o)
        return r.error();
    const std::string p = "timings";
    t.cachedTokens = r.count(*o, p, "cache_n");
    const int promptN = r.count(*o, p, "prompt_n", true);
    t.prefillMs = r.number(*o, p, "prompt_ms", true);
    r.number(*o, p, "prompt_per_token_ms");
    r.number(*o, p, "prompt_per_second");
    t.outputTokens = r.count(*o, p, "predicted_n", true);
    t.decodeMs = r.number(*o, p, "predicted_ms", true);
    r.number(*o, p, "predicted_per_token_ms");
    r.number(*o, p, "predicted_per_second");
    r.count(*o, p, "draft_n");
    r.count(*o, p, "draft_n_accepted");
    // Older servers: n_ctx / n_past instead of cache_n; one newer one: kv_bpv.
    r.count(*o, p, "n_ctx");
    r.count(*o, p, "n_past");
    r.number(*o, p, "kv_bpv");
    if (promptN >= 0)
        t.promptTokens = promptN + std::max(t.cachedTokens, 0);
    t.engineId = r.id(body, {}, "id");
    return finish(r, std::move(t));
}

Result<ServerTiming> parseVllmMetrics(const json &body, std::string_view request)
{
    ServerTiming t;
    t.format = TimingFormat::Vllm;
    t.clock = ServerClock::None;
    FieldReader r(request, t.format, t);
    const json *o = timingObject(
        r, body, "metrics", "needs --enable-per-request-metrics; null when n > 1 or for several prompts");
    if (!o)
        return r.error();
    const std::string p = "metrics";
    // Every field may be null when its timestamps are missing: "not published", not an error.
    t.prefillMs = r.number(*o, p, "time_to_first_token_ms"); // from scheduling: the queue is not in it
    t.ttftMs = t.prefillMs;
    t.decodeMs = r.number(*o, p, "generation_time_ms");
    t.queueMs = r.number(*o, p, "queue_time_ms");
    r.number(*o, p, "mean_itl_ms");
    r.number(*o, p, "tokens_per_second");
    if (const json *otm = r.object(*o, p, "output_token_metrics")) {
        const std::string q = p + ".output_token_metrics";
        for (const char *kind : {"reasoning", "content"}) {
            const json *k = r.object(*otm, q, kind);
            if (!k)
                continue;
            const std::string kp = q + '.' + kind;
            r.count(*k, kp, "token_count");
            for (const char *f :
                 {"time_to_first_token_ms", "generation_time_ms", "mean_itl_ms", "tokens_per_second"})
                r.number(*k, kp, f);
        }
        r.count(*otm, q, "unclassified_token_count");
    }
    if (const json *sd = r.object(*o, p, "speculative_decoding")) {
        const std::string q = p + ".speculative_decoding";
        r.number(*sd, q, "mean_acceptance_length");
        r.number(*sd, q, "draft_acceptance_rate");
        for (const char *f :
             {"num_spec_steps", "num_accepted_draft_tokens", "num_draft_tokens", "num_spec_tokens"})
            r.count(*sd, q, f);
        if (const auto h = sd->find("acceptance_histogram"); h != sd->end() && !h->is_null()) {
            if (!h->is_array())
                r.fail(q + ".acceptance_histogram",
                       std::string("expected an array, got ") + TimingDetail::jsonKindName(*h));
            else
                for (size_t i = 0; i < h->size(); ++i) {
                    const std::string name = q + ".acceptance_histogram[" + std::to_string(i) + ']';
                    if ((*h)[i].is_number())
                        t.fields.emplace_back(name, (*h)[i].get<double>());
                    else
                        r.fail(name,
                               std::string("expected a number, got ") + TimingDetail::jsonKindName((*h)[i]));
                }
        }
    }
    readUsage(r, body, t);
    t.engineId = r.id(body, {}, "id");
    return finish(r, std::move(t));
}

Result<ServerTiming> parseSglangMetaInfo(const json &body, std::string_view request)
{
    ServerTiming t;
    t.format = TimingFormat::Sglang;
    t.clock = ServerClock::Epoch;
    FieldReader r(request, t.format, t);
    const json *o = timingObject(r, body, "meta_info", "native /generate; timing needs --enable-metrics");
    if (!o)
        return r.error();
    const std::string p = "meta_info";
    t.engineId = r.id(*o, p, "id");
    t.promptTokens = r.count(*o, p, "prompt_tokens");
    t.outputTokens = r.count(*o, p, "completion_tokens");
    t.cachedTokens = r.count(*o, p, "cached_tokens");
    // Unix epoch seconds (time.time()); durations in seconds.
    t.tArrival = r.number(*o, p, "request_received_ts", true);
    t.tEngineQueued = r.number(*o, p, "request_sent_to_scheduler_ts");
    t.tFirstToken = r.number(*o, p, "prefill_finished_ts");
    t.tFirstSent = r.number(*o, p, "response_sent_to_client_ts");
    t.tFinished = r.number(*o, p, "decode_finished_ts");
    t.tLastToken = t.tFinished;
    const double e2e = r.number(*o, p, "e2e_latency");
    t.totalMs = hasValue(e2e) ? e2e * 1e3 : kNoValue;
    r.number(*o, p, "inference_time");
    r.number(*o, p, "decode_throughput");
    const double queue = r.number(*o, p, "queue_time");
    t.queueMs = hasValue(queue) ? queue * 1e3 : kNoValue;
    r.number(*o, p, "prefill_launch_latency");
    for (const char *f : {"spec_accept_rate", "spec_accept_length"})
        r.number(*o, p, f);
    for (const char *f : {"spec_accept_token_num", "spec_draft_token_num", "spec_verify_ct"})
        r.count(*o, p, f);
    // Disaggregation (pd_*_duration, seconds): the names vary by version, so every pd_* number is kept.
    for (auto it = o->begin(); it != o->end(); ++it)
        if (it.key().rfind("pd_", 0) == 0 && !it.value().is_object() && !it.value().is_array())
            r.number(*o, p, it.key().c_str());
    for (const double ts : {t.tEngineQueued, t.tFirstToken, t.tFirstSent, t.tFinished})
        if (hasValue(ts) && hasValue(t.tArrival) && ts + 1e-6 < t.tArrival)
            r.fail(p, "a timestamp lies before request_received_ts");
    return finish(r, std::move(t));
}

Result<ServerTiming> parseDynamoNvextTiming(const json &body, std::string_view request)
{
    ServerTiming t;
    t.format = TimingFormat::DynamoNvext;
    t.clock = ServerClock::Epoch;
    t.resolutionS = 1e-3;
    FieldReader r(request, t.format, t);
    const json *nvext = timingObject(r, body, "nvext", "ask with nvext.extra_fields: [\"timing\"]");
    if (!nvext)
        return r.error();
    const json *o = r.object(*nvext, "nvext", "timing", true);
    if (!o)
        return r.error();
    const std::string p = "nvext.timing";
    const double received = r.number(*o, p, "request_received_ms", true); // epoch ms
    t.queueMs = r.number(*o, p, "prefill_wait_time_ms");
    t.prefillMs = r.number(*o, p, "prefill_time_ms");
    t.ttftMs = r.number(*o, p, "ttft_ms");
    t.totalMs = r.number(*o, p, "total_time_ms");
    r.number(*o, p, "kv_hit_rate");
    for (const char *f : {"prefill_worker_id", "prefill_dp_rank", "decode_worker_id", "decode_dp_rank"})
        r.number(*o, p, f);
    if (hasValue(received)) {
        t.tArrival = received / 1e3;
        if (hasValue(t.ttftMs))
            t.tFirstToken = t.tArrival + t.ttftMs / 1e3;
        if (hasValue(t.totalMs))
            t.tLastToken = t.tFinished = t.tArrival + t.totalMs / 1e3;
    }
    if (hasValue(t.ttftMs) && hasValue(t.totalMs)) {
        if (t.totalMs + 1e-9 < t.ttftMs)
            r.fail(p + ".total_time_ms", "smaller than ttft_ms");
        t.decodeMs = t.totalMs - t.ttftMs;
    }
    readUsage(r, body, t);
    t.engineId = r.id(body, {}, "id");
    return finish(r, std::move(t));
}

Result<ServerTiming> parseInlineTiming(TimingFormat format, const json &body, std::string_view request)
{
    switch (format) {
    case TimingFormat::LlamaCpp:
        return parseLlamaCppTimings(body, request);
    case TimingFormat::Vllm:
        return parseVllmMetrics(body, request);
    case TimingFormat::Sglang:
        return parseSglangMetaInfo(body, request);
    case TimingFormat::DynamoNvext:
        return parseDynamoNvextTiming(body, request);
    default:
        return makeError(ErrorCode::Unsupported, std::string(timingFormatInfo(format).display) +
                                                     " is fetched afterwards, not read from the response");
    }
}

} // namespace Throughline
