#pragma once
// The narrow request row (schema.cpp "requests") plus its event blob (eventcodec.h), compressed text (when
// the run stores text) and error detail: what StorageWriter::addRequests writes per RequestRecord. Derived
// TTFT/TPOT/E2E are computed here in µs (NULL when undefined), once, so readers never decode events.
//
// Request rows and event blobs are staged and inserted kRowsPerInsert at a time by one multi-row INSERT each:
// SQLite's per-statement work (cursor open/close, VdbeHalt, reset) then costs once per 32 rows instead of
// twice per request (≈ 25 % of the SQLite CPU of a Chat 128/128 request). Ids are assigned here
// (WriterContext::nextRequestId = max(id) + 1 read at the first insert of each transaction, as SQLite's own
// rowid choice would be), so the event, text and error rows know their request id before the row is inserted.
// Every staged row is inserted before insertAll returns (a later job of the same transaction may read them).
//
// Thread affinity: the writer thread (WriterContext).

#include "core/engine/requestrecord.h"
#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

struct WriterContext;

class RequestRowWriter
{
public:
    static constexpr int kRowsPerInsert = 32;
    static constexpr int kRequestColumns = 31; // id + 30 values (requestInsertSql)

    // Records of run `runUuid`, each under its own (scenarioIndex, pointIndex) point row.
    static Status insertAll(WriterContext &ctx, const std::string &runUuid,
                            const std::vector<RequestRecord> &records);

    // INSERT statements for `rows` request rows / event blobs (WriterContext::prepareStatements).
    static std::string requestInsertSql(int rows);
    static std::string eventsInsertSql(int rows);

private:
    static Status stage(WriterContext &ctx, std::int64_t pointId, bool storeText, const RequestRecord &r);
    static Status flushRows(WriterContext &ctx);
    static Status flushEvents(WriterContext &ctx);
};

} // namespace Throughline
