#pragma once
// Names of the backend-neutral telemetry series (the vocabulary the UI, storage and reports use).
// Units are part of the name where they are not obvious; rates are per second of the run clock.

namespace Throughline::CommonSeries {

inline constexpr const char *kRunning = "running";              // requests in the running batch
inline constexpr const char *kWaiting = "waiting";              // requests queued in the server
inline constexpr const char *kKvCacheUsage = "kv_cache_usage";  // ratio 0…1
inline constexpr const char *kPromptTps = "prompt_tps";         // prompt (prefill) tokens/s
inline constexpr const char *kGenerationTps = "generation_tps"; // generated tokens/s
inline constexpr const char *kRequestsFinishedRps = "requests_finished_rps";
inline constexpr const char *kPreemptionsPerS = "preemptions_per_s";
inline constexpr const char *kPrefixCacheHitRate = "prefix_cache_hit_rate"; // ratio 0…1
inline constexpr const char *kIterationLatencyMs = "iteration_latency_ms";
inline constexpr const char *kServerTtftS = "server_ttft_s";   // histogram (seconds)
inline constexpr const char *kServerItlS = "server_itl_s";     // histogram (seconds)
inline constexpr const char *kServerE2eS = "server_e2e_s";     // histogram (seconds)
inline constexpr const char *kServerQueueS = "server_queue_s"; // histogram (seconds)
inline constexpr const char *kGpuUtilPct = "gpu_util_pct";
inline constexpr const char *kGpuMemUsedMib = "gpu_mem_used_mib";
inline constexpr const char *kGpuMemFreeMib = "gpu_mem_free_mib";
inline constexpr const char *kGpuTempC = "gpu_temp_c";
inline constexpr const char *kGpuMemTempC = "gpu_mem_temp_c";
inline constexpr const char *kGpuPowerW = "gpu_power_w";
inline constexpr const char *kGpuEnergyRateW = "gpu_energy_rate_w"; // from the energy counter (mJ) → W
inline constexpr const char *kGpuSmClockMhz = "gpu_sm_clock_mhz";
inline constexpr const char *kGpuMemClockMhz = "gpu_mem_clock_mhz";
inline constexpr const char *kGpuGrEngineActive = "gpu_gr_engine_active"; // ratio
inline constexpr const char *kGpuTensorActive = "gpu_tensor_active";      // ratio
inline constexpr const char *kGpuDramActive = "gpu_dram_active";          // ratio
inline constexpr const char *kNvlinkGbps = "nvlink_gbps";                 // GB/s (gigabytes), all lanes
inline constexpr const char *kNvlinkTxGbps = "nvlink_tx_gbps";            // GB/s
inline constexpr const char *kNvlinkRxGbps = "nvlink_rx_gbps";            // GB/s
inline constexpr const char *kPcieTxGbps = "pcie_tx_gbps";                // GB/s
inline constexpr const char *kPcieRxGbps = "pcie_rx_gbps";                // GB/s
inline constexpr const char *kGpuXidLast = "gpu_xid_last";                // value of the last XID error

// Synthetic per-source series written by the scraper itself.
inline constexpr const char *kScrapeUp = "scrape_up"; // 1 ok, 0 failed
inline constexpr const char *kScrapeDurationMs = "scrape_duration_ms";

} // namespace Throughline::CommonSeries
