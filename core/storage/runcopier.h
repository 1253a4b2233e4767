#pragma once
// Copies one run with all its rows between two schemas of one connection (main and an ATTACHed file).
// Used by bundle export (history → bundle) and import (bundle → history). Integer ids are shifted past the
// destination's highest ids, so runs from other databases never collide. Runs inside the caller's
// transaction.

#include "core/util/result.h"

#include <cstdint>
#include <string>

namespace Throughline {

class SqliteDb;

class RunCopier
{
public:
    // Returns the destination run id. `newUuid` non-empty: the copy gets this uuid instead of the source one.
    static Result<std::int64_t> copyRun(SqliteDb &db, const std::string &srcSchema,
                                        const std::string &dstSchema, std::int64_t srcRunId,
                                        const std::string &newUuid = {});
};

} // namespace Throughline
