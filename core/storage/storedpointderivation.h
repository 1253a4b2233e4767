#pragma once
// HistoryReader::derivePoint: recomputes a point's aggregates from its stored requests under other
// definitions (percentile set, window, per-GPU divisor, error-adjusted). Reads the point's metric chunks
// (metricchunk.h) when they cover exactly its request rows, else scans the narrow rows; both paths feed the
// same accumulation, so the results are identical.
//
// Thread affinity: the thread that owns the connection (no other statement active on it during derive:
// the row scan registers an SQL function).

#include "core/storage/sqlitedb.h"
#include "core/storage/storagetypes.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>

namespace Throughline {

class StoredPointDerivation
{
public:
    // See HistoryReader::derivePoint for the returned object.
    static Result<nlohmann::json> derive(SqliteDb &db, std::int64_t pointId, const DeriveOptions &options);
};

} // namespace Throughline
