#include "core/storage/storagewriter.h"

#include "core/storage/historymaintenance.h"
#include "core/storage/pointrowwriter.h"
#include "core/storage/requestrowwriter.h"
#include "core/storage/runrowwriter.h"
#include "core/storage/schema.h"
#include "core/storage/breakdownrowwriter.h"
#include "core/storage/telemetryrowwriter.h"
#include "core/storage/walcheckpointer.h"
#include "core/storage/writercontext.h"
#include "core/util/freedmemory.h"

#include <sqlite3.h>

#include <ctime>
#include <fstream>
#include <pthread.h>
#include <sstream>
#include <unistd.h>
#include <utility>

namespace Throughline {

StorageWriter::StorageWriter() = default;

StorageWriter::~StorageWriter()
{
    (void)close();
}

std::string StorageWriter::hostName()
{
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0)
        return "unknown";
    return buf;
}

std::int64_t StorageWriter::processStartTicks(std::int64_t pid)
{
    // Field 22 of /proc/<pid>/stat (start time in clock ticks since boot) tells a live writer from a reused
    // pid.
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    if (!f)
        return -1;
    std::string line;
    std::getline(f, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 22; ++i) {
        if (!(rest >> field))
            return -1;
    }
    try {
        return std::stoll(field);
    } catch (...) {
        return -1;
    }
}

Status StorageWriter::open(const std::string &path, const Options &options)
{
    if (isOpen())
        return makeError(ErrorCode::Internal, "storage writer already open on " + m_path);
    m_path = path;
    m_options = options;
    m_error.reset();
    m_stop = false;
    m_stats = {};
    m_ctx = std::make_unique<WriterContext>();
    WriterContext &ctx = *m_ctx;
    if (auto s =
            ctx.db.open(path, options.readOnly ? SqliteDb::Mode::ReadOnly : SqliteDb::Mode::ReadWriteCreate,
                        options.busyTimeoutMs);
        !s)
        return s;
    if (!options.readOnly) {
        if (auto s = Schema::configureWriter(ctx.db); !s)
            return s;
        if (auto s = Schema::migrate(ctx.db); !s)
            return s;
        if (options.recoverCrashed) {
            if (auto r = HistoryMaintenance::recoverCrashedRuns(ctx.db); !r)
                return r.error();
        }
    } else {
        auto v = Schema::version(ctx.db);
        if (!v)
            return v.error();
        if (*v != Schema::kVersion)
            return makeError(ErrorCode::Storage, "read-only database " + path + " has schema version " +
                                                     std::to_string(*v) + " and cannot be migrated");
    }
    if (options.maxPageCount > 0) {
        if (auto s = ctx.db.exec("PRAGMA max_page_count=" + std::to_string(options.maxPageCount)); !s)
            return s;
    }
    if (auto s = ctx.prepareStatements(options.readOnly); !s)
        return s;
    if (!options.readOnly) {
        // WAL checkpoints off the writer thread. If the second connection cannot be opened the writer keeps
        // SQLite's automatic checkpoints (correct, only slower), so this is not an error.
        auto checkpointer = std::make_unique<WalCheckpointer>();
        if (checkpointer->start(ctx.db, path, options.busyTimeoutMs))
            m_checkpointer = std::move(checkpointer);
    }
    m_thread = std::thread([this] { threadMain(); });
    return Ok{};
}

Status StorageWriter::close()
{
    if (!m_thread.joinable())
        return m_error ? Status(*m_error) : Status(Ok{});
    Status flushed = flush();
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
    if (m_checkpointer) {
        m_checkpointer->stop();
        std::lock_guard lock(m_mutex);
        m_stats.checkpointCpuNs = m_checkpointer->cpuNs();
        m_checkpointer.reset();
    }
    m_ctx.reset();
    return flushed;
}

void StorageWriter::enqueue(Job job, std::size_t requests)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_error || m_stop)
            return; // stopped after an error: the caller learns it from lastError()/flush()
        if (m_grouping) {
            m_group.push_back(std::move(job));
            m_groupRequests += requests;
            return;
        }
        m_queue.push_back(std::move(job));
        ++m_enqueuedJobs;
        m_queuedRequests += requests;
        m_stats.requestsEnqueued += requests;
        m_stats.queueHighWater = std::max(m_stats.queueHighWater, m_queuedRequests);
    }
    m_wake.notify_one();
}

void StorageWriter::beginGroup()
{
    std::lock_guard lock(m_mutex);
    m_grouping = true;
    m_group.clear();
    m_groupRequests = 0;
}

void StorageWriter::endGroup()
{
    std::vector<Job> jobs;
    std::size_t requests = 0;
    {
        std::lock_guard lock(m_mutex);
        m_grouping = false;
        jobs.swap(m_group);
        requests = std::exchange(m_groupRequests, 0);
    }
    enqueue(
        [jobs = std::move(jobs)](WriterContext &ctx) -> Status {
            for (const Job &job : jobs) {
                if (auto s = job(ctx); !s)
                    return s;
            }
            return Ok{};
        },
        requests);
}

Status StorageWriter::flush()
{
    std::unique_lock lock(m_mutex);
    const std::uint64_t target = m_enqueuedJobs;
    m_committed.wait(lock,
                     [&] { return m_doneJobs >= target || m_error.has_value() || !m_thread.joinable(); });
    if (m_error)
        return *m_error;
    return Ok{};
}

std::optional<Error> StorageWriter::lastError() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

StorageWriter::Stats StorageWriter::stats() const
{
    std::lock_guard lock(m_mutex);
    Stats s = m_stats;
    s.queueDepth = m_queuedRequests;
    if (m_checkpointer)
        s.checkpointCpuNs = m_checkpointer->cpuNs();
    return s;
}

namespace {

// A heartbeat in its own transaction; best effort like the one inside batches.
void idleHeartbeat(WriterContext &ctx)
{
    if (ctx.runIds.empty() || !ctx.db.exec("BEGIN IMMEDIATE"))
        return;
    RunRowWriter::heartbeat(ctx);
    if (!ctx.db.exec("COMMIT"))
        (void)ctx.db.exec("ROLLBACK");
}

} // namespace

namespace {
// After a batch of requests is committed: the connection's page cache (up to cache_size, 64 MiB, so it grew
// with the history file over a long run) lets go of its pages, and the records' copies freed by the batch go
// back to the system. The next point's transaction reads the few B-tree pages it needs from the OS cache
// again; a whole run's history stops being held in the writer's memory (issue 23: RSS flat).
void releaseCacheAndRecords(WriterContext &ctx)
{
    sqlite3_db_release_memory(ctx.db.handle());
    returnFreedMemory();
}
} // namespace

void StorageWriter::threadMain()
{
    pthread_setname_np(pthread_self(), "tl-writer"); // tells it apart in top/perf
    WriterContext &ctx = *m_ctx;
    std::vector<Job> batch;
    for (;;) {
        std::size_t batchRequests = 0;
        {
            std::unique_lock lock(m_mutex);
            // Idle for 2 s (a long point between record batches): renew the lease anyway, so readers that
            // rely on it (another host, another pid namespace) do not take a live run for a crashed one.
            if (!m_wake.wait_for(lock, std::chrono::seconds(2), [&] { return m_stop || !m_queue.empty(); })) {
                lock.unlock();
                idleHeartbeat(ctx);
                continue;
            }
            if (m_queue.empty() && m_stop)
                return;
            batch.swap(m_queue);
            batchRequests = m_queuedRequests;
            m_queuedRequests = 0;
        }
        timespec cpu0{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
        Status s = ctx.db.exec("BEGIN IMMEDIATE");
        ctx.beginTransaction();
        std::size_t done = 0;
        for (; s && done < batch.size(); ++done)
            s = batch[done](ctx);
        if (s)
            s = ctx.flushMetricChunks();
        if (s) {
            RunRowWriter::heartbeat(ctx);
            s = ctx.db.exec("COMMIT");
        }
        if (!s) {
            (void)ctx.db.exec("ROLLBACK");
            ctx.forgetIds(); // cached ids may point at rows that were rolled back
        }
        batch.clear(); // frees the records here, inside the measured CPU time
        timespec cpu1{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
        const std::int64_t cpuNs =
            (cpu1.tv_sec - cpu0.tv_sec) * 1'000'000'000LL + (cpu1.tv_nsec - cpu0.tv_nsec);
        {
            std::lock_guard lock(m_mutex);
            m_stats.writerCpuNs += cpuNs;
            m_doneJobs += done;
            if (s) {
                m_stats.requestsWritten += batchRequests;
                ++m_stats.transactions;
            } else {
                m_error =
                    makeError(ErrorCode::Storage,
                              "history database " + m_path +
                                  ": writing stopped, the last batch was rolled back: " + s.error().message);
                m_queue.clear();
                m_queuedRequests = 0;
                m_doneJobs = m_enqueuedJobs;
            }
        }
        batch.clear();
        if (s && batchRequests > 0)
            releaseCacheAndRecords(ctx);
        m_committed.notify_all();
        if (!s) {
            // Clean stop: keep the thread parked until close() so flush()/close() behave normally.
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop; });
            return;
        }
    }
}

// ---- jobs: each runs one *RowWriter call on the writer thread ----

void StorageWriter::beginRun(RunStart run)
{
    enqueue([run = std::move(run)](WriterContext &ctx) { return RunRowWriter::begin(ctx, run); }, 0);
}

void StorageWriter::reopenRun(const std::string &runUuid)
{
    enqueue([runUuid](WriterContext &ctx) { return RunRowWriter::reopen(ctx, runUuid); }, 0);
}

void StorageWriter::beginPoint(const std::string &runUuid, int scenarioIndex, int pointIndex,
                               nlohmann::json config, std::int64_t startedUnixNs)
{
    enqueue(
        [=, config = std::move(config)](WriterContext &ctx) {
            return PointRowWriter::begin(ctx, runUuid, scenarioIndex, pointIndex, config, startedUnixNs);
        },
        0);
}

void StorageWriter::resetPoint(const std::string &runUuid, int scenarioIndex, int pointIndex)
{
    enqueue(
        [=](WriterContext &ctx) { return PointRowWriter::reset(ctx, runUuid, scenarioIndex, pointIndex); },
        0);
}

void StorageWriter::addRequests(const std::string &runUuid, std::vector<RequestRecord> records)
{
    const std::size_t n = records.size();
    enqueue([runUuid, records = std::move(records)](
                WriterContext &ctx) { return RequestRowWriter::insertAll(ctx, runUuid, records); },
            n);
}

void StorageWriter::finishPoint(const std::string &runUuid, FinishedPoint result)
{
    enqueue([runUuid, result = std::move(result)](
                WriterContext &ctx) { return PointRowWriter::finish(ctx, runUuid, result); },
            0);
}

void StorageWriter::setScenarioVerdict(const std::string &runUuid, int scenarioIndex, nlohmann::json verdict)
{
    enqueue(
        [=, verdict = std::move(verdict)](WriterContext &ctx) {
            return RunRowWriter::setScenarioVerdict(ctx, runUuid, scenarioIndex, verdict);
        },
        0);
}

void StorageWriter::setScenarioColdStart(const std::string &runUuid, int scenarioIndex,
                                         nlohmann::json coldStart)
{
    if (!coldStart.is_object())
        return;
    enqueue(
        [=, coldStart = std::move(coldStart)](WriterContext &ctx) {
            return RunRowWriter::setScenarioColdStart(ctx, runUuid, scenarioIndex, coldStart);
        },
        0);
}

void StorageWriter::enqueueTelemetry(const std::string &runUuid, int scenarioIndex,
                                     TelemetrySnapshot snapshot, bool replace)
{
    std::size_t samples = 0;
    for (const TelemetrySeries &t : snapshot.series)
        samples += t.samples.size();
    const auto mode = replace ? TelemetryRowWriter::Mode::Replace : TelemetryRowWriter::Mode::Add;
    enqueue(
        [=, snapshot = std::move(snapshot)](WriterContext &ctx) {
            return TelemetryRowWriter::store(ctx, runUuid, scenarioIndex, snapshot, mode);
        },
        samples / 64); // weight in the queue figures: one "request" per 64 samples
}

void StorageWriter::addTelemetry(const std::string &runUuid, int scenarioIndex, TelemetrySnapshot snapshot)
{
    enqueueTelemetry(runUuid, scenarioIndex, std::move(snapshot), false);
}

void StorageWriter::storeTelemetry(const std::string &runUuid, int scenarioIndex, TelemetrySnapshot snapshot)
{
    enqueueTelemetry(runUuid, scenarioIndex, std::move(snapshot), true);
}

void StorageWriter::setPointTelemetry(const std::string &runUuid, int scenarioIndex, int pointIndex,
                                      nlohmann::json summary)
{
    if (!summary.is_object() || summary.empty())
        return;
    enqueue(
        [=, summary = std::move(summary)](WriterContext &ctx) {
            return TelemetryRowWriter::setPointSummary(ctx, runUuid, scenarioIndex, pointIndex, summary);
        },
        0);
}

void StorageWriter::setRequestBreakdowns(const std::string &runUuid, int scenarioIndex, int pointIndex,
                                         std::vector<RequestBreakdown> breakdowns)
{
    if (breakdowns.empty())
        return;
    const std::size_t n = breakdowns.size();
    enqueue(
        [=, breakdowns = std::move(breakdowns)](WriterContext &ctx) {
            return BreakdownRowWriter::store(ctx, runUuid, scenarioIndex, pointIndex, breakdowns);
        },
        n / 4); // weight in the queue figures: a breakdown row is about a quarter of a request's
}

void StorageWriter::finishRun(const std::string &runUuid, RunStatus status)
{
    enqueue([=](WriterContext &ctx) { return RunRowWriter::finish(ctx, runUuid, status); }, 0);
}

void StorageWriter::updateRun(const std::string &runUuid, nlohmann::json provenance, bool simulated,
                              double timeScale, std::int64_t t0UnixNs)
{
    enqueue(
        [=, provenance = std::move(provenance)](WriterContext &ctx) {
            return RunRowWriter::update(ctx, runUuid, provenance, simulated, timeScale, t0UnixNs);
        },
        0);
}

void StorageWriter::checkpoint()
{
    enqueue(
        [](WriterContext &ctx) -> Status {
            // A checkpoint cannot run inside a transaction: commit, checkpoint, reopen the batch transaction.
            if (auto s = ctx.flushMetricChunks(); !s)
                return s;
            if (auto s = ctx.db.exec("COMMIT"); !s)
                return s;
            auto s = ctx.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
            if (auto b = ctx.db.exec("BEGIN IMMEDIATE"); !b)
                return b;
            ctx.beginTransaction();
            return s;
        },
        0);
}

} // namespace Throughline
