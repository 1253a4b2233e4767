#include "core/storage/storedrecords.h"

#include "core/storage/eventcodec.h"
#include "core/storage/historyreader.h"

namespace Throughline {

namespace {

constexpr int kRow = 100; // SQLITE_ROW

std::int64_t timeOr(const SqliteStmt &st, int col)
{
    return st.colIsNull(col) ? kNoTime : st.colInt(col);
}

int intOr(const SqliteStmt &st, int col, int fallback)
{
    return st.colIsNull(col) ? fallback : static_cast<int>(st.colInt(col));
}

} // namespace

Result<std::vector<RequestRecord>> StoredRecords::ofPoint(HistoryReader &reader, std::int64_t pointId)
{
    SqliteDb &db = reader.connection();
    auto st = db.prepare(
        "SELECT q.seq, q.flags, q.replica, q.isl, q.osl, q.t_sched_ns, q.t_send_ns, q.t_wire_ns, "
        "q.t_first_byte_ns, q.t_end_ns, q.connect_ns, q.appconnect_ns, q.pretransfer_ns, q.starttransfer_ns, "
        "q.prompt_tokens, q.completion_tokens, q.cached_tokens, q.reasoning_tokens, q.n_out, q.n_out_source, "
        "q.n_first, q.error_class, q.http_status, e.blob, x.detail, s.idx, p.idx, q.id "
        "FROM requests q JOIN points p ON p.id = q.point_id JOIN scenarios s ON s.id = p.scenario_id "
        "LEFT JOIN request_events e ON e.request_id = q.id LEFT JOIN request_errors x ON x.request_id = q.id "
        "WHERE q.point_id = ? ORDER BY q.id");
    if (!st)
        return st.error();
    st->bind(1, pointId);
    std::vector<RequestRecord> out;
    int rc = 0;
    while ((rc = st->step()) == kRow) {
        RequestRecord r;
        r.seq = static_cast<std::uint64_t>(st->colInt(0));
        const std::int64_t flags = st->colInt(1);
        r.warmup = (flags & 1) != 0;
        r.nFirstApproximate = (flags & 2) != 0;
        r.replica = intOr(*st, 2, 0);
        r.intendedIsl = intOr(*st, 3, 0);
        r.intendedOsl = intOr(*st, 4, 0);
        r.tSched = timeOr(*st, 5);
        r.tSend = timeOr(*st, 6);
        r.tWire = timeOr(*st, 7);
        r.tFirstByte = timeOr(*st, 8);
        r.tEnd = timeOr(*st, 9);
        r.curl.connectNs = timeOr(*st, 10);
        r.curl.appConnectNs = timeOr(*st, 11);
        r.curl.preTransferNs = timeOr(*st, 12);
        r.curl.startTransferNs = timeOr(*st, 13);
        r.usage = {intOr(*st, 14, -1), intOr(*st, 15, -1), intOr(*st, 16, -1), intOr(*st, 17, -1)};
        r.nOut = intOr(*st, 18, -1);
        r.nOutSource = static_cast<TokenCountSource>(intOr(*st, 19, 2));
        r.nFirst = intOr(*st, 20, 1);
        r.error = static_cast<ErrorClass>(intOr(*st, 21, 0));
        r.httpStatus = intOr(*st, 22, 0);
        if (!st->colIsNull(23)) {
            int size = 0;
            const void *blob = st->colBlob(23, size);
            if (!EventCodec::decode(blob, static_cast<std::size_t>(size), r.tSend == kNoTime ? 0 : r.tSend,
                                    r.events))
                return makeError(ErrorCode::Storage, "malformed event blob of request " +
                                                         std::to_string(st->colInt(27)) + " in " + db.path());
        }
        if (!st->colIsNull(24))
            r.errorDetail = st->colText(24);
        r.scenarioIndex = static_cast<int>(st->colInt(25));
        r.pointIndex = static_cast<int>(st->colInt(26));
        out.push_back(std::move(r));
    }
    if (rc != 101 /*SQLITE_DONE*/)
        return db.lastError("read requests of point " + std::to_string(pointId));
    return out;
}

Result<std::vector<RequestRecord>> StoredRecords::ofPoint(HistoryReader &reader, const std::string &runUuid,
                                                          int scenarioIndex, int pointIndex)
{
    SqliteDb &db = reader.connection();
    auto st = db.prepare("SELECT p.id FROM points p JOIN scenarios s ON s.id = p.scenario_id JOIN runs r ON "
                         "r.id = p.run_id WHERE r.uuid = ? AND s.idx = ? AND p.idx = ?");
    if (!st)
        return st.error();
    st->bind(1, runUuid).bind(2, scenarioIndex).bind(3, pointIndex);
    if (st->step() != kRow)
        return makeError(ErrorCode::NotFound, "point " + std::to_string(pointIndex) + " of scenario " +
                                                  std::to_string(scenarioIndex) + " of run " + runUuid +
                                                  " is not in " + db.path());
    const std::int64_t id = st->colInt(0);
    st->reset();
    return ofPoint(reader, id);
}

} // namespace Throughline
