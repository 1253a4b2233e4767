#pragma once
// The indexed copies of a point's aggregates (points.output_tps_per_gpu, ttft_ms_p90, tpot_ms_p90, valid,
// flags), read from the results.json point object so storage never depends on the metrics structs.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace Throughline {

class SqliteStmt;

struct PointColumns {
    std::optional<double> outputTpsPerGpu, ttftMsP90, tpotMsP90;
    std::optional<bool> valid;
    std::string flags; // comma-separated validity flags

    static PointColumns from(const nlohmann::json &point);
    // Binds the five values at first, first+1, ... first+4 (NULL when unknown).
    void bindTo(SqliteStmt &st, int first) const;
};

} // namespace Throughline
