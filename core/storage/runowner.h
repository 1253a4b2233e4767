#pragma once
// Who writes a 'running' run, and whether that writer is certainly gone — the one rule every reader
// (`throughline-cli runs`, History, resume) and the next writer's crash recovery apply, so a killed run is
// listed 'crashed' by all of them at once.
//
// Same kernel and same pid namespace (boot id and /proc/self/ns/pid equal): the writer's pid is checked
// directly (dead, a zombie, or reused with another start time = gone), so a `kill -9` shows at once.
// Otherwise (another host, another container's pid namespace, a reboot): the writer holds a lease that its
// heartbeat renews every 2 s; the run is gone when the lease has expired (kLeaseSeconds; mind clock skew
// between hosts). Rows written before schema v5 have no boot id or lease: same host name → pid check,
// else a heartbeat older than kLegacyStaleSeconds.

#include <QDateTime>

#include <cstdint>
#include <string>

namespace Throughline {

class SqliteDb;
class SqliteStmt;

struct RunOwner {
    std::string host;
    std::int64_t pid = 0;        // 0 = unknown
    std::int64_t startTicks = 0; // field 22 of /proc/<pid>/stat; 0 = unknown
    std::string bootId;          // /proc/sys/kernel/random/boot_id; "" = unknown (pre-v5 row)
    std::string pidNamespace;    // readlink(/proc/self/ns/pid), e.g. "pid:[4026531836]"
    std::string leaseUntilUtc;   // ISO-8601; "" = no lease (pre-v5 row)
    std::string heartbeatUtc;    // ISO-8601
};

namespace RunOwnership {

inline constexpr int kLeaseSeconds = 20;        // renewed every 2 s by the live writer's heartbeat
inline constexpr int kLegacyStaleSeconds = 600; // pre-v5 rows from another host

// The columns of `runs` that describe the owner, in RunOwner's order (for SELECTs and the SQL function).
inline constexpr const char *kColumns =
    "writer_host, writer_pid, writer_start, writer_boot_id, writer_pidns, lease_until_utc, heartbeat_utc";

RunOwner self(); // this process, as a writer records it
std::string bootId();
std::string pidNamespace();
std::string leaseUntil(const QDateTime &nowUtc); // nowUtc + kLeaseSeconds, ISO-8601 with ms
bool processAlive(std::int64_t pid, std::int64_t startTicks);

// True when the writer of a 'running' run is certainly gone (see the header comment).
bool ownerGone(const RunOwner &owner, const QDateTime &nowUtc = QDateTime::currentDateTimeUtc());
// Reads kColumns from `st` starting at column `first`.
RunOwner read(const SqliteStmt &st, int first);
// Registers the SQL function run_owner_gone(<kColumns>) → 0/1 on a connection, so queries (run lists,
// status filters) can say `CASE WHEN status = 'running' AND run_owner_gone(…) THEN 'crashed' …`.
bool registerSqlFunction(SqliteDb &db);
// The status a reader shows: 'crashed' for a running run whose owner is gone, else the stored status.
std::string effectiveStatusSql(const std::string &tableAlias);

} // namespace RunOwnership

} // namespace Throughline
