#pragma once
// Lifecycle of the history database: crash recovery, size, pruning raw events, deleting runs, VACUUM.
// Each call opens its own connection (or uses the one given) and is blocking; call from a worker or the CLI.

#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

class SqliteDb;

class HistoryMaintenance
{
public:
    // Marks runs still 'running' whose writer is gone (RunOwnership::ownerGone: the pid on the same kernel
    // and pid namespace, else an expired lease) as 'crashed'. Returns the uuids marked. Committed rows are
    // left as they are.
    static Result<std::vector<std::string>> recoverCrashedRuns(SqliteDb &db);

    struct SizeInfo {
        std::int64_t fileBytes = 0; // main file + WAL
        std::int64_t pageCount = 0, freePages = 0, pageSize = 0;
        std::int64_t runs = 0, requests = 0, eventBlobs = 0, eventBytes = 0;
    };
    static Result<SizeInfo> size(const std::string &path);
    // Deletes request_events (and stored text) of runs started more than `days` ago; request rows stay.
    // Returns the number of event blobs removed.
    static Result<std::int64_t> pruneEvents(const std::string &path, int days);
    // Deletes runs (all rows that belong to them). uuids must be full ids.
    static Status deleteRuns(const std::string &path, const std::vector<std::string> &uuids);
    static Status vacuum(const std::string &path);

    // Replaces the tags of one run (uuid = full run id) in one transaction. Tags are trimmed; empty ones and
    // duplicates are dropped; a tag with a comma is refused (InvalidInput; lists and filters use commas).
    // An unknown run is NotFound. Both errors name the run id.
    static Status setTags(const std::string &path, const std::string &uuid,
                          const std::vector<std::string> &tags);
    // Replaces the free-text notes of one run (stored as given, UTF-8). An unknown run is NotFound naming it.
    static Status setNotes(const std::string &path, const std::string &uuid, const std::string &notes);

    // Deletes the request rows (and their events, text, error detail, metric chunks, breakdowns) of the
    // points `pointIds` — an SQL list or subquery in parentheses, e.g. "(12)" — on an open connection, inside
    // the caller's transaction.
    static Status deleteRequestRows(SqliteDb &db, const std::string &pointIds);
    // Deletes one run's rows on an open connection, inside the caller's transaction.
    static Status deleteRunRows(SqliteDb &db, std::int64_t runId);
};

} // namespace Throughline
