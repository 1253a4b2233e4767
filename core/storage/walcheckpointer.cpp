#include "core/storage/walcheckpointer.h"

#include <sqlite3.h>

#include <ctime>
#include <pthread.h>

namespace Throughline {

namespace {

std::int64_t threadCpuNs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000LL + t.tv_nsec;
}

} // namespace

Status WalCheckpointer::start(SqliteDb &writer, const std::string &path, int busyTimeoutMs)
{
    stop();
    if (auto s = m_db.open(path, SqliteDb::Mode::ReadWrite, busyTimeoutMs); !s)
        return s;
    // Read once so this connection's pager has the WAL open (a checkpoint on a connection that never read the
    // database would do nothing).
    if (auto n = m_db.queryInt("SELECT count(*) FROM sqlite_master"); !n) {
        m_db.close();
        return n.error();
    }
    m_stop = false;
    m_pending = false;
    m_thread = std::thread([this] { threadMain(); });
    m_writer = writer.handle();
    sqlite3_wal_hook(m_writer, &WalCheckpointer::walHook, this);
    return Ok{};
}

void WalCheckpointer::stop()
{
    if (!m_thread.joinable())
        return;
    sqlite3_wal_hook(m_writer, nullptr, nullptr);
    m_writer = nullptr;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
    m_db.close();
}

int WalCheckpointer::walHook(void *self, sqlite3 *db, const char *dbName, int frames)
{
    auto *me = static_cast<WalCheckpointer *>(self);
    if (frames < kSignalFrames)
        return SQLITE_OK;
    bool inlineCheckpoint = false;
    {
        std::lock_guard lock(me->m_mutex);
        // Inline only when the background thread had its chance (idle, nothing pending) and the WAL still did
        // not restart; otherwise it would merely duplicate the thread's work on the writer thread.
        inlineCheckpoint = frames >= kInlineFrames && !me->m_pending && !me->m_busy;
        if (!inlineCheckpoint)
            me->m_pending = true;
    }
    if (inlineCheckpoint) {
        // Backfill the rest here (nothing writes meanwhile, so the next transaction restarts the WAL from its
        // beginning). Errors are not the commit's: SQLite's own auto-checkpoint ignores them the same way.
        (void)sqlite3_wal_checkpoint_v2(db, dbName, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    } else {
        me->m_wake.notify_one();
    }
    return SQLITE_OK;
}

void WalCheckpointer::threadMain()
{
    pthread_setname_np(pthread_self(), "tl-checkpoint"); // tells it apart in top/perf
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_pending; });
            if (m_stop)
                return;
            m_pending = false;
            m_busy = true;
        }
        const std::int64_t c0 = threadCpuNs();
        // PASSIVE: copies what no reader still needs, never waits for the writer or readers; a failure
        // (busy, I/O) leaves the WAL as it was and is retried at the next signal or inline.
        (void)sqlite3_wal_checkpoint_v2(m_db.handle(), "main", SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        m_cpuNs += threadCpuNs() - c0;
        std::lock_guard lock(m_mutex);
        m_busy = false;
    }
}

} // namespace Throughline
