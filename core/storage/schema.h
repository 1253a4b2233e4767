#pragma once
// History database schema: a version table and ordered migrations.
// Version 0 = the pre-versioning prototype layout (runs/requests keyed by uuid, no schema_version table);
// version 1 = the first versioned layout; version 2 adds server telemetry; version 3 packed per-point metric
// chunks for re-derivation; version 4 fills the chunks of points stored before v3; version 5 records the
// writer's boot id, pid namespace and lease (crash detection by every reader, runowner.h); version 6 stores
// each request's server-timing breakdown (request_breakdowns). See schema.cpp for the tables and why each
// exists.

#include "core/storage/sqlitedb.h"
#include "core/util/result.h"

namespace Throughline {

class Schema
{
public:
    static constexpr int kVersion = 6;
    // Oldest bundle (.tlrun) version import and merge read: v3 only added request_metric_chunks and v4 only
    // fills them (derived data), so v2 bundles hold every table they need (import copies the rows and builds
    // the chunks; merge reads a migrated temporary copy).
    static constexpr int kOldestImportableBundle = 2;

    // Version of an open database: 0 for the prototype layout, -1 for an empty file, else the highest applied
    // version in schema_version.
    static Result<int> version(SqliteDb &db);
    // Applies every migration above the current version, each in its own transaction, in order.
    // A database newer than kVersion is refused (ErrorCode::Unsupported) and left untouched.
    static Status migrate(SqliteDb &db);
    // Connection settings shared by writers: WAL, synchronous=NORMAL, foreign keys off for the narrow tables.
    static Status configureWriter(SqliteDb &db);
};

} // namespace Throughline
