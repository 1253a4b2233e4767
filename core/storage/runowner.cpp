#include "core/storage/runowner.h"

#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"

#include <sqlite3.h>

#include <cerrno>
#include <csignal>
#include <fstream>
#include <unistd.h>

namespace Throughline::RunOwnership {

namespace {

std::string firstLine(const char *path)
{
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
}

QDateTime parseUtc(const std::string &iso)
{
    return QDateTime::fromString(QString::fromStdString(iso), Qt::ISODateWithMs);
}

// The identity of this process's kernel and pid namespace does not change while it runs.
const RunOwner &me()
{
    static const RunOwner owner = self();
    return owner;
}

std::string argText(sqlite3_value *v)
{
    const unsigned char *t = sqlite3_value_text(v);
    return t ? reinterpret_cast<const char *>(t) : std::string();
}

void ownerGoneSql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    if (argc != 7) {
        sqlite3_result_error(ctx, "run_owner_gone takes 7 arguments", -1);
        return;
    }
    RunOwner o;
    o.host = argText(argv[0]);
    o.pid = sqlite3_value_int64(argv[1]);
    o.startTicks = sqlite3_value_int64(argv[2]);
    o.bootId = argText(argv[3]);
    o.pidNamespace = argText(argv[4]);
    o.leaseUntilUtc = argText(argv[5]);
    o.heartbeatUtc = argText(argv[6]);
    sqlite3_result_int(ctx, ownerGone(o) ? 1 : 0);
}

} // namespace

std::string bootId()
{
    return firstLine("/proc/sys/kernel/random/boot_id");
}

std::string pidNamespace()
{
    char buf[128] = {};
    const ssize_t n = ::readlink("/proc/self/ns/pid", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
}

RunOwner self()
{
    RunOwner o;
    o.host = StorageWriter::hostName();
    o.pid = static_cast<std::int64_t>(::getpid());
    o.startTicks = StorageWriter::processStartTicks(o.pid);
    o.bootId = bootId();
    o.pidNamespace = pidNamespace();
    return o;
}

std::string leaseUntil(const QDateTime &nowUtc)
{
    return nowUtc.addSecs(kLeaseSeconds).toString(Qt::ISODateWithMs).toStdString();
}

bool processAlive(std::int64_t pid, std::int64_t startTicks)
{
    if (pid <= 0)
        return false;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
        return false;
    const std::int64_t now = StorageWriter::processStartTicks(pid);
    if (now < 0)
        return false; // no /proc entry: gone
    if (startTicks > 0 && now != startTicks)
        return false; // pid reused by another process
    // A killed writer not yet reaped is a zombie (state 'Z' in /proc/<pid>/stat): dead for our purpose.
    const std::string line = firstLine(("/proc/" + std::to_string(pid) + "/stat").c_str());
    const auto close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size() &&
        (line[close + 2] == 'Z' || line[close + 2] == 'X'))
        return false;
    return true;
}

bool ownerGone(const RunOwner &owner, const QDateTime &nowUtc)
{
    const RunOwner &self = me();
    const bool sameKernel = !owner.bootId.empty() && owner.bootId == self.bootId;
    if (sameKernel && !owner.pidNamespace.empty() && owner.pidNamespace == self.pidNamespace)
        return owner.pid <= 0 || !processAlive(owner.pid, owner.startTicks);
    if (!owner.leaseUntilUtc.empty()) {
        const QDateTime until = parseUtc(owner.leaseUntilUtc);
        return !until.isValid() || nowUtc > until;
    }
    // A pre-v5 row: no boot id, no lease.
    if (owner.host == self.host || owner.host.empty())
        return owner.pid <= 0 || !processAlive(owner.pid, owner.startTicks);
    const QDateTime hb = parseUtc(owner.heartbeatUtc);
    return !hb.isValid() || hb.secsTo(nowUtc) > kLegacyStaleSeconds;
}

RunOwner read(const SqliteStmt &st, int first)
{
    RunOwner o;
    o.host = st.colText(first);
    o.pid = st.colIsNull(first + 1) ? 0 : st.colInt(first + 1);
    o.startTicks = st.colIsNull(first + 2) ? 0 : st.colInt(first + 2);
    o.bootId = st.colText(first + 3);
    o.pidNamespace = st.colText(first + 4);
    o.leaseUntilUtc = st.colText(first + 5);
    o.heartbeatUtc = st.colText(first + 6);
    return o;
}

bool registerSqlFunction(SqliteDb &db)
{
    // Not SQLITE_DETERMINISTIC: the answer changes when a process dies or a lease runs out.
    return sqlite3_create_function_v2(db.handle(), "run_owner_gone", 7, SQLITE_UTF8, nullptr, &ownerGoneSql,
                                      nullptr, nullptr, nullptr) == SQLITE_OK;
}

std::string effectiveStatusSql(const std::string &a)
{
    std::string args;
    for (const char *c : {"writer_host", "writer_pid", "writer_start", "writer_boot_id", "writer_pidns",
                          "lease_until_utc", "heartbeat_utc"})
        args += (args.empty() ? "" : ", ") + a + "." + c;
    return "(CASE WHEN " + a + ".status = 'running' AND run_owner_gone(" + args + ") THEN 'crashed' ELSE " +
           a + ".status END)";
}

} // namespace Throughline::RunOwnership
