#include "core/storage/breakdownrowwriter.h"

#include "core/servertiming/breakdownjson.h"
#include "core/storage/writercontext.h"

namespace Throughline {

Status BreakdownRowWriter::store(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                                 int pointIndex, const std::vector<RequestBreakdown> &breakdowns)
{
    auto ref = ctx.point(runUuid, scenarioIndex, pointIndex);
    if (!ref)
        return ref.error();
    auto clear = ctx.db.prepare("DELETE FROM request_breakdowns WHERE point_id = ?");
    if (!clear)
        return clear.error();
    clear->bind(1, ref->point);
    if (auto s = ctx.run(*clear, "clear request breakdowns"); !s)
        return s;
    auto insert = ctx.db.prepare("INSERT INTO request_breakdowns(point_id, seq, json) VALUES(?, ?, ?)");
    if (!insert)
        return insert.error();
    for (const RequestBreakdown &b : breakdowns) {
        insert->bind(1, ref->point)
            .bind(2, static_cast<std::int64_t>(b.seq))
            .bind(3, breakdownToJson(b).dump());
        if (!insert->run())
            return ctx.db.lastError("store the request breakdown of point " + std::to_string(ref->point) +
                                    ", seq " + std::to_string(b.seq));
    }
    return Ok{};
}

} // namespace Throughline
