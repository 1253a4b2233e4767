#include "core/telemetry/metricnamemap.h"

#include "core/telemetry/commonseries.h"

namespace Throughline {

namespace {

using namespace CommonSeries;

struct Entry {
    const char *source;
    const char *common;
    const char *unit;
    double scale;
    int priority;
    std::optional<MetricType> treatAs;
};

constexpr std::optional<MetricType> kAsDeclared = std::nullopt;

// vLLM (V1 engine names; V0 names kept where they were renamed). Counters map to rates.
const Entry kVllm[] = {
    {"vllm:num_requests_running", kRunning, "requests", 1, 0, kAsDeclared},
    {"vllm:num_requests_waiting", kWaiting, "requests", 1, 0, kAsDeclared},
    {"vllm:kv_cache_usage_perc", kKvCacheUsage, "ratio", 1, 0, kAsDeclared},
    {"vllm:gpu_cache_usage_perc", kKvCacheUsage, "ratio", 1, 1, kAsDeclared}, // before vLLM 0.10
    {"vllm:prompt_tokens_total", kPromptTps, "tokens/s", 1, 0, kAsDeclared},
    {"vllm:generation_tokens_total", kGenerationTps, "tokens/s", 1, 0, kAsDeclared},
    {"vllm:request_success_total", kRequestsFinishedRps, "1/s", 1, 0, kAsDeclared},
    {"vllm:num_preemptions_total", kPreemptionsPerS, "1/s", 1, 0, kAsDeclared},
    {"vllm:time_to_first_token_seconds", kServerTtftS, "s", 1, 0, kAsDeclared},
    {"vllm:inter_token_latency_seconds", kServerItlS, "s", 1, 0, kAsDeclared},
    {"vllm:time_per_output_token_seconds", kServerItlS, "s", 1, 1,
     kAsDeclared}, // old name of the ITL histogram
    {"vllm:e2e_request_latency_seconds", kServerE2eS, "s", 1, 0, kAsDeclared},
    {"vllm:request_queue_time_seconds", kServerQueueS, "s", 1, 0, kAsDeclared},
};

// SGLang: current names (num_running_reqs, num_queue_reqs) and the v0.3 set (num_requests_running, …).
// sglang:cache_hit_rate is left unmapped: the v0.3 exporter reports percent, current ones a ratio.
const Entry kSglang[] = {
    {"sglang:num_running_reqs", kRunning, "requests", 1, 0, kAsDeclared},
    {"sglang:num_requests_running", kRunning, "requests", 1, 1, kAsDeclared},
    {"sglang:num_queue_reqs", kWaiting, "requests", 1, 0, kAsDeclared},
    {"sglang:num_requests_waiting", kWaiting, "requests", 1, 1, kAsDeclared},
    {"sglang:queue_req", kWaiting, "requests", 1, 2, kAsDeclared},
    {"sglang:token_usage", kKvCacheUsage, "ratio", 1, 0, kAsDeclared},
    {"sglang:prompt_tokens_total", kPromptTps, "tokens/s", 1, 0, kAsDeclared},
    {"sglang:generation_tokens_total", kGenerationTps, "tokens/s", 1, 0, kAsDeclared},
    {"sglang:num_requests_total", kRequestsFinishedRps, "1/s", 1, 0, kAsDeclared},
    {"sglang:time_to_first_token_seconds", kServerTtftS, "s", 1, 0, kAsDeclared},
    {"sglang:inter_token_latency_seconds", kServerItlS, "s", 1, 0, kAsDeclared},
    {"sglang:time_per_output_token_seconds", kServerItlS, "s", 1, 1, kAsDeclared},
    {"sglang:e2e_request_latency_seconds", kServerE2eS, "s", 1, 0, kAsDeclared},
    {"sglang:queue_time_seconds", kServerQueueS, "s", 1, 0, kAsDeclared},
    {"sglang:waiting_request_latency_seconds", kServerQueueS, "s", 1, 1, kAsDeclared}, // v0.3
};

// llama.cpp llama-server --metrics. kv_cache_usage_ratio existed in older builds only.
const Entry kLlamacpp[] = {
    {"llamacpp:requests_processing", kRunning, "requests", 1, 0, kAsDeclared},
    {"llamacpp:requests_deferred", kWaiting, "requests", 1, 0, kAsDeclared},
    {"llamacpp:kv_cache_usage_ratio", kKvCacheUsage, "ratio", 1, 0, kAsDeclared},
    {"llamacpp:prompt_tokens_total", kPromptTps, "tokens/s", 1, 0, kAsDeclared},
    {"llamacpp:tokens_predicted_total", kGenerationTps, "tokens/s", 1, 0, kAsDeclared},
};

// TensorRT-LLM: Prometheus names (trtllm_ as Dynamo prefixes them, trtllm: on /prometheus/metrics) and
// the trtllm_iter:* samples synthesised from the JSON iteration stats (trtllmstatsparser.h).
const Entry kTrtllm[] = {
    {"trtllm_iter:num_active_requests", kRunning, "requests", 1, 0, kAsDeclared},
    {"trtllm_iter:num_queued_requests", kWaiting, "requests", 1, 0, kAsDeclared},
    {"trtllm_iter:kv_cache_usage_ratio", kKvCacheUsage, "ratio", 1, 0, kAsDeclared},
    {"trtllm_iter:kv_cache_hit_rate", kPrefixCacheHitRate, "ratio", 1, 0, kAsDeclared},
    {"trtllm_iter:context_tokens", kPromptTps, "tokens/s", 1, 0, kAsDeclared},
    {"trtllm_iter:generation_tokens_estimate", kGenerationTps, "tokens/s", 1, 0, kAsDeclared},
    {"trtllm_iter:completed_requests", kRequestsFinishedRps, "1/s", 1, 0, kAsDeclared},
    {"trtllm_iter:iter_latency_ms", kIterationLatencyMs, "ms", 1, 0, kAsDeclared},
    {"trtllm:time_to_first_token_seconds", kServerTtftS, "s", 1, 0, kAsDeclared},
    {"trtllm_time_to_first_token_seconds", kServerTtftS, "s", 1, 1, kAsDeclared},
    {"trtllm:time_per_output_token_seconds", kServerItlS, "s", 1, 0, kAsDeclared},
    {"trtllm_time_per_output_token_seconds", kServerItlS, "s", 1, 1, kAsDeclared},
    {"trtllm:e2e_request_latency_seconds", kServerE2eS, "s", 1, 0, kAsDeclared},
    {"trtllm_e2e_request_latency_seconds", kServerE2eS, "s", 1, 1, kAsDeclared},
    {"trtllm:request_queue_time_seconds", kServerQueueS, "s", 1, 0, kAsDeclared},
    {"trtllm_request_queue_time_seconds", kServerQueueS, "s", 1, 1, kAsDeclared},
    {"trtllm:request_success_total", kRequestsFinishedRps, "1/s", 1, 0, kAsDeclared},
    {"trtllm_request_success_total", kRequestsFinishedRps, "1/s", 1, 1, kAsDeclared},
};

// NVIDIA Dynamo frontend (HTTP layer, user-facing).
const Entry kDynamo[] = {
    {"dynamo_frontend_inflight_requests", kRunning, "requests", 1, 3, kAsDeclared},
    {"dynamo_frontend_queued_requests", kWaiting, "requests", 1, 3, kAsDeclared},
    {"dynamo_frontend_output_tokens_total", kGenerationTps, "tokens/s", 1, 3, kAsDeclared},
    {"dynamo_frontend_time_to_first_token_seconds", kServerTtftS, "s", 1, 3, kAsDeclared},
    {"dynamo_frontend_inter_token_latency_seconds", kServerItlS, "s", 1, 3, kAsDeclared},
    {"dynamo_frontend_request_duration_seconds", kServerE2eS, "s", 1, 3, kAsDeclared},
};

// DCGM exporter, names from dcgm-exporter's etc/default-counters.csv (+ the profiling NVLink fields).
const Entry kDcgm[] = {
    {"DCGM_FI_DEV_GPU_UTIL", kGpuUtilPct, "%", 1, 0, kAsDeclared},
    {"DCGM_FI_DEV_FB_USED", kGpuMemUsedMib, "MiB", 1, 0, kAsDeclared},
    {"DCGM_FI_DEV_FB_FREE", kGpuMemFreeMib, "MiB", 1, 0, kAsDeclared},
    {"DCGM_FI_DEV_GPU_TEMP", kGpuTempC, "C", 1, 0, kAsDeclared},
    {"DCGM_FI_DEV_MEMORY_TEMP", kGpuMemTempC, "C", 1, 0, kAsDeclared},
    {"DCGM_FI_DEV_POWER_USAGE", kGpuPowerW, "W", 1, 0, kAsDeclared},
    // Counter in mJ → rate in mJ/s → W.
    {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", kGpuEnergyRateW, "W", 1e-3, 0, MetricType::Counter},
    {"DCGM_FI_DEV_SM_CLOCK", kGpuSmClockMhz, "MHz", 1, 0, kAsDeclared},
    {"DCGM_FI_DEV_MEM_CLOCK", kGpuMemClockMhz, "MHz", 1, 0, kAsDeclared},
    {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", kGpuGrEngineActive, "ratio", 1, 0, kAsDeclared},
    {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", kGpuTensorActive, "ratio", 1, 0, kAsDeclared},
    {"DCGM_FI_PROF_DRAM_ACTIVE", kGpuDramActive, "ratio", 1, 0, kAsDeclared},
    // Declared "counter" by dcgm-exporter, but DCGM field 449 reads as an instantaneous MB/s figure
    // (field-level docs; applying rate() to it gives nonsense) → treated as a gauge, MB/s → GB/s.
    {"DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", kNvlinkGbps, "GB/s", 1e-3, 0, MetricType::Gauge},
    {"DCGM_FI_PROF_NVLINK_TX_BYTES", kNvlinkTxGbps, "GB/s", 1e-9, 0, MetricType::Gauge}, // bytes/s
    {"DCGM_FI_PROF_NVLINK_RX_BYTES", kNvlinkRxGbps, "GB/s", 1e-9, 0, MetricType::Gauge},
    {"DCGM_FI_PROF_PCIE_TX_BYTES", kPcieTxGbps, "GB/s", 1e-9, 0, MetricType::Gauge}, // bytes/s
    {"DCGM_FI_PROF_PCIE_RX_BYTES", kPcieRxGbps, "GB/s", 1e-9, 0, MetricType::Gauge},
    {"DCGM_FI_DEV_XID_ERRORS", kGpuXidLast, "", 1, 0, kAsDeclared},
};

template <std::size_t N>
void addAll(std::unordered_map<std::string, MetricMapping> &map, const Entry (&entries)[N])
{
    for (const Entry &e : entries)
        map.emplace(e.source, MetricMapping{e.common, e.unit, e.scale, e.priority, e.treatAs});
}

} // namespace

MetricNameMap MetricNameMap::forBackend(std::string_view id)
{
    MetricNameMap m;
    addAll(m.m_map, kDcgm);
    if (id == "vllm") {
        addAll(m.m_map, kVllm);
    } else if (id == "sglang") {
        addAll(m.m_map, kSglang);
    } else if (id == "llamacpp") {
        addAll(m.m_map, kLlamacpp);
    } else if (id == "trtllm") {
        addAll(m.m_map, kTrtllm);
    } else if (id == "nim") { // NIM for LLMs runs vLLM or TensorRT-LLM underneath
        addAll(m.m_map, kVllm);
        addAll(m.m_map, kTrtllm);
    } else if (id == "dynamo") { // frontend plus whichever engine workers expose
        addAll(m.m_map, kDynamo);
        addAll(m.m_map, kVllm);
        addAll(m.m_map, kSglang);
        addAll(m.m_map, kTrtllm);
    } else {
        return all();
    }
    return m;
}

MetricNameMap MetricNameMap::all()
{
    MetricNameMap m;
    addAll(m.m_map, kDcgm);
    addAll(m.m_map, kVllm);
    addAll(m.m_map, kSglang);
    addAll(m.m_map, kLlamacpp);
    addAll(m.m_map, kTrtllm);
    addAll(m.m_map, kDynamo);
    return m;
}

const MetricMapping *MetricNameMap::find(std::string_view family) const
{
    auto it = m_map.find(std::string(family));
    if (it != m_map.end())
        return &it->second;
    it = m_map.find(std::string(family) + "_total"); // OpenMetrics-style counter family without _total
    return it != m_map.end() ? &it->second : nullptr;
}

std::vector<std::string> MetricNameMap::sourceNames() const
{
    std::vector<std::string> out;
    out.reserve(m_map.size());
    for (const auto &[k, v] : m_map)
        out.push_back(k);
    return out;
}

} // namespace Throughline
