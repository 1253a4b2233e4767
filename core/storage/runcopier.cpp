#include "core/storage/runcopier.h"

#include "core/storage/metricchunkbackfill.h"
#include "core/storage/sqlitedb.h"

namespace Throughline {

namespace {

constexpr const char *kRunColumns =
    "plan_id, status, started_utc, t0_unix_ns, finished_utc, simulated, time_scale, tool_version, "
    "provenance, "
    "notes, store_text, source, shard, writer_host, writer_pid, writer_start, heartbeat_utc";
constexpr const char *kScenarioColumns =
    "idx, scenario_key, model, backend, gpu, gpus, prefill_gpus, decode_gpus, "
    "phase, isl, osl, config, verdict, verdict_json";
constexpr const char *kPointColumns =
    "idx, status, config, aggregates, output_tps_per_gpu, ttft_ms_p90, tpot_ms_p90, "
    "valid, flags, verdict, window_start_ns, window_end_ns, started_unix_ns";
constexpr const char *kRequestColumns =
    "seq, flags, replica, isl, osl, t_sched_ns, t_send_ns, t_wire_ns, t_first_byte_ns, t_first_token_ns, "
    "t_last_token_ns, t_end_ns, connect_ns, appconnect_ns, pretransfer_ns, starttransfer_ns, ttft_us, "
    "tpot_us, "
    "e2e_us, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens, n_out, n_out_source, "
    "n_first, "
    "n_content, error_class, http_status";

Result<bool> hasTable(SqliteDb &db, const std::string &schema, const char *table)
{
    auto n = db.queryInt("SELECT count(*) FROM " + schema +
                         ".sqlite_master WHERE type = 'table' AND name = '" + table + "'");
    if (!n)
        return n.error();
    return *n > 0;
}

// Request breakdowns (schema v6) follow their points' new ids; seqs stay, as the request rows' do. A source
// older than v6 has none.
Status copyBreakdowns(SqliteDb &db, const std::string &src, const std::string &dst, const std::string &points,
                      const std::string &pointOffset)
{
    auto has = hasTable(db, src, "request_breakdowns");
    if (!has)
        return has.error();
    if (!*has)
        return Ok{};
    return db.exec("INSERT INTO " + dst + ".request_breakdowns(point_id, seq, json) SELECT point_id + " +
                   pointOffset + ", seq, json FROM " + src + ".request_breakdowns WHERE point_id IN " +
                   points + ";");
}

} // namespace

Result<std::int64_t> RunCopier::copyRun(SqliteDb &db, const std::string &src, const std::string &dst,
                                        std::int64_t srcRunId, const std::string &newUuid)
{
    const std::string rid = std::to_string(srcRunId);
    auto offset = [&](const std::string &table, const std::string &where) -> Result<std::int64_t> {
        return db.queryInt("SELECT (SELECT COALESCE(max(id), 0) FROM " + dst + "." + table +
                           ") + 1 - "
                           "(SELECT COALESCE(min(id), 0) FROM " +
                           src + "." + table + " WHERE " + where + ")");
    };
    // campaign (deduplicated by sha256)
    if (auto s = db.exec("INSERT OR IGNORE INTO " + dst +
                         ".campaigns(sha256, name, json) SELECT c.sha256, c.name, "
                         "c.json FROM " +
                         src + ".campaigns c JOIN " + src +
                         ".runs r ON r.campaign_id = c.id "
                         "WHERE r.id = " +
                         rid);
        !s)
        return s.error();
    auto cid = db.queryInt("SELECT d.id FROM " + dst + ".campaigns d JOIN " + src +
                               ".campaigns c ON c.sha256 = "
                               "d.sha256 JOIN " +
                               src + ".runs r ON r.campaign_id = c.id WHERE r.id = " + rid,
                           -1);
    if (!cid)
        return cid.error();
    auto ins = db.prepare("INSERT INTO " + dst + ".runs(uuid, campaign_id, " + kRunColumns +
                          ") SELECT "
                          "CASE WHEN ? = '' THEN uuid ELSE ? END, ?, " +
                          kRunColumns + " FROM " + src + ".runs WHERE id = ?");
    if (!ins)
        return ins.error();
    ins->bind(1, newUuid).bind(2, newUuid);
    if (*cid >= 0)
        ins->bind(3, *cid);
    else
        ins->bindNull(3);
    ins->bind(4, srcRunId);
    if (!ins->run())
        return db.lastError("copy run");
    const std::int64_t newRun = db.lastInsertId();
    const std::string nr = std::to_string(newRun);

    auto offS = offset("scenarios", "run_id = " + rid);
    auto offP = offset("points", "run_id = " + rid);
    if (!offS || !offP)
        return !offS ? offS.error() : offP.error();
    const std::string pointsOfRun = "(SELECT id FROM " + src + ".points WHERE run_id = " + rid + ")";
    auto offQ = offset("requests", "point_id IN " + pointsOfRun);
    if (!offQ)
        return offQ.error();
    const std::string os = std::to_string(*offS), op = std::to_string(*offP), oq = std::to_string(*offQ);
    const std::string reqsOfRun =
        "(SELECT id FROM " + src + ".requests WHERE point_id IN " + pointsOfRun + ")";
    const std::string sql =
        "INSERT INTO " + dst + ".run_tags(run_id, tag) SELECT " + nr + ", tag FROM " + src +
        ".run_tags WHERE run_id = " + rid +
        ";"
        "INSERT INTO " +
        dst + ".targets_used(run_id, name, json) SELECT " + nr + ", name, json FROM " + src +
        ".targets_used WHERE run_id = " + rid +
        " ORDER BY id;"
        "INSERT INTO " +
        dst + ".scenarios(id, run_id, " + kScenarioColumns + ") SELECT id + " + os + ", " + nr + ", " +
        kScenarioColumns + " FROM " + src + ".scenarios WHERE run_id = " + rid +
        ";"
        "INSERT INTO " +
        dst + ".points(id, scenario_id, run_id, " + kPointColumns + ") SELECT id + " + op +
        ", scenario_id + " + os + ", " + nr + ", " + kPointColumns + " FROM " + src +
        ".points WHERE run_id = " + rid +
        ";"
        "INSERT INTO " +
        dst + ".requests(id, point_id, " + kRequestColumns + ") SELECT id + " + oq + ", point_id + " + op +
        ", " + kRequestColumns + " FROM " + src + ".requests WHERE point_id IN " + pointsOfRun +
        " ORDER BY id;"
        "INSERT INTO " +
        dst + ".request_events(request_id, blob) SELECT request_id + " + oq + ", blob FROM " + src +
        ".request_events WHERE request_id IN " + reqsOfRun +
        " ORDER BY request_id;"
        "INSERT INTO " +
        dst + ".request_text(request_id, raw_len, zlib) SELECT request_id + " + oq + ", raw_len, zlib FROM " +
        src + ".request_text WHERE request_id IN " + reqsOfRun +
        ";"
        "INSERT INTO " +
        dst + ".request_errors(request_id, detail) SELECT request_id + " + oq + ", detail FROM " + src +
        ".request_errors WHERE request_id IN " + reqsOfRun +
        ";"
        "INSERT INTO " +
        dst +
        ".telemetry_series(run_id, scenario_id, point_id, source, metric, labels, unit, samples) SELECT " +
        nr + ", scenario_id + " + os + ", point_id + " + op +
        ", source, metric, labels, unit, samples FROM " + src + ".telemetry_series WHERE run_id = " + rid +
        " ORDER BY id;"
        "INSERT INTO " +
        dst +
        ".telemetry_sources(run_id, scenario_id, source, url, backend, scrapes_ok, scrapes_failed, "
        "malformed_lines, last_error) SELECT " +
        nr + ", scenario_id + " + os +
        ", source, url, backend, scrapes_ok, scrapes_failed, malformed_lines, last_error FROM " + src +
        ".telemetry_sources WHERE run_id = " + rid +
        " ORDER BY id;"
        "INSERT INTO " +
        dst +
        ".point_telemetry(point_id, run_id, summary, kv_cache_usage_peak, waiting_mean, stalled_requests, "
        "scrape_failures) SELECT point_id + " +
        op + ", " + nr +
        ", summary, kv_cache_usage_peak, waiting_mean, stalled_requests, scrape_failures FROM " + src +
        ".point_telemetry WHERE run_id = " + rid + ";";
    if (auto s = db.exec(sql); !s)
        return s.error();
    // Metric chunks (schema v3; a v2 source has none).
    auto chunks = db.queryInt("SELECT count(*) FROM " + src +
                              ".sqlite_master WHERE type = 'table' AND name = 'request_metric_chunks'");
    if (!chunks)
        return chunks.error();
    if (*chunks > 0) {
        if (auto s =
                db.exec("INSERT INTO " + dst +
                        ".request_metric_chunks(point_id, first_id, last_id, n, blob) SELECT point_id + " +
                        op + ", first_id + " + oq + ", last_id + " + oq + ", n, blob FROM " + src +
                        ".request_metric_chunks WHERE point_id IN " + pointsOfRun + ";");
            !s)
            return s.error();
    }
    if (auto s = copyBreakdowns(db, src, dst, pointsOfRun, op); !s)
        return s.error();
    // Points that came without chunks (a v2 source) get them built from the copied rows.
    if (auto filled =
            MetricChunkBackfill::fill(db, dst, "SELECT id FROM " + dst + ".points WHERE run_id = " + nr);
        !filled)
        return filled.error();
    return newRun;
}

} // namespace Throughline
