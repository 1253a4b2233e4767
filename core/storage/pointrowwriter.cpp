#include "core/storage/pointrowwriter.h"

#include "core/storage/historymaintenance.h"
#include "core/storage/pointcolumns.h"
#include "core/storage/writercontext.h"

namespace Throughline {

Status PointRowWriter::begin(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                             int pointIndex, const nlohmann::json &config, std::int64_t startedUnixNs)
{
    auto ref = ctx.point(runUuid, scenarioIndex, pointIndex);
    if (!ref)
        return ref.error();
    auto st = ctx.db.prepare("UPDATE points SET status = 'running', config = CASE WHEN ? = 'null' "
                             "THEN config ELSE ? END, started_unix_ns = ? WHERE id = ?");
    if (!st)
        return st.error();
    const std::string c = config.dump();
    st->bind(1, c).bind(2, c).bindOrNull(3, startedUnixNs, kNoTime).bind(4, ref->point);
    return ctx.run(*st, "begin point");
}

Status PointRowWriter::reset(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                             int pointIndex)
{
    auto ref = ctx.point(runUuid, scenarioIndex, pointIndex);
    if (!ref)
        return ref.error();
    const std::string id = std::to_string(ref->point);
    ctx.metricChunks.erase(ref->point); // rows of this transaction go too
    if (auto s = HistoryMaintenance::deleteRequestRows(ctx.db, "(" + id + ")"); !s)
        return s;
    return ctx.db.exec("UPDATE points SET status = 'pending', aggregates = NULL, output_tps_per_gpu = NULL, "
                       "ttft_ms_p90 = NULL, tpot_ms_p90 = NULL, valid = NULL, flags = NULL, verdict = NULL "
                       "WHERE id = " +
                       id);
}

Status PointRowWriter::finish(WriterContext &ctx, const std::string &runUuid, const FinishedPoint &result)
{
    auto ref = ctx.point(runUuid, result.scenarioIndex, result.pointIndex);
    if (!ref)
        return ref.error();
    const PointColumns cols = PointColumns::from(result.aggregates);
    auto st =
        ctx.db.prepare("UPDATE points SET status = 'completed', aggregates = ?, output_tps_per_gpu = ?, "
                       "ttft_ms_p90 = ?, tpot_ms_p90 = ?, valid = ?, flags = ?, verdict = ?, "
                       "window_start_ns = ?, window_end_ns = ? WHERE id = ?");
    if (!st)
        return st.error();
    st->bind(1, result.aggregates.dump());
    cols.bindTo(*st, 2);
    st->bind(7, result.verdict)
        .bindOrNull(8, result.windowStartNs, kNoTime)
        .bindOrNull(9, result.windowEndNs, kNoTime)
        .bind(10, ref->point);
    return ctx.run(*st, "finish point");
}

} // namespace Throughline
