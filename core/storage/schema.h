#pragma once
// History database schema: a version table and ordered migrations.
// Version 0 = the pre-versioning prototype layout (runs/requests keyed by uuid, no schema_version table);
// version 1 = the first versioned layout; version 2 adds server telemetry (see schema.cpp for the tables and
// why each exists).

#include "core/storage/sqlitedb.h"
#include "core/util/result.h"

namespace Throughline {

class Schema
{
public:
    static constexpr int kVersion = 2;

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
