#include "core/storage/requestrowwriter.h"

#include "core/storage/eventcodec.h"
#include "core/storage/writercontext.h"

#include <zlib.h>

namespace Throughline {

namespace {

static_assert(sizeof(WriterContext::StagedRow::v) / sizeof(std::int64_t) ==
              RequestRowWriter::kRequestColumns);

// Appends "(?,?,…)" groups: `rows` of `columns` parameters each.
std::string valueGroups(int rows, int columns)
{
    std::string group = "(?";
    for (int c = 1; c < columns; ++c)
        group += ",?";
    group += ')';
    std::string sql;
    for (int r = 0; r < rows; ++r) {
        if (r)
            sql += ',';
        sql += group;
    }
    return sql;
}

// Binds a staged row's values at parameters first+0 … first+30.
void bindRow(SqliteStmt &s, int first, const WriterContext::StagedRow &row)
{
    for (int c = 0; c < RequestRowWriter::kRequestColumns; ++c) {
        if (row.nulls & (1u << c))
            s.bindNull(first + c);
        else
            s.bind(first + c, row.v[c]);
    }
}

} // namespace

std::string RequestRowWriter::requestInsertSql(int rows)
{
    return "INSERT INTO requests(id, point_id, seq, flags, replica, isl, osl, t_sched_ns, t_send_ns, "
           "t_wire_ns, "
           "t_first_byte_ns, t_first_token_ns, t_last_token_ns, t_end_ns, connect_ns, appconnect_ns, "
           "pretransfer_ns, starttransfer_ns, ttft_us, tpot_us, e2e_us, prompt_tokens, completion_tokens, "
           "cached_tokens, reasoning_tokens, n_out, n_out_source, n_first, n_content, error_class, "
           "http_status) VALUES" +
           valueGroups(rows, kRequestColumns);
}

std::string RequestRowWriter::eventsInsertSql(int rows)
{
    return "INSERT INTO request_events(request_id, blob) VALUES" + valueGroups(rows, 2);
}

Status RequestRowWriter::insertAll(WriterContext &ctx, const std::string &runUuid,
                                   const std::vector<RequestRecord> &records)
{
    auto run = ctx.runId(runUuid);
    if (!run)
        return run.error();
    const bool storeText = ctx.storeText[runUuid];
    if (ctx.nextRequestId <= 0) {
        // First request insert of this transaction: continue after the largest id (another process may have
        // written since our last transaction).
        auto top = ctx.db.queryInt("SELECT max(id) FROM requests", 0);
        if (!top)
            return top.error();
        ctx.nextRequestId = *top + 1;
    }
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
        if (auto s = stage(ctx, lastPoint, storeText, r); !s)
            return s;
    }
    if (auto s = flushRows(ctx); !s)
        return s;
    return flushEvents(ctx);
}

Status RequestRowWriter::stage(WriterContext &ctx, std::int64_t pointId, bool storeText,
                               const RequestRecord &r)
{
    const std::int64_t rid = ctx.nextRequestId++;
    // Encoded first (one pass over the events also finds the content span), after the blobs already staged
    // in ctx.eventBuffer; they are bound without a copy when the staged events are inserted.
    EventCodec::ContentSpan content;
    if (!r.events.empty()) {
        const std::size_t offset =
            ctx.stagedEvents.empty() ? 0 : ctx.stagedEvents.back().offset + ctx.stagedEvents.back().size;
        const std::size_t room = offset + EventCodec::maxEncodedSize(r.events.size());
        if (ctx.eventBuffer.size() < room)
            ctx.eventBuffer.resize(room);
        const std::size_t len =
            EventCodec::encode(r.events, r.tSend, ctx.eventBuffer.data() + offset, content);
        ctx.stagedEvents.push_back({rid, offset, len});
    }
    const std::int64_t tFirst = content.firstNs, tLast = content.lastNs;
    const std::int64_t ttftUs = (tFirst != kNoTime && r.tSend != kNoTime) ? (tFirst - r.tSend) / 1000 : -1;
    const std::int64_t e2eUs = (r.tEnd != kNoTime && r.tSend != kNoTime) ? (r.tEnd - r.tSend) / 1000 : -1;
    std::int64_t tpotUs = -1;
    if (tFirst != kNoTime && r.nOut >= 0 && r.nOut - r.nFirst >= 1)
        tpotUs = (tLast - tFirst) / 1000 / (r.nOut - r.nFirst);

    // Column order of requestInsertSql; a value equal to its "absent" marker is stored as NULL.
    WriterContext::StagedRow &row = ctx.stagedRows.emplace_back();
    row.nulls = 0;
    int c = 0;
    auto put = [&](std::int64_t v) { row.v[c++] = v; };
    auto putOrNull = [&](std::int64_t v, std::int64_t nullValue) {
        if (v == nullValue)
            row.nulls |= 1u << c;
        row.v[c++] = v;
    };
    put(rid);
    put(pointId);
    put(static_cast<std::int64_t>(r.seq));
    put((r.warmup ? 1 : 0) | (r.nFirstApproximate ? 2 : 0));
    put(r.replica);
    put(r.intendedIsl);
    put(r.intendedOsl);
    putOrNull(r.tSched, kNoTime);
    putOrNull(r.tSend, kNoTime);
    putOrNull(r.tWire, kNoTime);
    putOrNull(r.tFirstByte, kNoTime);
    putOrNull(tFirst, kNoTime);
    putOrNull(tLast, kNoTime);
    putOrNull(r.tEnd, kNoTime);
    putOrNull(r.curl.connectNs, kNoTime);
    putOrNull(r.curl.appConnectNs, kNoTime);
    putOrNull(r.curl.preTransferNs, kNoTime);
    putOrNull(r.curl.startTransferNs, kNoTime);
    putOrNull(ttftUs, -1);
    putOrNull(tpotUs, -1);
    putOrNull(e2eUs, -1);
    putOrNull(r.usage.promptTokens, -1);
    putOrNull(r.usage.completionTokens, -1);
    putOrNull(r.usage.cachedTokens, -1);
    putOrNull(r.usage.reasoningTokens, -1);
    putOrNull(r.nOut, -1);
    put(static_cast<int>(r.nOutSource));
    put(r.nFirst);
    put(content.count);
    put(static_cast<int>(r.error));
    put(r.httpStatus);

    // The same values (NULL = absent) into the point's metric chunk of this transaction.
    MetricRow m;
    m.warmup = r.warmup;
    m.failed = r.error != ErrorClass::None;
    m.hasSend = r.tSend != kNoTime;
    m.tSendNs = r.tSend;
    m.hasEnd = r.tEnd != kNoTime;
    m.tEndNs = r.tEnd;
    m.hasTtft = ttftUs != -1;
    m.ttftUs = ttftUs;
    m.hasTpot = tpotUs != -1;
    m.tpotUs = tpotUs;
    m.hasE2e = e2eUs != -1;
    m.e2eUs = e2eUs;
    m.hasNOut = r.nOut != -1;
    m.nOut = r.nOut;
    WriterContext::PendingChunk &pending = ctx.metricChunks[pointId];
    if (pending.chunk.empty())
        pending.firstId = rid;
    pending.lastId = rid;
    pending.chunk.append(m);

    if (storeText && !r.text.empty()) {
        uLongf len = compressBound(static_cast<uLong>(r.text.size()));
        ctx.buffer.resize(len);
        if (compress2(reinterpret_cast<Bytef *>(ctx.buffer.data()), &len,
                      reinterpret_cast<const Bytef *>(r.text.data()), static_cast<uLong>(r.text.size()),
                      6) == Z_OK) {
            ctx.insertText.bind(1, rid)
                .bind(2, static_cast<std::int64_t>(r.text.size()))
                .bindBlob(3, ctx.buffer.data(), static_cast<int>(len));
            if (auto st = ctx.run(ctx.insertText, "insert request text"); !st)
                return st;
        }
    }
    if (!r.errorDetail.empty()) {
        ctx.insertError.bind(1, rid).bind(2, r.errorDetail);
        if (auto st = ctx.run(ctx.insertError, "insert request error"); !st)
            return st;
    }
    if (static_cast<int>(ctx.stagedRows.size()) == kRowsPerInsert) {
        if (auto s = flushRows(ctx); !s)
            return s;
    }
    if (static_cast<int>(ctx.stagedEvents.size()) == kRowsPerInsert)
        return flushEvents(ctx);
    return Ok{};
}

Status RequestRowWriter::flushRows(WriterContext &ctx)
{
    const std::size_t n = ctx.stagedRows.size();
    Status s = Ok{};
    if (n == static_cast<std::size_t>(kRowsPerInsert)) {
        for (std::size_t i = 0; i < n; ++i)
            bindRow(ctx.insertRequestRows, static_cast<int>(i) * kRequestColumns + 1, ctx.stagedRows[i]);
        s = ctx.run(ctx.insertRequestRows, "insert requests");
    } else {
        for (std::size_t i = 0; s && i < n; ++i) {
            bindRow(ctx.insertRequest, 1, ctx.stagedRows[i]);
            s = ctx.run(ctx.insertRequest, "insert request");
        }
    }
    ctx.stagedRows.clear();
    return s;
}

Status RequestRowWriter::flushEvents(WriterContext &ctx)
{
    // Blobs are not copied by SQLite: ctx.eventBuffer stays untouched until run() has stepped and reset.
    const std::size_t n = ctx.stagedEvents.size();
    Status s = Ok{};
    if (n == static_cast<std::size_t>(kRowsPerInsert)) {
        for (std::size_t i = 0; i < n; ++i) {
            const WriterContext::StagedEvents &e = ctx.stagedEvents[i];
            ctx.insertEventRows.bind(static_cast<int>(2 * i + 1), e.requestId)
                .bindBlobNoCopy(static_cast<int>(2 * i + 2), ctx.eventBuffer.data() + e.offset,
                                static_cast<int>(e.size));
        }
        s = ctx.run(ctx.insertEventRows, "insert request events");
    } else {
        for (std::size_t i = 0; s && i < n; ++i) {
            const WriterContext::StagedEvents &e = ctx.stagedEvents[i];
            ctx.insertEvents.bind(1, e.requestId)
                .bindBlobNoCopy(2, ctx.eventBuffer.data() + e.offset, static_cast<int>(e.size));
            s = ctx.run(ctx.insertEvents, "insert request events");
        }
    }
    ctx.stagedEvents.clear();
    return s;
}

} // namespace Throughline
