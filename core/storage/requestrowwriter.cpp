#include "core/storage/requestrowwriter.h"

#include "core/storage/eventcodec.h"
#include "core/storage/writercontext.h"

#include <zlib.h>

namespace Throughline {

Status RequestRowWriter::insertAll(WriterContext &ctx, const std::string &runUuid,
                                   const std::vector<RequestRecord> &records)
{
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
        if (auto s = insert(ctx, lastPoint, storeText, r); !s)
            return s;
    }
    return Ok{};
}

Status RequestRowWriter::insert(WriterContext &ctx, std::int64_t pointId, bool storeText,
                                const RequestRecord &r)
{
    // Encoded first (one pass over the events also finds the content span); the blob is inserted once the
    // request row has its id, and ctx.eventBuffer is not touched in between.
    EventCodec::ContentSpan content;
    std::size_t blobLen = 0;
    if (!r.events.empty()) {
        const std::size_t room = EventCodec::maxEncodedSize(r.events.size());
        if (ctx.eventBuffer.size() < room)
            ctx.eventBuffer.resize(room);
        blobLen = EventCodec::encode(r.events, r.tSend, ctx.eventBuffer.data(), content);
    }
    const std::int64_t tFirst = content.firstNs, tLast = content.lastNs;
    const int nContent = content.count;
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
    if (auto st = ctx.run(s, "insert request"); !st)
        return st;
    const std::int64_t rid = ctx.db.lastInsertId();
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
    if (!r.events.empty()) {
        // Not copied by SQLite: the buffer stays untouched until run() has stepped and reset the statement.
        ctx.insertEvents.bind(1, rid).bindBlobNoCopy(2, ctx.eventBuffer.data(), static_cast<int>(blobLen));
        if (auto st = ctx.run(ctx.insertEvents, "insert request events"); !st)
            return st;
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
            if (auto st = ctx.run(ctx.insertText, "insert request text"); !st)
                return st;
        }
    }
    if (!r.errorDetail.empty()) {
        ctx.insertError.bind(1, rid).bind(2, r.errorDetail);
        if (auto st = ctx.run(ctx.insertError, "insert request error"); !st)
            return st;
    }
    return Ok{};
}

} // namespace Throughline
