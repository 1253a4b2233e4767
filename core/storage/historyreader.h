#pragma once
// Read queries over the history database for the UI and the CLI.
// Thread affinity: one HistoryReader per thread; each opens its own read-only connection, so readers never
// block the writer (WAL) and see only committed data.

#include "core/servertiming/requestbreakdown.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagetypes.h"
#include "core/util/result.h"

#include <string>
#include <vector>

namespace Throughline {

class HistoryReader
{
public:
    // Opens read-only. A missing file is NotFound; an unmigrated/newer schema is refused.
    Status open(const std::string &path);
    const std::string &path() const { return m_db.path(); }
    SqliteDb &connection() { return m_db; }

    // `key=glob,…` over model, backend, gpu, gpus, phase (AND across keys, OR within a repeated key), plus
    // verdict=, status=, tag=, since=, until= (ISO date prefix) and text=. Bad keys → InvalidInput naming the
    // key.
    static Result<RunFilter> parseFilter(const std::string &expr);

    // Newest first.
    Result<std::vector<RunSummary>> listRuns(const RunFilter &filter = {});
    // Full uuid from a unique prefix of ≥ 8 hex digits (dashes ignored).
    Result<std::string> resolveRun(const std::string &prefix);
    Result<RunDetail> runDetail(const std::string &uuid);
    // Points of several runs (overlays), ordered by run, scenario, point.
    Result<std::vector<PointRow>> points(const std::vector<std::string> &uuids);
    // Resume: points of a crashed/cancelled run that are not completed (pending or partially run).
    Result<std::vector<PointRow>> unfinishedPoints(const std::string &uuid);

    // Narrow rows of a point in seq order (warm-up included when asked).
    Result<std::vector<RequestRow>> requests(std::int64_t pointId, bool includeWarmup = true);
    // One metric of the successful measured requests, in ms, for histograms/CDFs:
    // "ttft_ms", "tpot_ms", "e2e_ms", "ttft_q_ms", "n_out".
    Result<std::vector<double>> samples(std::int64_t pointId, const std::string &metric,
                                        bool includeWarmup = false);
    Result<std::vector<StreamEvent>> events(std::int64_t requestId);
    // The point's per-request server-timing breakdowns in seq order (empty when the point had no server
    // timing). A malformed row is an error naming the point, the seq and the field.
    Result<std::vector<RequestBreakdown>> requestBreakdowns(std::int64_t pointId);
    Result<std::string> text(std::int64_t requestId);

    // Recomputes a point from the narrow table under other definitions (percentile set, window, per-GPU
    // divisor, error-adjusted). Returns {n_sent, n_ok, window_s, output_tps_whole,
    // output_tps_issued_in_window, output_tps_per_gpu, request_rate, ttft_ms{…}, tpot_ms{…}, e2e_ms{…}} with
    // percentile keys "p<digits>" (p50, p90, p999, p99_5 for 99.5). Percentiles below the min-n rule are
    // null.
    Result<nlohmann::json> derivePoint(std::int64_t pointId, const DeriveOptions &options = {});

private:
    SqliteDb m_db;
};

} // namespace Throughline
