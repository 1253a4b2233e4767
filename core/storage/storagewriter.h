#pragma once
// The single writer of the history database.
//
// Thread affinity: public methods may be called from any thread (engine workers, controller). All SQLite work
// happens on the writer's own std::thread with its own connection: jobs are queued (a mutex held only for a
// vector push — never across disk I/O, so the engine never waits on the disk) and the thread drains the queue
// inside one transaction per batch. A plain std::thread rather than a QThread because the writer needs no
// event loop and is used headless by the CLI and by test child processes. This class owns the queue and the
// thread; the SQL of each job is in RunRowWriter, PointRowWriter, RequestRowWriter, TelemetryRowWriter and
// BreakdownRowWriter,
// run against the thread's WriterContext (connection, prepared statements, row-id caches).
//
// After the first SQLite error (read-only file, disk full, ...) the open transaction is rolled back, the
// writer stops accepting work and lastError()/flush() report the error; everything committed before stays
// intact.

#include "core/servertiming/requestbreakdown.h"
#include "core/storage/storagetypes.h"
#include "core/telemetry/telemetrysnapshot.h"
#include "core/util/result.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace Throughline {

class SqliteDb;
struct WriterContext;
class WalCheckpointer;

class StorageWriter
{
public:
    struct Options {
        bool readOnly = false; // open with SQLITE_OPEN_READONLY (tests: permission bits do not stop root)
        std::int64_t maxPageCount = 0; // > 0: PRAGMA max_page_count (tests: simulate a full disk)
        int busyTimeoutMs = 10000;
        bool recoverCrashed = true; // mark 'running' runs whose writer process is gone as 'crashed'
    };

    struct Stats {
        std::uint64_t requestsEnqueued = 0;
        std::uint64_t requestsWritten = 0;
        std::uint64_t transactions = 0;
        std::size_t queueDepth = 0;       // requests waiting now
        std::size_t queueHighWater = 0;   // most requests ever waiting (reported in run summaries)
        std::int64_t writerCpuNs = 0;     // CPU time the writer thread spent on batches (capacity figures)
        std::int64_t checkpointCpuNs = 0; // CPU time of the background WAL checkpoints (walcheckpointer.h)
    };

    StorageWriter();
    ~StorageWriter(); // flushes and joins
    StorageWriter(const StorageWriter &) = delete;
    StorageWriter &operator=(const StorageWriter &) = delete;

    // Opens (creating and migrating if needed) and starts the writer thread. Blocking; call before a run.
    Status open(const std::string &path, const Options &options);
    Status open(const std::string &path) { return open(path, Options{}); }
    // Flushes, stops the thread and closes the connection.
    Status close();
    bool isOpen() const { return m_thread.joinable(); }
    const std::string &path() const { return m_path; }

    // ---- Non-blocking enqueue (any thread). Order of calls is the order of execution. ----
    void beginRun(RunStart run);
    // Resume: a crashed/cancelled run becomes 'running' again under this writer (an error at flush() when the
    // run is missing or in any other state, e.g. resumed meanwhile by another process).
    void reopenRun(const std::string &runUuid);
    void beginPoint(const std::string &runUuid, int scenarioIndex, int pointIndex, nlohmann::json config,
                    std::int64_t startedUnixNs = kNoTime);
    // Resume: drop the partial requests of an unfinished point and mark it pending.
    void resetPoint(const std::string &runUuid, int scenarioIndex, int pointIndex);
    void addRequests(const std::string &runUuid, std::vector<RequestRecord> records);
    void finishPoint(const std::string &runUuid, FinishedPoint result);
    void setScenarioVerdict(const std::string &runUuid, int scenarioIndex, nlohmann::json verdict);
    // Cold start of a scenario (ScenarioOutcome::coldStart, issue 9): stored as "cold_start" inside the
    // scenario's config JSON (no column of its own). Null = nothing to store.
    void setScenarioColdStart(const std::string &runUuid, int scenarioIndex, nlohmann::json coldStart);
    // Server telemetry scraped during one scenario (run clock): every series (samples as a blob) and every
    // scrape target's outcome. Histogram snapshots are not stored (per-point quantiles are in the summaries).
    void addTelemetry(const std::string &runUuid, int scenarioIndex, TelemetrySnapshot snapshot);
    // Live recording: the scenario's telemetry so far. The first call adds its rows like addTelemetry; later
    // calls for the same scenario (from this writer) overwrite the series and source rows they wrote, so
    // storing after every point keeps the database complete up to the last committed point.
    void storeTelemetry(const std::string &runUuid, int scenarioIndex, TelemetrySnapshot snapshot);
    // Per-point telemetry summary (the results.json point "telemetry" object plus stall/replica detail);
    // replaces an earlier one. A null or empty summary is ignored.
    void setPointTelemetry(const std::string &runUuid, int scenarioIndex, int pointIndex,
                           nlohmann::json summary);
    // Each request's server-timing breakdown (PointOutcome::breakdowns, seq order), stored in
    // request_breakdowns (breakdownrowwriter.h); replaces the point's earlier ones. Empty = nothing to store.
    void setRequestBreakdowns(const std::string &runUuid, int scenarioIndex, int pointIndex,
                              std::vector<RequestBreakdown> breakdowns);
    void finishRun(const std::string &runUuid, RunStatus status);
    // Live recording (the run row is written before the run starts): facts known only at its end replace
    // those given to beginRun. `provenance` keys replace stored ones; stored keys absent from it are kept.
    // t0UnixNs/startedUtc are left as stored when t0UnixNs is 0.
    void updateRun(const std::string &runUuid, nlohmann::json provenance, bool simulated, double timeScale,
                   std::int64_t t0UnixNs);
    // Forces a WAL checkpoint (TRUNCATE) at this position in the queue.
    void checkpoint();

    // Groups: every job enqueued between beginGroup() and endGroup() runs as one job, hence in one
    // transaction (imports: a file is stored whole or not at all). For a single producer thread; groups do
    // not nest.
    void beginGroup();
    void endGroup();

    // Blocks until everything enqueued so far is committed; returns the writer's error if it failed.
    Status flush();
    std::optional<Error> lastError() const;
    Stats stats() const;

    // Writer identity stored in runs.writer_* for crash detection (this process).
    static std::string hostName();
    static std::int64_t processStartTicks(std::int64_t pid);

private:
    using Job = std::function<Status(WriterContext &)>;
    void enqueue(Job job, std::size_t requests);
    void enqueueTelemetry(const std::string &runUuid, int scenarioIndex, TelemetrySnapshot snapshot,
                          bool replace);
    void threadMain();

    std::string m_path;
    Options m_options;
    std::thread m_thread;
    std::unique_ptr<WriterContext> m_ctx;
    std::unique_ptr<WalCheckpointer> m_checkpointer; // read-write only; stopped before m_ctx's connection

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;      // writer waits for jobs
    std::condition_variable m_committed; // flush() waits for commits
    std::vector<Job> m_queue;
    std::size_t m_queuedRequests = 0;
    std::uint64_t m_enqueuedJobs = 0;
    std::uint64_t m_doneJobs = 0;
    bool m_stop = false;
    bool m_grouping = false;
    std::vector<Job> m_group;
    std::size_t m_groupRequests = 0;
    std::optional<Error> m_error;
    Stats m_stats;
};

} // namespace Throughline
