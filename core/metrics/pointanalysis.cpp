#include "core/metrics/pointanalysis.h"

#include "core/engine/replicaanalysis.h"
#include "core/telemetry/pointtelemetry.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace Throughline {
namespace {

double msOf(std::int64_t ns)
{
    return ns == kNoTime ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(ns) / 1e6;
}

std::string fmt1(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// The flat results.json "telemetry" object of a point (keys listed in results.schema.json).
void putSummary(std::map<std::string, double> &m, const PointTelemetrySummary &s)
{
    m["scrapes"] = s.scrapes;
    m["scrape_failures"] = s.scrapeFailures;
    auto put = [&m](const char *key, const std::optional<double> &v, double factor = 1.0) {
        if (v)
            m[key] = *v * factor;
    };
    put("kv_cache_usage_peak", s.peakKvCacheUsage);
    put("kv_cache_usage_mean", s.meanKvCacheUsage);
    put("waiting_mean", s.meanWaiting);
    put("waiting_peak", s.peakWaiting);
    put("running_mean", s.meanRunning);
    put("generation_tps_mean", s.meanGenerationTps);
    put("gpu_util_pct_mean", s.meanGpuUtilPct);
    put("gpu_temp_c_peak", s.peakGpuTempC);
    put("gpu_power_w_mean", s.meanGpuPowerW);
    put("energy_j", s.energyJ);
    put("energy_per_output_token_j", s.energyPerOutputTokenJ);
    put("server_ttft_ms_mean", s.serverTtftMeanS, 1000.0);
    put("server_ttft_ms_p50", s.serverTtftP50S, 1000.0);
    put("server_ttft_ms_p90", s.serverTtftP90S, 1000.0);
    put("server_ttft_n", s.serverTtftCount);
}

nlohmann::json stallJson(const StallReport &r)
{
    nlohmann::json worst = nlohmann::json::array();
    for (const StalledRequest &w : r.worst) {
        nlohmann::json gaps = nlohmann::json::array();
        for (const StallGap &g : w.stalls)
            gaps.push_back({{"start_ms", msOf(g.startNs)}, {"end_ms", msOf(g.endNs)}, {"open", g.open}});
        worst.push_back({{"seq", w.seq},
                         {"replica", w.replica},
                         {"warmup", w.warmup},
                         {"t_send_ms", msOf(w.tSend)},
                         {"t_first_content_ms", msOf(w.tFirstContent)},
                         {"t_end_ms", msOf(w.tEnd)},
                         {"longest_gap_ms", msOf(w.longestGapNs)},
                         {"gaps", gaps}});
    }
    return {{"threshold_ms",
             r.thresholdNs == kNoTime ? nlohmann::json(nullptr) : nlohmann::json(msOf(r.thresholdNs))},
            {"median_chunk_gap_ms", r.medianChunkGapNs == kNoTime ? nlohmann::json(nullptr)
                                                                  : nlohmann::json(msOf(r.medianChunkGapNs))},
            {"requests_checked", r.requestsChecked},
            {"requests_stalled", r.requestsStalled},
            {"stalls", r.stallsTotal},
            {"longest_gap_ms", msOf(r.longestGapNs)},
            {"worst", worst}};
}

nlohmann::json replicaJson(const ReplicaReport &r)
{
    auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    nlohmann::json a = nlohmann::json::array();
    for (const ReplicaStats &x : r.replicas)
        a.push_back({{"replica", x.replica},
                     {"requests", x.requests},
                     {"ok", x.ok},
                     {"output_tokens", x.outputTokens},
                     {"output_tps", num(x.outputTps)},
                     {"ttft_ms_p50", num(x.ttftP50Ms)},
                     {"ttft_ms_p90", num(x.ttftP90Ms)},
                     {"tpot_ms_p50", num(x.tpotP50Ms)},
                     {"e2e_ms_p50", num(x.e2eP50Ms)},
                     {"e2e_ms_p90", num(x.e2eP90Ms)},
                     {"judged", x.judged},
                     {"much_slower", x.muchSlower},
                     {"reason", x.reason}});
    return a;
}

void summariseTelemetry(PointResult &res, nlohmann::json &detail, const TelemetrySnapshot &snap)
{
    const auto w0 = static_cast<std::int64_t>(res.w0S * 1e9);
    const auto w1 = static_cast<std::int64_t>(res.w1S * 1e9);
    const double outTokens = std::isfinite(res.metrics.outputTps) && std::isfinite(res.windowS)
                                 ? res.metrics.outputTps * res.windowS
                                 : 0.0;
    if (w1 > w0) {
        const PointTelemetrySummary sum = PointTelemetry::summarise(snap, w0, w1, outTokens);
        putSummary(res.telemetry, sum);
        if (sum.scrapeFailures > 0) {
            std::string last;
            for (const TelemetrySourceStatus &st : snap.sources)
                if (!st.lastError.empty())
                    last = st.url + ": " + st.lastError;
            res.validity.notes.push_back("telemetry: " + std::to_string(sum.scrapeFailures) + " of " +
                                         std::to_string(sum.scrapes) + " scrapes failed" +
                                         (last.empty() ? std::string() : " (last: " + last + ")"));
        }
    }
    nlohmann::json sources = nlohmann::json::array();
    for (const TelemetrySourceStatus &st : snap.sources)
        sources.push_back({{"url", st.url},
                           {"backend", st.backendId},
                           {"scrapes_ok", st.scrapesOk},
                           {"scrapes_failed", st.scrapesFailed},
                           {"malformed_lines", st.malformedLines},
                           {"last_error", st.lastError}});
    detail["sources"] = sources; // cumulative over the scenario so far
}

void detectStalls(PointResult &res, nlohmann::json &detail, const std::vector<RequestRecord> &recs,
                  const StallOptions &options)
{
    StallOptions so = options;
    so.nowNs = kNoTime;
    const StallReport stalls = StallDetector::analyse(recs, so);
    if (stalls.thresholdNs != kNoTime)
        res.telemetry["stall_threshold_ms"] = msOf(stalls.thresholdNs);
    if (stalls.medianChunkGapNs != kNoTime)
        res.telemetry["median_chunk_gap_ms"] = msOf(stalls.medianChunkGapNs);
    res.telemetry["stalled_requests"] = stalls.requestsStalled;
    res.telemetry["stalls"] = stalls.stallsTotal;
    res.telemetry["stall_longest_gap_ms"] = msOf(stalls.longestGapNs);
    if (stalls.requestsStalled > 0) {
        std::string worst;
        if (!stalls.worst.empty())
            worst = ", request " + std::to_string(stalls.worst.front().seq);
        res.validity.notes.push_back("stalls: " + std::to_string(stalls.requestsStalled) + " of " +
                                     std::to_string(stalls.requestsChecked) +
                                     " streams received nothing for longer than " +
                                     fmt1(msOf(stalls.thresholdNs)) + " ms (longest " +
                                     fmt1(msOf(stalls.longestGapNs)) + " ms" + worst + ")");
    }
    detail["stalls"] = stallJson(stalls);
}

void compareReplicas(PointResult &res, nlohmann::json &detail, const std::vector<RequestRecord> &recs)
{
    const ReplicaReport rep = ReplicaAnalysis::analyse(recs);
    int slow = 0;
    for (const ReplicaStats &x : rep.replicas) {
        if (!x.muchSlower)
            continue;
        ++slow;
        res.validity.notes.push_back("replica " + std::to_string(x.replica) +
                                     " much slower than the others: " + x.reason);
    }
    res.telemetry["replicas"] = static_cast<double>(rep.replicas.size());
    res.telemetry["replicas_much_slower"] = slow;
    detail["replicas"] = replicaJson(rep);
}

} // namespace

void analysePoint(PointResult &result, nlohmann::json &telemetry, const std::vector<RequestRecord> &recs,
                  const TelemetrySnapshot *snap, const StallOptions &stalls, bool severalReplicas)
{
    if (snap)
        summariseTelemetry(result, telemetry, *snap);
    detectStalls(result, telemetry, recs, stalls);
    if (severalReplicas)
        compareReplicas(result, telemetry, recs);
    nlohmann::json flat = nlohmann::json::object();
    for (const auto &[k, v] : result.telemetry)
        flat[k] = std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
    telemetry["telemetry"] = flat;
}

} // namespace Throughline
