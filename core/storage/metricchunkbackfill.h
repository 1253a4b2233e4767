#pragma once
// Builds request_metric_chunks (metricchunk.h) from the request rows of points that have rows but no chunks:
// points stored before schema v3 (the v4 migration fills every one of them) and runs imported from v2
// bundles (RunBundle::importBundle). Afterwards HistoryReader::derivePoint reads those points from chunks
// too, instead of the ~3× slower row scan.
//
// Chunks hold the row values exactly (NULL = absent, flags & 1 = warm-up, error_class != 0 = failed), in
// request id order, at most kRowsPerChunk rows each, so a derivation from them equals one from the rows.
// Must run inside the caller's write transaction (the migration's, the import's).
//
// Thread affinity: the thread that owns the connection.

#include "core/storage/sqlitedb.h"
#include "core/util/result.h"

#include <cstdint>
#include <string>

namespace Throughline {

class MetricChunkBackfill
{
public:
    static constexpr std::int64_t kRowsPerChunk = 65536;

    // Points of schema `schema` ("main", or an attached database's name) without any chunk; when pointIdsSql
    // is not empty, only those among the ids it selects (a subquery, e.g. "SELECT id FROM points WHERE
    // run_id = 7"). Returns the number of chunks written.
    static Result<std::int64_t> fill(SqliteDb &db, const std::string &schema = "main",
                                     const std::string &pointIdsSql = {});
};

} // namespace Throughline
