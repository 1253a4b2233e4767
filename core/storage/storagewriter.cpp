#include "core/storage/storagewriter.h"

#include "core/storage/eventcodec.h"
#include "core/storage/historymaintenance.h"
#include "core/storage/pointcolumns.h"
#include "core/storage/schema.h"
#include "core/storage/sqlitedb.h"
#include "core/util/version.h"

#include <QCryptographicHash>
#include <QDateTime>

#include <zlib.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>
#include <utility>

namespace Throughline {

std::string toString(RunStatus s)
{
    switch (s) {
    case RunStatus::Running:
        return "running";
    case RunStatus::Completed:
        return "completed";
    case RunStatus::Cancelled:
        return "cancelled";
    case RunStatus::Crashed:
        return "crashed";
    }
    return "crashed";
}

// Everything the writer thread owns. Only touched on the writer thread (and in open() before it starts).
struct WriterContext {
    SqliteDb db;
    SqliteStmt insertRequest, insertEvents, insertText, insertError, findPoint, insertPoint;
    std::map<std::string, std::int64_t> runIds;
    std::map<std::string, bool> storeText;
    std::map<std::pair<std::int64_t, int>, std::int64_t> scenarioIds;
    std::map<std::tuple<std::int64_t, int, int>, std::int64_t> pointIds;
    std::string buffer;
    std::chrono::steady_clock::time_point lastHeartbeat{};

    Result<std::int64_t> runId(const std::string &uuid)
    {
        if (auto it = runIds.find(uuid); it != runIds.end())
            return it->second;
        auto st = db.prepare("SELECT id, store_text FROM runs WHERE uuid = ?");
        if (!st)
            return st.error();
        st->bind(1, uuid);
        if (st->step() != 100 /*SQLITE_ROW*/)
            return makeError(ErrorCode::NotFound, "run " + uuid + " is not in " + db.path());
        runIds[uuid] = st->colInt(0);
        storeText[uuid] = st->colInt(1) != 0;
        return st->colInt(0);
    }

    Result<std::int64_t> scenarioId(std::int64_t run, int index)
    {
        const auto key = std::make_pair(run, index);
        if (auto it = scenarioIds.find(key); it != scenarioIds.end())
            return it->second;
        auto st = db.prepare("SELECT id FROM scenarios WHERE run_id = ? AND idx = ?");
        if (!st)
            return st.error();
        st->bind(1, run).bind(2, index);
        if (st->step() == 100) {
            scenarioIds[key] = st->colInt(0);
            return st->colInt(0);
        }
        // Not declared in beginRun: keep the data under a placeholder scenario rather than dropping it.
        auto ins = db.prepare("INSERT INTO scenarios(run_id, idx, scenario_key) VALUES(?, ?, ?)");
        if (!ins)
            return ins.error();
        if (!ins->bind(1, run).bind(2, index).bind(3, "scenario-" + std::to_string(index)).run())
            return db.lastError("insert scenario");
        scenarioIds[key] = db.lastInsertId();
        return db.lastInsertId();
    }

    Result<std::int64_t> pointId(std::int64_t run, int scenarioIndex, int pointIndex)
    {
        const auto key = std::make_tuple(run, scenarioIndex, pointIndex);
        if (auto it = pointIds.find(key); it != pointIds.end())
            return it->second;
        auto sid = scenarioId(run, scenarioIndex);
        if (!sid)
            return sid.error();
        findPoint.reset();
        findPoint.bind(1, *sid).bind(2, pointIndex);
        if (findPoint.step() == 100) {
            const std::int64_t id = findPoint.colInt(0);
            findPoint.reset();
            pointIds[key] = id;
            return id;
        }
        findPoint.reset();
        insertPoint.bind(1, *sid).bind(2, run).bind(3, pointIndex).bind(4, "running").bind(5, "{}");
        if (!insertPoint.run())
            return db.lastError("insert point");
        insertPoint.reset();
        pointIds[key] = db.lastInsertId();
        return db.lastInsertId();
    }
};

namespace {

std::string utcIso(std::int64_t unixNs)
{
    return QDateTime::fromMSecsSinceEpoch(unixNs / 1000000, Qt::UTC)
        .toString(Qt::ISODateWithMs)
        .toStdString();
}

std::string nowUtc()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
}

std::int64_t firstContent(const RequestRecord &r, std::int64_t &last, int &count)
{
    std::int64_t first = kNoTime;
    last = kNoTime;
    count = 0;
    for (const StreamEvent &e : r.events) {
        if (e.kind != StreamEvent::Kind::Content)
            continue;
        if (first == kNoTime)
            first = e.tNs;
        last = e.tNs;
        ++count;
    }
    return first;
}

Status insertRequest(WriterContext &ctx, std::int64_t pointId, bool storeText, const RequestRecord &r)
{
    std::int64_t tLast = kNoTime;
    int nContent = 0;
    const std::int64_t tFirst = firstContent(r, tLast, nContent);
    const std::int64_t ttftUs = (tFirst != kNoTime && r.tSend != kNoTime) ? (tFirst - r.tSend) / 1000 : -1;
    const std::int64_t e2eUs = (r.tEnd != kNoTime && r.tSend != kNoTime) ? (r.tEnd - r.tSend) / 1000 : -1;
    std::int64_t tpotUs = -1;
    if (tFirst != kNoTime && r.nOut >= 0 && r.nOut - r.nFirst >= 1)
        tpotUs = (tLast - tFirst) / 1000 / (r.nOut - r.nFirst);

    SqliteStmt &s = ctx.insertRequest;
    s.bind(1, pointId)
        .bind(2, static_cast<std::int64_t>(r.seq))
        .bind(3, (r.warmup ? 1 : 0) | (r.nFirstApproximate ? 2 : 0))
        .bind(4, r.replica)
        .bind(5, r.intendedIsl)
        .bind(6, r.intendedOsl)
        .bindOrNull(7, r.tSched, kNoTime)
        .bindOrNull(8, r.tSend, kNoTime)
        .bindOrNull(9, r.tWire, kNoTime)
        .bindOrNull(10, r.tFirstByte, kNoTime)
        .bindOrNull(11, tFirst, kNoTime)
        .bindOrNull(12, tLast, kNoTime)
        .bindOrNull(13, r.tEnd, kNoTime)
        .bindOrNull(14, r.curl.connectNs, kNoTime)
        .bindOrNull(15, r.curl.appConnectNs, kNoTime)
        .bindOrNull(16, r.curl.preTransferNs, kNoTime)
        .bindOrNull(17, r.curl.startTransferNs, kNoTime)
        .bindOrNull(18, ttftUs, -1)
        .bindOrNull(19, tpotUs, -1)
        .bindOrNull(20, e2eUs, -1)
        .bindOrNull(21, r.usage.promptTokens, -1)
        .bindOrNull(22, r.usage.completionTokens, -1)
        .bindOrNull(23, r.usage.cachedTokens, -1)
        .bindOrNull(24, r.usage.reasoningTokens, -1)
        .bindOrNull(25, r.nOut, -1)
        .bind(26, static_cast<int>(r.nOutSource))
        .bind(27, r.nFirst)
        .bind(28, nContent)
        .bind(29, static_cast<int>(r.error))
        .bind(30, r.httpStatus);
    if (!s.run())
        return ctx.db.lastError("insert request");
    const std::int64_t rid = ctx.db.lastInsertId();
    if (!r.events.empty()) {
        EventCodec::encode(r.events, r.tSend, ctx.buffer);
        ctx.insertEvents.bind(1, rid).bindBlob(2, ctx.buffer.data(), static_cast<int>(ctx.buffer.size()));
        if (!ctx.insertEvents.run())
            return ctx.db.lastError("insert request events");
    }
    if (storeText && !r.text.empty()) {
        uLongf len = compressBound(static_cast<uLong>(r.text.size()));
        ctx.buffer.resize(len);
        if (compress2(reinterpret_cast<Bytef *>(ctx.buffer.data()), &len,
                      reinterpret_cast<const Bytef *>(r.text.data()), static_cast<uLong>(r.text.size()),
                      6) == Z_OK) {
            ctx.insertText.bind(1, rid)
                .bind(2, static_cast<std::int64_t>(r.text.size()))
                .bindBlob(3, ctx.buffer.data(), static_cast<int>(len));
            if (!ctx.insertText.run())
                return ctx.db.lastError("insert request text");
        }
    }
    if (!r.errorDetail.empty()) {
        ctx.insertError.bind(1, rid).bind(2, r.errorDetail);
        if (!ctx.insertError.run())
            return ctx.db.lastError("insert request error");
    }
    return Ok{};
}

Status runSql(WriterContext &ctx, const char *what, SqliteStmt &st)
{
    if (!st.run())
        return ctx.db.lastError(what);
    return Ok{};
}

} // namespace

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
    auto prep = [&](SqliteStmt &into, const char *sql) -> Status {
        auto st = ctx.db.prepare(sql);
        if (!st)
            return st.error();
        into = std::move(*st);
        return Ok{};
    };
    for (auto [stmt, sql] : std::initializer_list<std::pair<SqliteStmt *, const char *>>{
             {&ctx.insertRequest,
              "INSERT INTO requests(point_id, seq, flags, replica, isl, osl, t_sched_ns, t_send_ns, "
              "t_wire_ns, "
              "t_first_byte_ns, t_first_token_ns, t_last_token_ns, t_end_ns, connect_ns, appconnect_ns, "
              "pretransfer_ns, starttransfer_ns, ttft_us, tpot_us, e2e_us, prompt_tokens, completion_tokens, "
              "cached_tokens, reasoning_tokens, n_out, n_out_source, n_first, n_content, error_class, "
              "http_status) "
              "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"},
             {&ctx.insertEvents, "INSERT INTO request_events(request_id, blob) VALUES(?, ?)"},
             {&ctx.insertText, "INSERT INTO request_text(request_id, raw_len, zlib) VALUES(?, ?, ?)"},
             {&ctx.insertError, "INSERT INTO request_errors(request_id, detail) VALUES(?, ?)"},
             {&ctx.findPoint, "SELECT id FROM points WHERE scenario_id = ? AND idx = ?"},
             {&ctx.insertPoint,
              "INSERT INTO points(scenario_id, run_id, idx, status, config) VALUES(?, ?, ?, ?, ?)"}}) {
        if (auto s = prep(*stmt, sql); !s) {
            if (!options.readOnly)
                return s;
            // A read-only connection may still prepare INSERTs; failures surface at the first write.
        }
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
    return s;
}

void StorageWriter::threadMain()
{
    WriterContext &ctx = *m_ctx;
    std::vector<Job> batch;
    for (;;) {
        std::size_t batchRequests = 0;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || !m_queue.empty(); });
            if (m_queue.empty() && m_stop)
                return;
            batch.swap(m_queue);
            batchRequests = m_queuedRequests;
            m_queuedRequests = 0;
        }
        timespec cpu0{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
        Status s = ctx.db.exec("BEGIN IMMEDIATE");
        std::size_t done = 0;
        for (; s && done < batch.size(); ++done)
            s = batch[done](ctx);
        if (s) {
            // Heartbeat at most every 2 s: lets another host tell a live remote writer from a dead one.
            const auto now = std::chrono::steady_clock::now();
            if (now - ctx.lastHeartbeat > std::chrono::seconds(2)) {
                ctx.lastHeartbeat = now;
                auto hb = ctx.db.prepare("UPDATE runs SET heartbeat_utc = ? WHERE status = 'running' AND "
                                         "writer_pid = ? AND writer_host = ?");
                if (hb)
                    hb->bind(1, nowUtc())
                        .bind(2, static_cast<std::int64_t>(getpid()))
                        .bind(3, hostName())
                        .run();
            }
            s = ctx.db.exec("COMMIT");
        }
        if (!s) {
            (void)ctx.db.exec("ROLLBACK");
            // Cached ids may point at rows that were rolled back.
            ctx.runIds.clear();
            ctx.scenarioIds.clear();
            ctx.pointIds.clear();
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
        m_committed.notify_all();
        if (!s) {
            // Clean stop: keep the thread parked until close() so flush()/close() behave normally.
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop; });
            return;
        }
    }
}

// ---- jobs ----

void StorageWriter::beginRun(RunStart run)
{
    enqueue(
        [run = std::move(run)](WriterContext &ctx) -> Status {
            const QByteArray sha = QCryptographicHash::hash(QByteArray::fromStdString(run.campaignJson),
                                                            QCryptographicHash::Sha256)
                                       .toHex();
            auto c = ctx.db.prepare("INSERT INTO campaigns(sha256, name, json) VALUES(?, ?, ?) "
                                    "ON CONFLICT(sha256) DO NOTHING");
            if (!c)
                return c.error();
            c->bind(1, sha.toStdString()).bind(2, run.campaignName).bind(3, run.campaignJson);
            if (auto s = runSql(ctx, "insert campaign", *c); !s)
                return s;
            auto cid = ctx.db.prepare("SELECT id FROM campaigns WHERE sha256 = ?");
            if (!cid)
                return cid.error();
            cid->bind(1, sha.toStdString());
            cid->step();
            const std::int64_t campaignId = cid->colInt(0);

            auto r = ctx.db.prepare(
                "INSERT INTO runs(uuid, campaign_id, plan_id, status, started_utc, t0_unix_ns, simulated, "
                "time_scale, tool_version, provenance, notes, store_text, source, shard, writer_host, "
                "writer_pid, writer_start, heartbeat_utc) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
            if (!r)
                return r.error();
            const auto pid = static_cast<std::int64_t>(getpid());
            r->bind(1, run.uuid)
                .bind(2, campaignId)
                .bind(3, run.planId)
                .bind(4, "running")
                .bind(5, utcIso(run.t0UnixNs))
                .bind(6, run.t0UnixNs)
                .bind(7, run.simulated ? 1 : 0)
                .bind(8, run.timeScale)
                .bind(9, toolVersion())
                .bind(10, run.provenance.dump())
                .bind(11, run.notes)
                .bind(12, run.storeText ? 1 : 0)
                .bind(13, run.source)
                .bind(14, run.shard)
                .bind(15, hostName())
                .bind(16, pid)
                .bind(17, processStartTicks(pid))
                .bind(18, nowUtc());
            if (auto s = runSql(ctx, "insert run", *r); !s)
                return s;
            const std::int64_t runId = ctx.db.lastInsertId();
            ctx.runIds[run.uuid] = runId;
            ctx.storeText[run.uuid] = run.storeText;
            auto t = ctx.db.prepare("INSERT OR IGNORE INTO run_tags(run_id, tag) VALUES(?, ?)");
            if (!t)
                return t.error();
            for (const std::string &tag : run.tags) {
                t->bind(1, runId).bind(2, tag);
                if (auto s = runSql(ctx, "insert tag", *t); !s)
                    return s;
            }
            auto sc = ctx.db.prepare(
                "INSERT INTO scenarios(run_id, idx, scenario_key, model, backend, gpu, gpus, prefill_gpus, "
                "decode_gpus, phase, isl, osl, config) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)");
            if (!sc)
                return sc.error();
            for (const ScenarioInfo &s : run.scenarios) {
                sc->bind(1, runId)
                    .bind(2, s.index)
                    .bind(3, s.key)
                    .bind(4, s.model)
                    .bind(5, s.backend)
                    .bind(6, s.gpu)
                    .bind(7, s.gpus)
                    .bind(8, s.prefillGpus)
                    .bind(9, s.decodeGpus)
                    .bind(10, s.phase)
                    .bind(11, s.isl)
                    .bind(12, s.osl)
                    .bind(13, s.config.dump());
                if (auto st = runSql(ctx, "insert scenario", *sc); !st)
                    return st;
                const std::int64_t sid = ctx.db.lastInsertId();
                ctx.scenarioIds[{runId, s.index}] = sid;
                for (std::size_t i = 0; i < s.plannedPoints.size(); ++i) {
                    ctx.insertPoint.bind(1, sid)
                        .bind(2, runId)
                        .bind(3, static_cast<int>(i))
                        .bind(4, "pending")
                        .bind(5, s.plannedPoints[i].dump());
                    if (auto st = runSql(ctx, "insert planned point", ctx.insertPoint); !st)
                        return st;
                    ctx.pointIds[{runId, s.index, static_cast<int>(i)}] = ctx.db.lastInsertId();
                }
            }
            auto tg = ctx.db.prepare("INSERT INTO targets_used(run_id, name, json) VALUES(?, ?, ?)");
            if (!tg)
                return tg.error();
            for (const nlohmann::json &target : run.targets) {
                tg->bind(1, runId).bind(2, target.value("name", std::string())).bind(3, target.dump());
                if (auto st = runSql(ctx, "insert target", *tg); !st)
                    return st;
            }
            return Ok{};
        },
        0);
}

void StorageWriter::reopenRun(const std::string &runUuid)
{
    enqueue(
        [runUuid](WriterContext &ctx) -> Status {
            auto st =
                ctx.db.prepare("UPDATE runs SET status = 'running', finished_utc = NULL, writer_host = ?, "
                               "writer_pid = ?, writer_start = ?, heartbeat_utc = ? WHERE uuid = ? AND "
                               "status IN ('crashed', 'cancelled')");
            if (!st)
                return st.error();
            const auto pid = static_cast<std::int64_t>(getpid());
            st->bind(1, hostName())
                .bind(2, pid)
                .bind(3, processStartTicks(pid))
                .bind(4, nowUtc())
                .bind(5, runUuid);
            if (auto s = runSql(ctx, "reopen run", *st); !s)
                return s;
            if (ctx.db.changes() == 0)
                return makeError(ErrorCode::NotFound, "cannot resume: run " + runUuid + " is not in " +
                                                          ctx.db.path() + " as a crashed or cancelled run");
            return Ok{};
        },
        0);
}

void StorageWriter::beginPoint(const std::string &runUuid, int scenarioIndex, int pointIndex,
                               nlohmann::json config, std::int64_t startedUnixNs)
{
    enqueue(
        [=, config = std::move(config)](WriterContext &ctx) -> Status {
            auto run = ctx.runId(runUuid);
            if (!run)
                return run.error();
            auto pid = ctx.pointId(*run, scenarioIndex, pointIndex);
            if (!pid)
                return pid.error();
            auto st = ctx.db.prepare("UPDATE points SET status = 'running', config = CASE WHEN ? = 'null' "
                                     "THEN config ELSE ? END, started_unix_ns = ? WHERE id = ?");
            if (!st)
                return st.error();
            const std::string c = config.dump();
            st->bind(1, c).bind(2, c).bindOrNull(3, startedUnixNs, kNoTime).bind(4, *pid);
            return runSql(ctx, "begin point", *st);
        },
        0);
}

void StorageWriter::resetPoint(const std::string &runUuid, int scenarioIndex, int pointIndex)
{
    enqueue(
        [=](WriterContext &ctx) -> Status {
            auto run = ctx.runId(runUuid);
            if (!run)
                return run.error();
            auto pid = ctx.pointId(*run, scenarioIndex, pointIndex);
            if (!pid)
                return pid.error();
            const std::string id = std::to_string(*pid);
            const std::string sub = "(SELECT id FROM requests WHERE point_id = " + id + ")";
            return ctx.db.exec(
                "DELETE FROM request_events WHERE request_id IN " + sub +
                ";"
                "DELETE FROM request_text WHERE request_id IN " +
                sub +
                ";"
                "DELETE FROM request_errors WHERE request_id IN " +
                sub +
                ";"
                "DELETE FROM requests WHERE point_id = " +
                id +
                ";"
                "UPDATE points SET status = 'pending', aggregates = NULL, output_tps_per_gpu = NULL, "
                "ttft_ms_p90 = NULL, tpot_ms_p90 = NULL, valid = NULL, flags = NULL, verdict = NULL "
                "WHERE id = " +
                id);
        },
        0);
}

void StorageWriter::addRequests(const std::string &runUuid, std::vector<RequestRecord> records)
{
    const std::size_t n = records.size();
    enqueue(
        [runUuid, records = std::move(records)](WriterContext &ctx) -> Status {
            auto run = ctx.runId(runUuid);
            if (!run)
                return run.error();
            const bool storeText = ctx.storeText[runUuid];
            std::int64_t lastPoint = -1;
            int lastScenario = -1, lastIndex = -1;
            for (const RequestRecord &r : records) {
                if (r.scenarioIndex != lastScenario || r.pointIndex != lastIndex) {
                    auto pid = ctx.pointId(*run, r.scenarioIndex, r.pointIndex);
                    if (!pid)
                        return pid.error();
                    lastPoint = *pid;
                    lastScenario = r.scenarioIndex;
                    lastIndex = r.pointIndex;
                }
                if (auto s = insertRequest(ctx, lastPoint, storeText, r); !s)
                    return s;
            }
            return Ok{};
        },
        n);
}

void StorageWriter::finishPoint(const std::string &runUuid, FinishedPoint result)
{
    enqueue(
        [runUuid, result = std::move(result)](WriterContext &ctx) -> Status {
            auto run = ctx.runId(runUuid);
            if (!run)
                return run.error();
            auto pid = ctx.pointId(*run, result.scenarioIndex, result.pointIndex);
            if (!pid)
                return pid.error();
            const PointColumns cols = PointColumns::from(result.aggregates);
            auto st = ctx.db.prepare(
                "UPDATE points SET status = 'completed', aggregates = ?, output_tps_per_gpu = ?, ttft_ms_p90 "
                "= ?, "
                "tpot_ms_p90 = ?, valid = ?, flags = ?, verdict = ?, window_start_ns = ?, window_end_ns = ? "
                "WHERE id = ?");
            if (!st)
                return st.error();
            st->bind(1, result.aggregates.dump());
            cols.bindTo(*st, 2);
            st->bind(7, result.verdict)
                .bindOrNull(8, result.windowStartNs, kNoTime)
                .bindOrNull(9, result.windowEndNs, kNoTime)
                .bind(10, *pid);
            return runSql(ctx, "finish point", *st);
        },
        0);
}

void StorageWriter::setScenarioVerdict(const std::string &runUuid, int scenarioIndex, nlohmann::json verdict)
{
    enqueue(
        [=, verdict = std::move(verdict)](WriterContext &ctx) -> Status {
            auto run = ctx.runId(runUuid);
            if (!run)
                return run.error();
            auto sid = ctx.scenarioId(*run, scenarioIndex);
            if (!sid)
                return sid.error();
            auto st = ctx.db.prepare("UPDATE scenarios SET verdict = ?, verdict_json = ? WHERE id = ?");
            if (!st)
                return st.error();
            std::string status = verdict.is_object() ? verdict.value("status", std::string()) : std::string();
            if (verdict.is_string())
                status = verdict.get<std::string>();
            st->bind(1, status).bind(2, verdict.dump()).bind(3, *sid);
            return runSql(ctx, "set verdict", *st);
        },
        0);
}

void StorageWriter::setScenarioColdStart(const std::string &runUuid, int scenarioIndex,
                                         nlohmann::json coldStart)
{
    if (!coldStart.is_object())
        return;
    enqueue(
        [=, coldStart = std::move(coldStart)](WriterContext &ctx) -> Status {
            auto run = ctx.runId(runUuid);
            if (!run)
                return run.error();
            auto sid = ctx.scenarioId(*run, scenarioIndex);
            if (!sid)
                return sid.error();
            auto st = ctx.db.prepare(
                "UPDATE scenarios SET config = json_set(CASE WHEN json_valid(config) THEN config ELSE '{}' "
                "END, '$.cold_start', json(?)) WHERE id = ?");
            if (!st)
                return st.error();
            st->bind(1, coldStart.dump()).bind(2, *sid);
            return runSql(ctx, "set cold start", *st);
        },
        0);
}

void StorageWriter::addTelemetry(const std::string &runUuid, int scenarioIndex, TelemetrySnapshot snapshot)
{
    std::size_t samples = 0;
    for (const TelemetrySeries &t : snapshot.series)
        samples += t.samples.size();
    enqueue(
        [=, snapshot = std::move(snapshot)](WriterContext &ctx) -> Status {
            auto run = ctx.runId(runUuid);
            if (!run)
                return run.error();
            auto sid = ctx.scenarioId(*run, scenarioIndex);
            if (!sid)
                return sid.error();
            auto src =
                ctx.db.prepare("INSERT INTO telemetry_sources(run_id, scenario_id, source, url, backend, "
                               "scrapes_ok, scrapes_failed, malformed_lines, last_error) "
                               "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
            if (!src)
                return src.error();
            for (std::size_t i = 0; i < snapshot.sources.size(); ++i) {
                const TelemetrySourceStatus &t = snapshot.sources[i];
                src->reset();
                src->bind(1, *run)
                    .bind(2, *sid)
                    .bind(3, static_cast<int>(i))
                    .bind(4, t.url)
                    .bind(5, t.backendId)
                    .bind(6, t.scrapesOk)
                    .bind(7, t.scrapesFailed)
                    .bind(8, t.malformedLines)
                    .bind(9, t.lastError);
                if (auto s = runSql(ctx, "insert telemetry source", *src); !s)
                    return s;
            }
            auto ins = ctx.db.prepare("INSERT INTO telemetry_series(run_id, scenario_id, point_id, source, "
                                      "metric, labels, unit, samples) VALUES(?, ?, NULL, ?, ?, ?, ?, ?)");
            if (!ins)
                return ins.error();
            std::string blob;
            for (const TelemetrySeries &t : snapshot.series) {
                // (int64 t_ns, float64 value) pairs in host order (little-endian on every supported host).
                blob.resize(t.samples.size() * 16);
                for (std::size_t k = 0; k < t.samples.size(); ++k) {
                    std::memcpy(blob.data() + k * 16, &t.samples[k].tNs, 8);
                    std::memcpy(blob.data() + k * 16 + 8, &t.samples[k].value, 8);
                }
                nlohmann::json labels = nlohmann::json::object();
                for (const auto &[k, v] : t.labels)
                    labels[k] = v;
                const std::string source = static_cast<std::size_t>(t.source) < snapshot.sources.size()
                                               ? snapshot.sources[static_cast<std::size_t>(t.source)].url
                                               : std::to_string(t.source);
                ins->reset();
                ins->bind(1, *run)
                    .bind(2, *sid)
                    .bind(3, source)
                    .bind(4, t.name)
                    .bind(5, labels.dump())
                    .bind(6, t.unit);
                ins->bindBlob(7, blob.data(), static_cast<int>(blob.size()));
                if (auto s = runSql(ctx, "insert telemetry series", *ins); !s)
                    return s;
            }
            return Ok{};
        },
        samples / 64);
}

void StorageWriter::setPointTelemetry(const std::string &runUuid, int scenarioIndex, int pointIndex,
                                      nlohmann::json summary)
{
    if (!summary.is_object() || summary.empty())
        return;
    enqueue(
        [=, summary = std::move(summary)](WriterContext &ctx) -> Status {
            auto run = ctx.runId(runUuid);
            if (!run)
                return run.error();
            auto pid = ctx.pointId(*run, scenarioIndex, pointIndex);
            if (!pid)
                return pid.error();
            auto st = ctx.db.prepare("INSERT OR REPLACE INTO point_telemetry(point_id, run_id, summary, "
                                     "kv_cache_usage_peak, waiting_mean, stalled_requests, scrape_failures) "
                                     "VALUES(?, ?, ?, ?, ?, ?, ?)");
            if (!st)
                return st.error();
            const nlohmann::json flat = summary.value("telemetry", nlohmann::json::object());
            auto num = [&](int i, const char *key) {
                const auto it = flat.find(key);
                if (it != flat.end() && it->is_number())
                    st->bind(i, it->get<double>());
                else
                    st->bindNull(i);
            };
            st->bind(1, *pid).bind(2, *run).bind(3, summary.dump());
            num(4, "kv_cache_usage_peak");
            num(5, "waiting_mean");
            num(6, "stalled_requests");
            num(7, "scrape_failures");
            return runSql(ctx, "set point telemetry", *st);
        },
        0);
}

void StorageWriter::finishRun(const std::string &runUuid, RunStatus status)
{
    enqueue(
        [=](WriterContext &ctx) -> Status {
            auto st = ctx.db.prepare("UPDATE runs SET status = ?, finished_utc = ? WHERE uuid = ?");
            if (!st)
                return st.error();
            st->bind(1, toString(status)).bind(2, nowUtc()).bind(3, runUuid);
            return runSql(ctx, "finish run", *st);
        },
        0);
}

void StorageWriter::updateRun(const std::string &runUuid, nlohmann::json provenance, bool simulated,
                              double timeScale, std::int64_t t0UnixNs)
{
    enqueue(
        [=, provenance = std::move(provenance)](WriterContext &ctx) -> Status {
            auto sel = ctx.db.prepare("SELECT provenance FROM runs WHERE uuid = ?");
            if (!sel)
                return sel.error();
            sel->bind(1, runUuid);
            if (sel->step() != 100 /*SQLITE_ROW*/)
                return makeError(ErrorCode::NotFound, "run " + runUuid + " is not in " + ctx.db.path());
            nlohmann::json merged = nlohmann::json::parse(sel->colText(0), nullptr, false);
            if (!merged.is_object())
                merged = nlohmann::json::object();
            if (provenance.is_object())
                merged.update(provenance);
            auto st =
                ctx.db.prepare("UPDATE runs SET provenance = ?, simulated = ?, time_scale = ?, "
                               "started_utc = CASE WHEN ? = 0 THEN started_utc ELSE ? END, "
                               "t0_unix_ns = CASE WHEN ? = 0 THEN t0_unix_ns ELSE ? END WHERE uuid = ?");
            if (!st)
                return st.error();
            st->bind(1, merged.dump())
                .bind(2, simulated ? 1 : 0)
                .bind(3, timeScale)
                .bind(4, t0UnixNs)
                .bind(5, t0UnixNs != 0 ? utcIso(t0UnixNs) : std::string())
                .bind(6, t0UnixNs)
                .bind(7, t0UnixNs)
                .bind(8, runUuid);
            return runSql(ctx, "update run", *st);
        },
        0);
}

void StorageWriter::checkpoint()
{
    enqueue(
        [](WriterContext &ctx) -> Status {
            // A checkpoint cannot run inside a transaction: commit, checkpoint, reopen the batch transaction.
            if (auto s = ctx.db.exec("COMMIT"); !s)
                return s;
            auto s = ctx.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
            if (auto b = ctx.db.exec("BEGIN IMMEDIATE"); !b)
                return b;
            return s;
        },
        0);
}

} // namespace Throughline
