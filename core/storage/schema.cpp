#include "core/storage/schema.h"

#include "core/storage/metricchunkbackfill.h"
#include "core/util/version.h"

#include <functional>
#include <string>
#include <vector>

namespace Throughline {

namespace {

// Version 1. Times: *_ns are steady-clock ns relative to the run's t=0 (int64), *_unix_ns wall clock,
// *_utc ISO-8601 text. Durations in the narrow request row are µs. NULL = unknown / not reached.
constexpr const char *kSchemaV1 = R"SQL(
CREATE TABLE IF NOT EXISTS schema_version(
    version INTEGER NOT NULL,
    applied_utc TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    tool_version TEXT);
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE campaigns(
    id INTEGER PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,     -- of the exact JSON text below
    name TEXT NOT NULL DEFAULT '',
    json TEXT NOT NULL);             -- exact campaign JSON as run
CREATE TABLE runs(
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    campaign_id INTEGER REFERENCES campaigns(id),
    plan_id TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK(status IN ('running','completed','cancelled','crashed')),
    started_utc TEXT NOT NULL,       -- wall clock at t=0
    t0_unix_ns INTEGER,              -- wall clock at t=0, ns since the epoch
    finished_utc TEXT,
    simulated INTEGER NOT NULL DEFAULT 0,
    time_scale REAL NOT NULL DEFAULT 1.0,
    tool_version TEXT NOT NULL DEFAULT '',
    provenance TEXT NOT NULL DEFAULT '{}',  -- JSON: host, cpu, argv, endpoints, git sha, shard, ...
    notes TEXT NOT NULL DEFAULT '',
    store_text INTEGER NOT NULL DEFAULT 0,
    source TEXT NOT NULL DEFAULT 'throughline',  -- throughline | vllm | aiperf | genai-perf | merge
    shard TEXT NOT NULL DEFAULT '',
    writer_host TEXT, writer_pid INTEGER, writer_start INTEGER,  -- who writes a 'running' run (crash detection)
    heartbeat_utc TEXT);
CREATE INDEX runs_started ON runs(started_utc);
CREATE TABLE run_tags(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, tag TEXT NOT NULL,
    PRIMARY KEY(run_id, tag)) WITHOUT ROWID;
CREATE INDEX run_tags_tag ON run_tags(tag);
CREATE TABLE scenarios(
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    scenario_key TEXT NOT NULL,      -- model/backend/gpu×count/phase
    model TEXT NOT NULL DEFAULT '', backend TEXT NOT NULL DEFAULT '', gpu TEXT NOT NULL DEFAULT '',
    gpus INTEGER NOT NULL DEFAULT 0, prefill_gpus INTEGER NOT NULL DEFAULT 0, decode_gpus INTEGER NOT NULL DEFAULT 0,
    phase TEXT NOT NULL DEFAULT '', isl INTEGER NOT NULL DEFAULT 0, osl INTEGER NOT NULL DEFAULT 0,
    config TEXT NOT NULL DEFAULT '{}',   -- resolved scenario JSON
    verdict TEXT,                        -- pass | fail | no_target | invalid
    verdict_json TEXT,
    UNIQUE(run_id, idx));
CREATE INDEX scenarios_run ON scenarios(run_id);
CREATE TABLE points(
    id INTEGER PRIMARY KEY,
    scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,
    run_id INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK(status IN ('pending','running','completed')),
    config TEXT NOT NULL DEFAULT '{}',   -- load{mode, concurrency|rate}, budget, ...
    aggregates TEXT,                     -- results.json point object (metric vocabulary)
    output_tps_per_gpu REAL, ttft_ms_p90 REAL, tpot_ms_p90 REAL,  -- indexed copies for lists and overlays
    valid INTEGER, flags TEXT, verdict TEXT,
    window_start_ns INTEGER, window_end_ns INTEGER,
    started_unix_ns INTEGER,             -- wall clock of the point start (merge alignment)
    UNIQUE(scenario_id, idx));
CREATE INDEX points_run ON points(run_id);
CREATE TABLE requests(                   -- the narrow row; events and text live in their own tables
    id INTEGER PRIMARY KEY,
    point_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    flags INTEGER NOT NULL DEFAULT 0,    -- 1 warm-up, 2 n_first approximate
    replica INTEGER NOT NULL DEFAULT 0,
    isl INTEGER, osl INTEGER,            -- intended lengths
    t_sched_ns INTEGER, t_send_ns INTEGER, t_wire_ns INTEGER, t_first_byte_ns INTEGER,
    t_first_token_ns INTEGER, t_last_token_ns INTEGER, t_end_ns INTEGER,
    connect_ns INTEGER, appconnect_ns INTEGER, pretransfer_ns INTEGER, starttransfer_ns INTEGER,
    ttft_us INTEGER, tpot_us INTEGER, e2e_us INTEGER,
    prompt_tokens INTEGER, completion_tokens INTEGER, cached_tokens INTEGER, reasoning_tokens INTEGER,
    n_out INTEGER, n_out_source INTEGER,  -- 0 usage, 1 tokenizer, 2 event count
    n_first INTEGER, n_content INTEGER,
    error_class INTEGER NOT NULL DEFAULT 0, http_status INTEGER);
CREATE INDEX requests_point ON requests(point_id);
CREATE TABLE request_events(request_id INTEGER PRIMARY KEY, blob BLOB NOT NULL);  -- eventcodec.h
CREATE TABLE request_text(request_id INTEGER PRIMARY KEY, raw_len INTEGER NOT NULL, zlib BLOB NOT NULL);
CREATE TABLE request_errors(request_id INTEGER PRIMARY KEY, detail TEXT NOT NULL);
CREATE TABLE targets_used(
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name TEXT NOT NULL DEFAULT '', json TEXT NOT NULL);
CREATE TABLE telemetry_series(
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    point_id INTEGER, source TEXT NOT NULL, metric TEXT NOT NULL, labels TEXT NOT NULL DEFAULT '{}',
    unit TEXT NOT NULL DEFAULT '', samples BLOB);   -- (t_ns, value) pairs; filled by core/telemetry
)SQL";

// v0 → v1: move the prototype tables aside, create v1, copy runs (one scenario and point each) and requests.
constexpr const char *kMigrateV0Data = R"SQL(
INSERT INTO campaigns(sha256, name, json)
    SELECT DISTINCT 'v0:' || uuid, '', COALESCE(campaign_json, '{}') FROM v0_runs;
INSERT INTO runs(uuid, campaign_id, status, started_utc, source, provenance)
    SELECT r.uuid, c.id,
           CASE WHEN r.status IN ('running','completed','cancelled','crashed') THEN r.status ELSE 'crashed' END,
           COALESCE(r.started_utc, ''), 'throughline', '{"migrated_from":0}'
    FROM v0_runs r JOIN campaigns c ON c.sha256 = 'v0:' || r.uuid;
INSERT INTO scenarios(run_id, idx, scenario_key) SELECT id, 0, 'v0/unknown' FROM runs;
INSERT INTO points(scenario_id, run_id, idx, status) SELECT s.id, s.run_id, 0, 'completed' FROM scenarios s;
INSERT INTO requests(point_id, seq, ttft_us, e2e_us, n_out, n_out_source, error_class)
    SELECT p.id, q.seq, q.ttft_us, q.e2e_us, q.n_out, 0, CASE WHEN q.error IS NULL OR q.error = '' THEN 0 ELSE 3 END
    FROM v0_requests q JOIN runs r ON r.uuid = q.run_uuid JOIN points p ON p.run_id = r.id ORDER BY q.rowid;
DROP TABLE v0_requests;
DROP TABLE v0_runs;
)SQL";

// Version 2: server telemetry of runs (core/telemetry). Series rows gain their scenario (one scraper per
// scenario; point_id stays NULL for whole-scenario series); per-point summaries get their own table with a
// few indexed columns; each scrape target's outcome (ok/failed counts, last error) is kept per scenario.
// telemetry_series.samples: little-endian (int64 t_ns, float64 value) pairs, t on the run clock.
constexpr const char *kSchemaV2 = R"SQL(
ALTER TABLE telemetry_series ADD COLUMN scenario_id INTEGER;
CREATE INDEX telemetry_series_run ON telemetry_series(run_id);
CREATE TABLE point_telemetry(
    point_id INTEGER PRIMARY KEY,        -- points.id
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    summary TEXT NOT NULL DEFAULT '{}',  -- JSON: results.json point "telemetry" + stalls and replica detail
    kv_cache_usage_peak REAL, waiting_mean REAL, stalled_requests INTEGER, scrape_failures INTEGER);
CREATE INDEX point_telemetry_run ON point_telemetry(run_id);
CREATE TABLE telemetry_sources(
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    scenario_id INTEGER,
    source INTEGER NOT NULL,             -- index of the scrape target within its scenario
    url TEXT NOT NULL, backend TEXT NOT NULL DEFAULT '',
    scrapes_ok INTEGER NOT NULL DEFAULT 0, scrapes_failed INTEGER NOT NULL DEFAULT 0,
    malformed_lines INTEGER NOT NULL DEFAULT 0, last_error TEXT NOT NULL DEFAULT '');
CREATE INDEX telemetry_sources_run ON telemetry_sources(run_id);
)SQL";

// Version 3: re-derivation speed (HistoryReader::derivePoint: a 1,000,000-request point in ≤ 300 ms). The
// columns the derivation reads, packed per point and per write transaction (metricchunk.h): the writer
// appends one chunk per point it touched in each transaction, in the same transaction as the rows, so chunks
// and rows commit together. first_id..last_id: the request ids the chunk covers (n rows of this point in
// id order). Points without chunks (migrated, copied from v2 bundles) are derived from the rows.
constexpr const char *kSchemaV3 = R"SQL(
CREATE TABLE request_metric_chunks(
    point_id INTEGER NOT NULL,
    first_id INTEGER NOT NULL,
    last_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    blob BLOB NOT NULL,
    PRIMARY KEY(point_id, first_id)) WITHOUT ROWID;
)SQL";

// Version 4 (no new tables): every point has metric chunks. Points stored before v3 (and rows copied from v2
// bundles into an older build's history) get theirs built from their rows (metricchunkbackfill.h), so
// derivePoint never falls back to the row scan on a migrated database.
Status migrateTo4(SqliteDb &db, int)
{
    auto written = MetricChunkBackfill::fill(db);
    if (!written)
        return written.error();
    return Ok{};
}

// Version 5: crash shown as crash (runowner.h). A 'running' run records its writer's kernel (boot id) and pid
// namespace, so a reader on the same kernel and namespace can check the pid itself, and a lease the live
// writer's heartbeat renews, so a reader anywhere else sees the run crashed once the lease has run out.
// Each column is added only when missing: a file whose version rows were cut back by hand (tests turning a
// bundle into what an older build wrote) keeps its columns and still migrates.
Status migrateTo5(SqliteDb &db, int)
{
    for (const char *column : {"writer_boot_id", "writer_pidns", "lease_until_utc"}) {
        auto has = db.queryInt(std::string("SELECT count(*) FROM pragma_table_info('runs') WHERE name = '") +
                               column + "'");
        if (!has)
            return has.error();
        if (*has == 0)
            if (auto s = db.exec(std::string("ALTER TABLE runs ADD COLUMN ") + column + " TEXT"); !s)
                return s;
    }
    return Ok{};
}

// Version 6: where each request's time went (docs/server-timing.md). One row per request of a point that had
// server timing, keyed like the request it belongs to (point id, seq; seq is unique within a run), holding
// the compact breakdownToJson shape (about 130 bytes): a table of its own rather than columns on `requests`,
// so the narrow request row of runs without server timing stays as small as before. WITHOUT ROWID: the key is
// the only access path (a point's rows in seq order).
constexpr const char *kSchemaV6 = R"SQL(
CREATE TABLE IF NOT EXISTS request_breakdowns(
    point_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY(point_id, seq)) WITHOUT ROWID;
)SQL";

Status migrateTo6(SqliteDb &db, int)
{
    return db.exec(kSchemaV6);
}

Status migrateTo3(SqliteDb &db, int)
{
    return db.exec(kSchemaV3);
}

Status migrateTo2(SqliteDb &db, int)
{
    return db.exec(kSchemaV2);
}

Status migrateTo1(SqliteDb &db, int from)
{
    if (from == 0) {
        if (auto s =
                db.exec("ALTER TABLE runs RENAME TO v0_runs; ALTER TABLE requests RENAME TO v0_requests;");
            !s)
            return s;
    }
    if (auto s = db.exec(kSchemaV1); !s)
        return s;
    if (from == 0) {
        if (auto s = db.exec(kMigrateV0Data); !s)
            return s;
    }
    return Ok{};
}

struct Migration {
    int to;
    std::function<Status(SqliteDb &, int from)> apply;
};

const std::vector<Migration> &migrations()
{
    static const std::vector<Migration> list = {{1, migrateTo1}, {2, migrateTo2}, {3, migrateTo3},
                                                {4, migrateTo4}, {5, migrateTo5}, {6, migrateTo6}};
    return list;
}

} // namespace

Result<int> Schema::version(SqliteDb &db)
{
    auto hasVersionTable =
        db.queryInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='schema_version'");
    if (!hasVersionTable)
        return hasVersionTable.error();
    if (*hasVersionTable == 0) {
        auto hasRuns = db.queryInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='runs'");
        if (!hasRuns)
            return hasRuns.error();
        return *hasRuns ? 0 : -1;
    }
    auto v = db.queryInt("SELECT max(version) FROM schema_version", 0);
    if (!v)
        return v.error();
    return static_cast<int>(*v);
}

Status Schema::migrate(SqliteDb &db)
{
    auto current = version(db);
    if (!current)
        return current.error();
    if (*current > kVersion)
        return makeError(ErrorCode::Unsupported,
                         "database " + db.path() + " has schema version " + std::to_string(*current) +
                             ", newer than this build supports (" + std::to_string(kVersion) + ")");
    for (const Migration &m : migrations()) {
        if (m.to <= *current)
            continue;
        // BEGIN IMMEDIATE: two processes opening an old database at once must not both migrate it.
        if (auto s = db.exec("BEGIN IMMEDIATE"); !s)
            return s;
        auto again = version(db);
        if (!again) {
            (void)db.exec("ROLLBACK");
            return again.error();
        }
        if (*again >= m.to) {
            (void)db.exec("ROLLBACK");
            *current = *again;
            continue;
        }
        Status s = m.apply(db, *again);
        if (s) {
            auto ins = db.prepare("INSERT INTO schema_version(version, tool_version) VALUES(?, ?)");
            if (!ins)
                s = ins.error();
            else if (!ins->bind(1, m.to).bind(2, toolVersion()).run())
                s = db.lastError("record schema version");
        }
        if (!s) {
            (void)db.exec("ROLLBACK");
            return makeError(s.error().code, "migration to schema version " + std::to_string(m.to) +
                                                 " failed: " + s.error().message);
        }
        if (auto c = db.exec("COMMIT"); !c)
            return c;
        *current = m.to;
    }
    return Ok{};
}

Status Schema::configureWriter(SqliteDb &db)
{
    // 8 KiB pages for new files (fewer page headers per event blob; set before WAL, ignored afterwards).
    // WAL: readers never block the writer; NORMAL: durable at checkpoints, consistent after a crash.
    if (auto s =
            db.exec("PRAGMA page_size=8192; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA "
                    "foreign_keys=ON;"
                    "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536; PRAGMA wal_autocheckpoint=4000;");
        !s)
        return s;
    return Ok{};
}

} // namespace Throughline
