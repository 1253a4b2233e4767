// The fetched formats: Dynamo's request trace (JSONL) and TensorRT-LLM's /perf_metrics list. One bad row is
// one problem; the rest of the document is still read.

#include "core/servertiming/timingfieldreader.h"
#include "core/servertiming/timingparsers.h"

namespace Throughline {

using nlohmann::json;
using TimingDetail::FieldReader;

namespace {

// A request's id in a row for error messages, before the row is known to be well formed.
std::string labelOf(const json &o, const char *key, const std::string &fallback)
{
    if (o.is_object()) {
        const auto it = o.find(key);
        if (it != o.end() && it->is_string() && !it->get<std::string>().empty())
            return it->get<std::string>();
        if (it != o.end() && it->is_number_integer())
            return it->dump();
    }
    return fallback;
}

Error rowError(const std::string &label, TimingFormat format, const std::string &problem)
{
    return makeError(ErrorCode::InvalidInput,
                     "request " + label + ": " + timingFormatInfo(format).display + ": " + problem);
}

void readDynamoRequest(FieldReader &r, const json &q, ServerTiming &t)
{
    const std::string p = "request";
    t.engineId = r.id(q, p, "request_id");
    t.clientId = r.id(q, p, "x_request_id");
    t.promptTokens = r.count(q, p, "input_tokens");
    t.outputTokens = r.count(q, p, "output_tokens");
    t.cachedTokens = r.count(q, p, "cached_tokens");
    const double received = r.number(q, p, "request_received_ms", true);
    t.queueMs = r.number(q, p, "prefill_wait_time_ms");
    t.prefillMs = r.number(q, p, "prefill_time_ms");
    t.ttftMs = r.number(q, p, "ttft_ms"); // disaggregated: the prefill worker's first token
    t.totalMs = r.number(q, p, "total_time_ms");
    r.number(q, p, "avg_itl_ms"); // absorbs the KV transfer (docs/server-timing.md)
    r.number(q, p, "kv_hit_rate");
    t.kvTransferMs = r.number(q, p, "kv_transfer_estimated_latency_ms");
    r.count(q, p, "queue_depth");
    if (const json *w = r.object(q, p, "worker"))
        for (auto it = w->begin(); it != w->end(); ++it)
            if (it.value().is_number())
                r.number(*w, p + ".worker", it.key().c_str(), false, true);
    if (const json *f = r.object(q, p, "finish_reason_metadata")) {
        if (const auto tc = f->find("tool_calls"); tc != f->end() && tc->is_array())
            t.fields.emplace_back(p + ".finish_reason_metadata.tool_calls", double(tc->size()));
    }
    if (const json *rp = r.object(q, p, "replay")) {
        r.count(*rp, p + ".replay", "trace_block_size");
        r.count(*rp, p + ".replay", "input_length");
        if (const auto h = rp->find("input_sequence_hashes"); h != rp->end() && h->is_array())
            t.fields.emplace_back(p + ".replay.input_sequence_hashes", double(h->size()));
    }
    if (!hasValue(received))
        return;
    t.tArrival = received / 1e3;
    if (hasValue(t.ttftMs)) {
        t.tFirstToken = t.tArrival + t.ttftMs / 1e3;
        if (hasValue(t.kvTransferMs)) { // the transfer follows the prefill worker's first token
            t.tKvStart = t.tFirstToken;
            t.tKvEnd = t.tKvStart + t.kvTransferMs / 1e3;
        }
    }
    if (hasValue(t.totalMs)) {
        t.tLastToken = t.tFinished = t.tArrival + t.totalMs / 1e3;
        if (hasValue(t.ttftMs)) {
            // In milliseconds, not from the epoch timestamps (whose doubles resolve only ~0.2 µs).
            t.decodeMs = t.totalMs - t.ttftMs - (hasValue(t.kvTransferMs) ? t.kvTransferMs : 0.0);
            if (t.decodeMs < -1e-6)
                r.fail(p + ".total_time_ms", "smaller than ttft_ms + kv_transfer_estimated_latency_ms");
        }
    }
}

} // namespace

TimingBatch parseDynamoTrace(std::string_view jsonl)
{
    TimingBatch out;
    size_t lineNo = 0;
    size_t pos = 0;
    while (pos < jsonl.size()) {
        size_t end = jsonl.find('\n', pos);
        if (end == std::string_view::npos)
            end = jsonl.size();
        const std::string_view line = jsonl.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        const std::string where = "on line " + std::to_string(lineNo);
        json row = json::parse(line, nullptr, false);
        if (row.is_discarded() || !row.is_object()) {
            out.problems.push_back(rowError(where, TimingFormat::DynamoTrace, "not a JSON object"));
            continue;
        }
        if (row.contains("event") && row.contains("timestamp") && row["event"].is_object())
            row = json(row["event"]); // srt-slurm's capture wrapper
        const auto schema = row.find("schema");
        if (schema == row.end() || *schema != "dynamo.request.trace.v1") {
            out.problems.push_back(rowError(where, TimingFormat::DynamoTrace,
                                            "field `schema`: expected \"dynamo.request.trace.v1\""));
            continue;
        }
        const auto type = row.find("event_type");
        if (type != row.end() && type->is_string() && *type != "request_end")
            continue; // tool_start / tool_end / tool_error rows carry no request timing
        const json q = row.value("request", json());
        const std::string label = labelOf(q, "x_request_id", labelOf(q, "request_id", where));
        ServerTiming t;
        t.format = TimingFormat::DynamoTrace;
        t.clock = ServerClock::Epoch;
        t.resolutionS = 1e-3; // request_received_ms is a whole millisecond
        FieldReader r(label, t.format, t);
        r.number(row, {}, "event_time_unix_ms");
        if (const json *req = r.object(row, {}, "request", true))
            readDynamoRequest(r, *req, t);
        if (r.failed())
            out.problems.push_back(r.error());
        else
            out.timings.push_back(std::move(t));
    }
    return out;
}

namespace {

void readTrtllmEntry(FieldReader &r, const json &e, ServerTiming &t)
{
    t.engineId = r.id(e, {}, "request_id");
    if (t.engineId.empty())
        r.fail("request_id", "missing");
    if (const auto it = e.find("ctx_request_id"); it != e.end() && it->is_number())
        r.number(e, {}, "ctx_request_id"); // disaggregated: the context (prefill) server's id
    const json *pm = r.object(e, {}, "perf_metrics", true);
    if (!pm)
        return;
    const std::string p = "perf_metrics";
    r.count(*pm, p, "first_iter");
    r.count(*pm, p, "last_iter");
    if (const json *tm = r.object(*pm, p, "timing_metrics", true)) {
        // Seconds on the server's steady clock (plus a disaggregation offset): any sign is possible.
        const std::string q = p + ".timing_metrics";
        auto ts = [&](const char *k, bool required = false) { return r.number(*tm, q, k, required, true); };
        t.tArrival = ts("server_arrival_time");
        t.tEngineQueued = ts("arrival_time", true);
        t.tScheduled = ts("first_scheduled_time");
        t.tFirstToken = ts("first_token_time");
        t.tFirstSent = ts("server_first_token_time");
        t.tLastToken = ts("last_token_time");
        r.number(*tm, q, "kv_cache_size");
        t.tKvStart = ts("kv_cache_transfer_start");
        t.tKvEnd = ts("kv_cache_transfer_end");
        if (!hasValue(t.tArrival))
            t.tArrival = t.tEngineQueued;
        if (hasValue(t.tKvStart) != hasValue(t.tKvEnd))
            r.fail(q + (hasValue(t.tKvStart) ? ".kv_cache_transfer_end" : ".kv_cache_transfer_start"),
                   "missing while its pair is present");
        else if (hasValue(t.tKvStart) && t.tKvEnd < t.tKvStart)
            r.fail(q + ".kv_cache_transfer_end", "before kv_cache_transfer_start");
        if (hasValue(t.tScheduled) && t.tScheduled < t.tEngineQueued)
            r.fail(q + ".first_scheduled_time", "before arrival_time");
        if (hasValue(t.tLastToken) && hasValue(t.tFirstToken) && t.tLastToken < t.tFirstToken)
            r.fail(q + ".last_token_time", "before first_token_time");
    }
    if (const json *kv = r.object(*pm, p, "kv_cache_metrics"))
        for (const char *k : {"num_total_allocated_blocks", "num_new_allocated_blocks", "num_reused_blocks",
                              "num_missed_blocks"})
            r.count(*kv, p + ".kv_cache_metrics", k);
    if (const json *sd = r.object(*pm, p, "speculative_decoding")) {
        r.number(*sd, p + ".speculative_decoding", "acceptance_rate");
        r.count(*sd, p + ".speculative_decoding", "total_accepted_draft_tokens");
        r.count(*sd, p + ".speculative_decoding", "total_draft_tokens");
    }
}

} // namespace

TimingBatch parseTrtllmPerfMetrics(std::string_view text)
{
    TimingBatch out;
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_array()) {
        out.problems.push_back(makeError(ErrorCode::InvalidInput,
                                         std::string(timingFormatInfo(TimingFormat::TrtllmPerf).display) +
                                             ": the /perf_metrics answer is not a JSON list"));
        return out;
    }
    for (size_t i = 0; i < doc.size(); ++i) {
        const json &e = doc[i];
        const std::string label = labelOf(e, "request_id", "at index " + std::to_string(i));
        if (!e.is_object()) {
            out.problems.push_back(rowError(label, TimingFormat::TrtllmPerf, "not a JSON object"));
            continue;
        }
        ServerTiming t;
        t.format = TimingFormat::TrtllmPerf;
        t.clock = ServerClock::Steady;
        FieldReader r("(engine id) " + label, t.format, t);
        readTrtllmEntry(r, e, t);
        if (r.failed())
            out.problems.push_back(r.error());
        else
            out.timings.push_back(std::move(t));
    }
    return out;
}

TimingBatch parseFetchedTiming(TimingFormat format, std::string_view text)
{
    if (format == TimingFormat::DynamoTrace)
        return parseDynamoTrace(text);
    if (format == TimingFormat::TrtllmPerf)
        return parseTrtllmPerfMetrics(text);
    TimingBatch out; // an inline format saved one body per line (e.g. by a proxy)
    size_t pos = 0, lineNo = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        const json body = json::parse(line, nullptr, false);
        const std::string label = labelOf(body, "id", "on line " + std::to_string(lineNo));
        if (body.is_discarded()) {
            out.problems.push_back(rowError(label, format, "not JSON"));
            continue;
        }
        Result<ServerTiming> t = parseInlineTiming(format, body, label);
        if (t)
            out.timings.push_back(std::move(t).value());
        else
            out.problems.push_back(t.error());
    }
    return out;
}

} // namespace Throughline
