#pragma once
// MLPerf Endpoints' per-point result_summary.json shape (the client's Report, mlcommons/endpoints
// src/inference_endpoint/metrics/report.py; CSV rows CLI-04/05, VAL-01/02): counters n_samples_issued /
// completed / failed, duration_ns, qps, tps, and series blocks ttft / tpot / latency with latencies in
// nanoseconds and percentile keys as strings ("90.0", "99.9"; "90" is read too). Throughline writes one
// per fixed-concurrency point beside results.json and reads the shape back (History import).
//
// Mapping (docs/mlperf-endpoints.md): ttft ↔ ttft_ms, tpot ↔ tpot_mlperf_ms (MLPerf's TPOT excludes TTFT),
// latency ↔ e2e_ms, tps ↔ output_tps_mlperf, qps ↔ request_rate, duration_ns ↔ window_s. Latencies are
// written as whole nanoseconds, std_dev as MLPerf's sample (n − 1) deviation, total = Σ in ns, avg =
// total ÷ count; so written → read → written is byte-identical. Percentiles follow Throughline's minimum-n
// rule both ways (ARCHITECTURE.md "Percentiles": p90 needs 100 samples, p99 1,000, p99.9 10,000): an
// unreportable one is neither written nor read (History shows "n/a (n=…)"). Percentiles Throughline does not
// keep (1, 5, 10, 25, 75, 80, 97) are not written; histograms are written empty; no early_stopping block.
// A "throughline" member carries provenance (run, scenario, point, load, time scale, series counts).

#include "core/metrics/pointresult.h"
#include "core/results/resultsjson.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace Throughline::Mlperf {

struct SummaryProvenance {
    std::string toolVersion;
    std::string gitSha; // Throughline's revision (the client's git_sha in MLPerf's file)
    std::string runId;
    std::string scenarioId;
    int pointIndex = 0;
    double timeScale = 1;
};

// "90.0" for 900 ‰, "99.9" for 999 ‰ (Python's str(float) of the percentile).
std::string percentileKey(int permille);

nlohmann::json resultSummaryOf(const PointResult &point, const SummaryProvenance &provenance);

// A result_summary.json document → a point in the results.json vocabulary. `where` names the file in
// errors ("r64/result_summary.json: tpot.percentiles.90.0: expected a number").
Result<PointResult> pointFromResultSummary(const nlohmann::json &doc, const std::string &where);
bool looksLikeResultSummary(const nlohmann::json &doc);

// Writes DIR/mlperf/<scenario>/r<C>/result_summary.json for every fixed-concurrency point (scenario id with
// '/' and '×' made file-safe; a repeated concurrency gets r<C>-2, …). Returns the number of files.
Result<int> writeResultSummaries(const RunResults &run, const std::string &dir, const std::string &gitSha);

} // namespace Throughline::Mlperf
