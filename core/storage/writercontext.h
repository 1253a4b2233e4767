#pragma once
// Everything StorageWriter's thread owns: its connection, the prepared statements of the hot path and the
// caches that map run uuids / scenario and point indexes to row ids (so a batch of 1,000 requests costs no
// id lookups). The *RowWriter classes (runrowwriter.h, pointrowwriter.h, requestrowwriter.h,
// telemetryrowwriter.h) do the SQL of each job against it.
//
// Thread affinity: the writer thread only (and StorageWriter::open() before that thread starts).

#include "core/storage/metricchunk.h"
#include "core/storage/sqlitedb.h"
#include "core/util/result.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace Throughline {

struct WriterContext {
    SqliteDb db;
    SqliteStmt insertRequest, insertEvents, insertText, insertError, findPoint, insertPoint;
    // RequestRowWriter::kRowsPerInsert request rows / event blobs per statement, and what is staged for them:
    // row values (bit c of `nulls` = column c is NULL) and blobs encoded into eventBuffer at `offset`.
    SqliteStmt insertRequestRows, insertEventRows;
    struct StagedRow {
        std::int64_t v[31];
        std::uint32_t nulls;
    };
    struct StagedEvents {
        std::int64_t requestId;
        std::size_t offset, size;
    };
    std::vector<StagedRow> stagedRows;
    std::vector<StagedEvents> stagedEvents;
    // requests.id of the next request row; 0 = unknown: read max(id) + 1 at the first request insert of
    // each transaction (reset by beginTransaction and forgetIds).
    std::int64_t nextRequestId = 0;
    std::map<std::string, std::int64_t> runIds;
    std::map<std::string, bool> storeText;
    std::map<std::pair<std::int64_t, int>, std::int64_t> scenarioIds;
    std::map<std::tuple<std::int64_t, int, int>, std::int64_t> pointIds;
    // Telemetry rows written by this writer (TelemetryRowWriter::store with replace): key → rowid, so a later
    // snapshot of the same scenario updates them instead of adding rows.
    std::map<std::tuple<std::int64_t, std::string, std::string, std::string>, std::int64_t> seriesRows;
    std::map<std::pair<std::int64_t, int>, std::int64_t> sourceRows; // (scenario id, source index)
    // Metric chunks of the current transaction, per point id (metricchunk.h): written by
    // flushMetricChunks() right before every COMMIT.
    struct PendingChunk {
        std::int64_t firstId = 0, lastId = 0;
        MetricChunk chunk;
    };
    std::map<std::int64_t, PendingChunk> metricChunks;
    SqliteStmt insertChunk;
    std::string buffer;            // scratch for compressed text
    std::vector<char> eventBuffer; // scratch for event blobs: only grows (no zero-filling per request)
    std::chrono::steady_clock::time_point lastHeartbeat{};

    // Prepares the statements above (a read-only connection may fail here: then only at the first write).
    Status prepareStatements(bool readOnly);
    // After BEGIN: ids written by other connections since our last transaction are unknown.
    void beginTransaction() { nextRequestId = 0; }
    // After a rollback: cached ids may name rows that no longer exist (pending chunks and staged rows are
    // dropped too).
    void forgetIds();
    // Inserts the pending metric chunks (inside the open transaction) and clears them.
    Status flushMetricChunks();

    // Row ids, from the caches or the database. An unknown run is NotFound; a scenario or point that
    // beginRun did not declare is created (placeholder key "scenario-N", point status 'running') rather
    // than dropping its data.
    Result<std::int64_t> runId(const std::string &uuid);
    Result<std::int64_t> scenarioId(std::int64_t run, int index);
    Result<std::int64_t> pointId(std::int64_t run, int scenarioIndex, int pointIndex);

    // The lookups every job starts with: run by uuid, then its scenario / point by index.
    struct ScenarioRef {
        std::int64_t run = 0, scenario = 0;
    };
    struct PointRef {
        std::int64_t run = 0, point = 0;
    };
    Result<ScenarioRef> scenario(const std::string &runUuid, int scenarioIndex);
    Result<PointRef> point(const std::string &runUuid, int scenarioIndex, int pointIndex);

    // Steps a write statement; a failure becomes the connection's error naming `what`.
    Status run(SqliteStmt &st, const char *what);
};

} // namespace Throughline
