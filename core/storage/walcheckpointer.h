#pragma once
// Background WAL checkpoints for StorageWriter: moves the copy of committed WAL frames into the database file
// (≈15% of the writer thread's CPU under sustained ingest: read the frames back, write the pages, fsync) off
// the writer thread onto a thread with its own connection, so ingest capacity is not spent on it.
//
// The writer connection's automatic checkpoint (PRAGMA wal_autocheckpoint) is replaced by a WAL hook: after a
// commit that leaves >= kSignalFrames frames in the WAL the hook wakes this thread, which runs a PASSIVE
// checkpoint (never blocks the writer nor readers). Because a passive checkpoint running beside the writer
// may never catch up with the WAL's end (the WAL only restarts once fully backfilled), the hook still runs a
// PASSIVE checkpoint inline on the writer thread at >= kInlineFrames frames when the thread is idle: the WAL
// stays bounded (≈128 MB plus one transaction; before: 32 MB plus one transaction).
// Crash safety is unchanged (checkpoints are atomic from any connection; the same WAL and transactions).
//
// Thread affinity: start()/stop() on the thread that owns the writer connection while the writer thread is
// not running (StorageWriter::open / close); the hook runs on the writer thread; cpuNs() from any thread.

#include "core/storage/sqlitedb.h"
#include "core/util/result.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

struct sqlite3;

namespace Throughline {

class WalCheckpointer
{
public:
    static constexpr int kSignalFrames = 2000;  // ≈16 MB of 8 KiB pages: wake the checkpoint thread
    static constexpr int kInlineFrames = 16000; // ≈128 MB: checkpoint on the writer thread (bounds the WAL)

    WalCheckpointer() = default;
    ~WalCheckpointer() { stop(); }
    WalCheckpointer(const WalCheckpointer &) = delete;
    WalCheckpointer &operator=(const WalCheckpointer &) = delete;

    // Opens a second connection to `path` and installs the WAL hook on `writer` (replacing its
    // auto-checkpoint). On error nothing is changed and the writer keeps its automatic checkpoints.
    Status start(SqliteDb &writer, const std::string &path, int busyTimeoutMs);
    // Removes the hook from the writer connection, joins the thread and closes its connection (call with the
    // writer thread stopped, before closing the writer connection, which then checkpoints as usual).
    void stop();
    // CPU time spent by the checkpoint thread (ns).
    std::int64_t cpuNs() const { return m_cpuNs.load(); }

private:
    static int walHook(void *self, sqlite3 *db, const char *dbName, int frames);
    void threadMain();

    SqliteDb m_db;
    sqlite3 *m_writer = nullptr; // the hooked writer connection (not owned)
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_pending = false; // a checkpoint was requested (guarded by m_mutex, as m_busy and m_stop)
    bool m_busy = false;    // the thread is checkpointing now
    bool m_stop = false;
    std::atomic<std::int64_t> m_cpuNs{0};
};

} // namespace Throughline
