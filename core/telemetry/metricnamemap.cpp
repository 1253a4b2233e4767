#include "core/telemetry/metricnamemap.h"

#include "core/telemetry/commonseries.h"

namespace Throughline {

namespace {

using namespace CommonSeries;

// The source families each table serves; a backend selects a set of them (kBackendTables).
enum Table : unsigned {
    Vllm = 1u << 0,
    Sglang = 1u << 1,
    Llamacpp = 1u << 2,
    Trtllm = 1u << 3,
    Dynamo = 1u << 4,
    Dcgm = 1u << 5,
    AllTables = (1u << 6) - 1,
};

// One source metric family. Most rows take the defaults: priority 0, scale 1, the exposition's own # TYPE.
struct Entry {
    Table table;
    const char *source;
    const char *common;
    const char *unit;
    int priority = 0;
    double scale = 1;
    std::optional<MetricType> treatAs = std::nullopt;
};

const Entry kEntries[] = {
    // vLLM (V1 engine names; V0 names kept where they were renamed). Counters map to rates.
    {Vllm, "vllm:num_requests_running", kRunning, "requests"},
    {Vllm, "vllm:num_requests_waiting", kWaiting, "requests"},
    {Vllm, "vllm:kv_cache_usage_perc", kKvCacheUsage, "ratio"},
    {Vllm, "vllm:gpu_cache_usage_perc", kKvCacheUsage, "ratio", 1}, // before vLLM 0.10
    {Vllm, "vllm:prompt_tokens_total", kPromptTps, "tokens/s"},
    {Vllm, "vllm:generation_tokens_total", kGenerationTps, "tokens/s"},
    {Vllm, "vllm:request_success_total", kRequestsFinishedRps, "1/s"},
    {Vllm, "vllm:num_preemptions_total", kPreemptionsPerS, "1/s"},
    {Vllm, "vllm:time_to_first_token_seconds", kServerTtftS, "s"},
    {Vllm, "vllm:inter_token_latency_seconds", kServerItlS, "s"},
    {Vllm, "vllm:time_per_output_token_seconds", kServerItlS, "s", 1}, // old name of the ITL histogram
    {Vllm, "vllm:e2e_request_latency_seconds", kServerE2eS, "s"},
    {Vllm, "vllm:request_queue_time_seconds", kServerQueueS, "s"},
    // SGLang: current names (num_running_reqs, num_queue_reqs) and the v0.3 set (num_requests_running, …).
    // sglang:cache_hit_rate is left unmapped: the v0.3 exporter reports percent, current ones a ratio.
    {Sglang, "sglang:num_running_reqs", kRunning, "requests"},
    {Sglang, "sglang:num_requests_running", kRunning, "requests", 1},
    {Sglang, "sglang:num_queue_reqs", kWaiting, "requests"},
    {Sglang, "sglang:num_requests_waiting", kWaiting, "requests", 1},
    {Sglang, "sglang:queue_req", kWaiting, "requests", 2},
    {Sglang, "sglang:token_usage", kKvCacheUsage, "ratio"},
    {Sglang, "sglang:prompt_tokens_total", kPromptTps, "tokens/s"},
    {Sglang, "sglang:generation_tokens_total", kGenerationTps, "tokens/s"},
    {Sglang, "sglang:num_requests_total", kRequestsFinishedRps, "1/s"},
    {Sglang, "sglang:time_to_first_token_seconds", kServerTtftS, "s"},
    {Sglang, "sglang:inter_token_latency_seconds", kServerItlS, "s"},
    {Sglang, "sglang:time_per_output_token_seconds", kServerItlS, "s", 1},
    {Sglang, "sglang:e2e_request_latency_seconds", kServerE2eS, "s"},
    {Sglang, "sglang:queue_time_seconds", kServerQueueS, "s"},
    {Sglang, "sglang:waiting_request_latency_seconds", kServerQueueS, "s", 1}, // v0.3
    // llama.cpp llama-server --metrics. kv_cache_usage_ratio existed in older builds only.
    {Llamacpp, "llamacpp:requests_processing", kRunning, "requests"},
    {Llamacpp, "llamacpp:requests_deferred", kWaiting, "requests"},
    {Llamacpp, "llamacpp:kv_cache_usage_ratio", kKvCacheUsage, "ratio"},
    {Llamacpp, "llamacpp:prompt_tokens_total", kPromptTps, "tokens/s"},
    {Llamacpp, "llamacpp:tokens_predicted_total", kGenerationTps, "tokens/s"},
    // TensorRT-LLM: Prometheus names (trtllm_ as Dynamo prefixes them, trtllm: on /prometheus/metrics) and
    // the trtllm_iter:* samples synthesised from the JSON iteration stats (trtllmstatsparser.h).
    {Trtllm, "trtllm_iter:num_active_requests", kRunning, "requests"},
    {Trtllm, "trtllm_iter:num_queued_requests", kWaiting, "requests"},
    {Trtllm, "trtllm_iter:kv_cache_usage_ratio", kKvCacheUsage, "ratio"},
    {Trtllm, "trtllm_iter:kv_cache_hit_rate", kPrefixCacheHitRate, "ratio"},
    {Trtllm, "trtllm_iter:context_tokens", kPromptTps, "tokens/s"},
    {Trtllm, "trtllm_iter:generation_tokens_estimate", kGenerationTps, "tokens/s"},
    {Trtllm, "trtllm_iter:completed_requests", kRequestsFinishedRps, "1/s"},
    {Trtllm, "trtllm_iter:iter_latency_ms", kIterationLatencyMs, "ms"},
    {Trtllm, "trtllm:time_to_first_token_seconds", kServerTtftS, "s"},
    {Trtllm, "trtllm_time_to_first_token_seconds", kServerTtftS, "s", 1},
    {Trtllm, "trtllm:time_per_output_token_seconds", kServerItlS, "s"},
    {Trtllm, "trtllm_time_per_output_token_seconds", kServerItlS, "s", 1},
    {Trtllm, "trtllm:e2e_request_latency_seconds", kServerE2eS, "s"},
    {Trtllm, "trtllm_e2e_request_latency_seconds", kServerE2eS, "s", 1},
    {Trtllm, "trtllm:request_queue_time_seconds", kServerQueueS, "s"},
    {Trtllm, "trtllm_request_queue_time_seconds", kServerQueueS, "s", 1},
    {Trtllm, "trtllm:request_success_total", kRequestsFinishedRps, "1/s"},
    {Trtllm, "trtllm_request_success_total", kRequestsFinishedRps, "1/s", 1},
    // NVIDIA Dynamo frontend (HTTP layer, user-facing).
    {Dynamo, "dynamo_frontend_inflight_requests", kRunning, "requests", 3},
    {Dynamo, "dynamo_frontend_queued_requests", kWaiting, "requests", 3},
    {Dynamo, "dynamo_frontend_output_tokens_total", kGenerationTps, "tokens/s", 3},
    {Dynamo, "dynamo_frontend_time_to_first_token_seconds", kServerTtftS, "s", 3},
    {Dynamo, "dynamo_frontend_inter_token_latency_seconds", kServerItlS, "s", 3},
    {Dynamo, "dynamo_frontend_request_duration_seconds", kServerE2eS, "s", 3},
    // DCGM exporter, names from dcgm-exporter's etc/default-counters.csv (+ the profiling NVLink fields).
    {Dcgm, "DCGM_FI_DEV_GPU_UTIL", kGpuUtilPct, "%"},
    {Dcgm, "DCGM_FI_DEV_FB_USED", kGpuMemUsedMib, "MiB"},
    {Dcgm, "DCGM_FI_DEV_FB_FREE", kGpuMemFreeMib, "MiB"},
    {Dcgm, "DCGM_FI_DEV_GPU_TEMP", kGpuTempC, "C"},
    {Dcgm, "DCGM_FI_DEV_MEMORY_TEMP", kGpuMemTempC, "C"},
    {Dcgm, "DCGM_FI_DEV_POWER_USAGE", kGpuPowerW, "W"},
    // Counter in mJ → rate in mJ/s → W.
    {Dcgm, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", kGpuEnergyRateW, "W", 0, 1e-3, MetricType::Counter},
    {Dcgm, "DCGM_FI_DEV_SM_CLOCK", kGpuSmClockMhz, "MHz"},
    {Dcgm, "DCGM_FI_DEV_MEM_CLOCK", kGpuMemClockMhz, "MHz"},
    {Dcgm, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", kGpuGrEngineActive, "ratio"},
    {Dcgm, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", kGpuTensorActive, "ratio"},
    {Dcgm, "DCGM_FI_PROF_DRAM_ACTIVE", kGpuDramActive, "ratio"},
    // Declared "counter" by dcgm-exporter, but DCGM field 449 reads as an instantaneous MB/s figure
    // (field-level docs; applying rate() to it gives nonsense) → treated as a gauge, MB/s → GB/s.
    {Dcgm, "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", kNvlinkGbps, "GB/s", 0, 1e-3, MetricType::Gauge},
    {Dcgm, "DCGM_FI_PROF_NVLINK_TX_BYTES", kNvlinkTxGbps, "GB/s", 0, 1e-9, MetricType::Gauge}, // bytes/s
    {Dcgm, "DCGM_FI_PROF_NVLINK_RX_BYTES", kNvlinkRxGbps, "GB/s", 0, 1e-9, MetricType::Gauge},
    {Dcgm, "DCGM_FI_PROF_PCIE_TX_BYTES", kPcieTxGbps, "GB/s", 0, 1e-9, MetricType::Gauge}, // bytes/s
    {Dcgm, "DCGM_FI_PROF_PCIE_RX_BYTES", kPcieRxGbps, "GB/s", 0, 1e-9, MetricType::Gauge},
    {Dcgm, "DCGM_FI_DEV_XID_ERRORS", kGpuXidLast, ""},
};

// Tables per backend preset id; DCGM is added to every known backend. An id not listed gets every table.
const std::pair<std::string_view, unsigned> kBackendTables[] = {
    {"vllm", Vllm},
    {"sglang", Sglang},
    {"llamacpp", Llamacpp},
    {"trtllm", Trtllm},
    {"nim", Vllm | Trtllm},                      // NIM for LLMs runs vLLM or TensorRT-LLM underneath
    {"dynamo", Dynamo | Vllm | Sglang | Trtllm}, // frontend plus whichever engine workers expose
};

void addTables(std::unordered_map<std::string, MetricMapping> &map, unsigned tables)
{
    for (const Entry &e : kEntries) {
        if (e.table & tables)
            map.emplace(e.source, MetricMapping{e.common, e.unit, e.scale, e.priority, e.treatAs});
    }
}

} // namespace

MetricNameMap MetricNameMap::forBackend(std::string_view id)
{
    for (const auto &[backend, tables] : kBackendTables) {
        if (id == backend) {
            MetricNameMap m;
            addTables(m.m_map, tables | Dcgm);
            return m;
        }
    }
    return all();
}

MetricNameMap MetricNameMap::all()
{
    MetricNameMap m;
    addTables(m.m_map, AllTables);
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
