#include "core/telemetry/trtllmstatsparser.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace Throughline {

namespace {

std::optional<double> numberAt(const nlohmann::json &obj, const char *key)
{
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_number())
        return std::nullopt;
    return it->get<double>();
}

const nlohmann::json *objectAt(const nlohmann::json &obj, const char *key)
{
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_object())
        return nullptr;
    return &*it;
}

void add(ParsedExposition &out, const char *name, MetricType type, double value)
{
    PromSample s;
    s.name = name;
    s.family = name;
    s.type = type;
    s.value = value;
    out.types[s.family] = type;
    out.samples.push_back(std::move(s));
}

} // namespace

Result<ParsedExposition> TrtllmStatsParser::parse(std::string_view body)
{
    nlohmann::json doc = nlohmann::json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded())
        return makeError(ErrorCode::InvalidInput, "TRT-LLM /metrics: body is not valid JSON");
    if (doc.is_object()) {
        nlohmann::json arr = nlohmann::json::array();
        arr.push_back(std::move(doc));
        doc = std::move(arr);
    }
    if (!doc.is_array())
        return makeError(ErrorCode::InvalidInput,
                         "TRT-LLM /metrics: expected a JSON array of iteration stats");

    ParsedExposition out;
    out.lineCount = static_cast<int>(doc.size());
    double ctxTokens = 0, genTokens = 0, iterations = 0, completed = 0, latencySumMs = 0;
    int latencyN = 0;
    const nlohmann::json *last = nullptr;
    int index = 0;
    for (const nlohmann::json &it : doc) {
        ++index;
        if (!it.is_object()) {
            out.issues.push_back(ParseIssue{0, "element " + std::to_string(index) + " is not an object",
                                            it.dump().substr(0, 120)});
            continue;
        }
        last = &it;
        iterations += 1;
        completed += numberAt(it, "numCompletedRequests").value_or(0.0);
        if (auto l = numberAt(it, "iterLatencyMS")) {
            latencySumMs += *l;
            ++latencyN;
        }
        if (const nlohmann::json *ifb = objectAt(it, "inflightBatchingStats")) {
            ctxTokens += numberAt(*ifb, "numCtxTokens").value_or(0.0);
            const double gen = numberAt(*ifb, "numGenRequests").value_or(0.0);
            const double perIter = numberAt(*ifb, "avgNumDecodedTokensPerIter").value_or(0.0);
            genTokens += gen * (perIter >= 1.0 ? perIter : 1.0);
        }
    }
    // Increments are emitted even for an empty array: "no iteration since the last scrape" is a real zero.
    add(out, "trtllm_iter:context_tokens", MetricType::Delta, ctxTokens);
    add(out, "trtllm_iter:generation_tokens_estimate", MetricType::Delta, genTokens);
    add(out, "trtllm_iter:iterations", MetricType::Delta, iterations);
    add(out, "trtllm_iter:completed_requests", MetricType::Delta, completed);
    if (!last)
        return out;

    const nlohmann::json &l = *last;
    if (auto v = numberAt(l, "numActiveRequests"))
        add(out, "trtllm_iter:num_active_requests", MetricType::Gauge, *v);
    double queued = numberAt(l, "numQueuedRequests").value_or(-1.0);
    if (queued >= 0)
        add(out, "trtllm_iter:num_queued_requests", MetricType::Gauge, queued);
    if (auto v = numberAt(l, "maxNumActiveRequests"))
        add(out, "trtllm_iter:max_num_active_requests", MetricType::Gauge, *v);
    if (auto v = numberAt(l, "gpuMemUsage"))
        add(out, "trtllm_iter:gpu_mem_usage_bytes", MetricType::Gauge, *v);
    if (auto v = numberAt(l, "cpuMemUsage"))
        add(out, "trtllm_iter:cpu_mem_usage_bytes", MetricType::Gauge, *v);
    if (const nlohmann::json *kv = objectAt(l, "kvCacheStats")) {
        const auto maxBlocks = numberAt(*kv, "maxNumBlocks");
        auto used = numberAt(*kv, "usedNumBlocks");
        if (!used) {
            if (auto freeBlocks = numberAt(*kv, "freeNumBlocks"); freeBlocks && maxBlocks)
                used = *maxBlocks - *freeBlocks;
        }
        if (used && maxBlocks && *maxBlocks > 0)
            add(out, "trtllm_iter:kv_cache_usage_ratio", MetricType::Gauge, *used / *maxBlocks);
        if (used)
            add(out, "trtllm_iter:kv_cache_used_blocks", MetricType::Gauge, *used);
        if (maxBlocks)
            add(out, "trtllm_iter:kv_cache_max_blocks", MetricType::Gauge, *maxBlocks);
        if (auto v = numberAt(*kv, "cacheHitRate"))
            add(out, "trtllm_iter:kv_cache_hit_rate", MetricType::Gauge, *v);
    }
    if (const nlohmann::json *ifb = objectAt(l, "inflightBatchingStats")) {
        if (auto v = numberAt(*ifb, "numContextRequests"))
            add(out, "trtllm_iter:num_context_requests", MetricType::Gauge, *v);
        if (auto v = numberAt(*ifb, "numGenRequests"))
            add(out, "trtllm_iter:num_generation_requests", MetricType::Gauge, *v);
        if (auto v = numberAt(*ifb, "numPausedRequests"))
            add(out, "trtllm_iter:num_paused_requests", MetricType::Gauge, *v);
    }
    if (latencyN > 0)
        add(out, "trtllm_iter:iter_latency_ms", MetricType::Gauge, latencySumMs / latencyN);
    return out;
}

} // namespace Throughline
