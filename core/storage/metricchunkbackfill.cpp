#include "core/storage/metricchunkbackfill.h"

#include "core/storage/metricchunk.h"

#include <vector>

namespace Throughline {

namespace {
constexpr int kRow = 100;  // SQLITE_ROW
constexpr int kDone = 101; // SQLITE_DONE
} // namespace

Result<std::int64_t> MetricChunkBackfill::fill(SqliteDb &db, const std::string &schema,
                                               const std::string &pointIdsSql)
{
    const std::string s = schema + ".";
    // The points first (chunks are inserted while their rows are read, so the "has no chunk" test must not
    // run during the inserts).
    std::string pointsSql = "SELECT p.id FROM " + s + "points p WHERE NOT EXISTS (SELECT 1 FROM " + s +
                            "request_metric_chunks c WHERE c.point_id = p.id)";
    if (!pointIdsSql.empty())
        pointsSql += " AND p.id IN (" + pointIdsSql + ")";
    pointsSql += " ORDER BY p.id";
    std::vector<std::int64_t> points;
    {
        auto st = db.prepare(pointsSql);
        if (!st)
            return st.error();
        int rc = 0;
        while ((rc = st->step()) == kRow)
            points.push_back(st->colInt(0));
        if (rc != kDone)
            return db.lastError("list points without metric chunks");
    }
    // One point's rows in id order (requests_point index).
    auto rows = db.prepare("SELECT id, t_send_ns, t_end_ns, ttft_us, tpot_us, e2e_us, n_out, error_class, "
                           "flags FROM " +
                           s + "requests WHERE point_id = ? ORDER BY id");
    if (!rows)
        return rows.error();
    auto insert =
        db.prepare("INSERT INTO " + s +
                   "request_metric_chunks(point_id, first_id, last_id, n, blob) VALUES(?, ?, ?, ?, ?)");
    if (!insert)
        return insert.error();

    std::int64_t written = 0;
    std::int64_t pointId = -1, firstId = 0, lastId = 0;
    MetricChunk chunk;
    auto flush = [&]() -> Status {
        if (chunk.empty())
            return Ok{};
        const std::string &bytes = chunk.bytes();
        insert->bind(1, pointId).bind(2, firstId).bind(3, lastId).bind(4, chunk.rows());
        insert->bindBlob(5, bytes.data(), static_cast<int>(bytes.size()));
        if (!insert->run())
            return db.lastError("insert metric chunk");
        ++written;
        chunk = MetricChunk();
        return Ok{};
    };
    for (const std::int64_t point : points) {
        rows->bind(1, point);
        pointId = point;
        int rc = 0;
        while ((rc = rows->step()) == kRow) {
            const std::int64_t id = rows->colInt(0);
            if (chunk.rows() >= kRowsPerChunk) {
                if (auto st = flush(); !st)
                    return st.error();
            }
            if (chunk.empty())
                firstId = id;
            lastId = id;
            MetricRow m;
            auto take = [&](int col, bool &has, std::int64_t &v) {
                has = !rows->colIsNull(col);
                v = has ? rows->colInt(col) : 0;
            };
            take(1, m.hasSend, m.tSendNs);
            take(2, m.hasEnd, m.tEndNs);
            take(3, m.hasTtft, m.ttftUs);
            take(4, m.hasTpot, m.tpotUs);
            take(5, m.hasE2e, m.e2eUs);
            take(6, m.hasNOut, m.nOut);
            m.failed = rows->colInt(7) != 0;
            m.warmup = (rows->colInt(8) & 1) != 0;
            chunk.append(m);
        }
        rows->reset();
        if (rc != kDone)
            return db.lastError("read request rows for metric chunks");
        if (auto st = flush(); !st)
            return st.error();
    }
    return written;
}

} // namespace Throughline
