#include "core/storage/writercontext.h"

#include "core/storage/requestrowwriter.h"

#include <initializer_list>

namespace Throughline {

namespace {
constexpr int kRow = 100; // SQLITE_ROW
} // namespace

Status WriterContext::prepareStatements(bool readOnly)
{
    const std::string requestRow = RequestRowWriter::requestInsertSql(1);
    const std::string requestRows = RequestRowWriter::requestInsertSql(RequestRowWriter::kRowsPerInsert);
    const std::string eventRows = RequestRowWriter::eventsInsertSql(RequestRowWriter::kRowsPerInsert);
    for (auto [stmt, sql] : std::initializer_list<std::pair<SqliteStmt *, const char *>>{
             {&insertRequest, requestRow.c_str()},
             {&insertRequestRows, requestRows.c_str()},
             {&insertEventRows, eventRows.c_str()},
             {&insertEvents, "INSERT INTO request_events(request_id, blob) VALUES(?, ?)"},
             {&insertText, "INSERT INTO request_text(request_id, raw_len, zlib) VALUES(?, ?, ?)"},
             {&insertError, "INSERT INTO request_errors(request_id, detail) VALUES(?, ?)"},
             {&insertChunk, "INSERT INTO request_metric_chunks(point_id, first_id, last_id, n, blob) "
                            "VALUES(?, ?, ?, ?, ?)"},
             {&findPoint, "SELECT id FROM points WHERE scenario_id = ? AND idx = ?"},
             {&insertPoint,
              "INSERT INTO points(scenario_id, run_id, idx, status, config) VALUES(?, ?, ?, ?, ?)"}}) {
        auto st = db.prepare(sql);
        if (st)
            *stmt = std::move(*st);
        else if (!readOnly)
            return st.error();
    }
    return Ok{};
}

void WriterContext::forgetIds()
{
    runIds.clear();
    scenarioIds.clear();
    pointIds.clear();
    seriesRows.clear();
    sourceRows.clear();
    metricChunks.clear();
    stagedRows.clear();
    stagedEvents.clear();
    nextRequestId = 0;
}

Status WriterContext::flushMetricChunks()
{
    for (const auto &[pointId, pending] : metricChunks) {
        const std::string &bytes = pending.chunk.bytes();
        insertChunk.bind(1, pointId)
            .bind(2, pending.firstId)
            .bind(3, pending.lastId)
            .bind(4, pending.chunk.rows())
            .bindBlob(5, bytes.data(), static_cast<int>(bytes.size()));
        if (auto s = run(insertChunk, "insert metric chunk"); !s)
            return s;
    }
    metricChunks.clear();
    return Ok{};
}

Result<std::int64_t> WriterContext::runId(const std::string &uuid)
{
    if (auto it = runIds.find(uuid); it != runIds.end())
        return it->second;
    auto st = db.prepare("SELECT id, store_text FROM runs WHERE uuid = ?");
    if (!st)
        return st.error();
    st->bind(1, uuid);
    if (st->step() != kRow)
        return makeError(ErrorCode::NotFound, "run " + uuid + " is not in " + db.path());
    runIds[uuid] = st->colInt(0);
    storeText[uuid] = st->colInt(1) != 0;
    return st->colInt(0);
}

Result<std::int64_t> WriterContext::scenarioId(std::int64_t run, int index)
{
    const auto key = std::make_pair(run, index);
    if (auto it = scenarioIds.find(key); it != scenarioIds.end())
        return it->second;
    auto st = db.prepare("SELECT id FROM scenarios WHERE run_id = ? AND idx = ?");
    if (!st)
        return st.error();
    st->bind(1, run).bind(2, index);
    if (st->step() == kRow) {
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

Result<std::int64_t> WriterContext::pointId(std::int64_t run, int scenarioIndex, int pointIndex)
{
    const auto key = std::make_tuple(run, scenarioIndex, pointIndex);
    if (auto it = pointIds.find(key); it != pointIds.end())
        return it->second;
    auto sid = scenarioId(run, scenarioIndex);
    if (!sid)
        return sid.error();
    findPoint.reset();
    findPoint.bind(1, *sid).bind(2, pointIndex);
    if (findPoint.step() == kRow) {
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

Result<WriterContext::ScenarioRef> WriterContext::scenario(const std::string &runUuid, int scenarioIndex)
{
    auto run = runId(runUuid);
    if (!run)
        return run.error();
    auto sid = scenarioId(*run, scenarioIndex);
    if (!sid)
        return sid.error();
    return ScenarioRef{*run, *sid};
}

Result<WriterContext::PointRef> WriterContext::point(const std::string &runUuid, int scenarioIndex,
                                                     int pointIndex)
{
    auto run = runId(runUuid);
    if (!run)
        return run.error();
    auto pid = pointId(*run, scenarioIndex, pointIndex);
    if (!pid)
        return pid.error();
    return PointRef{*run, *pid};
}

Status WriterContext::run(SqliteStmt &st, const char *what)
{
    if (!st.run())
        return db.lastError(what);
    return Ok{};
}

} // namespace Throughline
