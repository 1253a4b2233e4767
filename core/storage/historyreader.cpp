#include "core/storage/historyreader.h"

#include "core/servertiming/breakdownjson.h"
#include "core/storage/eventcodec.h"
#include "core/storage/runowner.h"
#include "core/storage/storedpointderivation.h"
#include "core/storage/schema.h"

#include <QFileInfo>

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <variant>

namespace Throughline {

namespace {

constexpr int kRow = 100;  // SQLITE_ROW
constexpr int kDone = 101; // SQLITE_DONE

std::vector<std::string> splitList(const std::string &s, char sep)
{
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) {
        if (!cur.empty())
            out.push_back(cur);
    }
    return out;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

nlohmann::json parseJson(const std::string &s)
{
    if (s.empty())
        return nullptr;
    return nlohmann::json::parse(s, nullptr, false);
}

// One column of a SELECT and the member of Row it fills: a query's column list and the reading of its rows
// are one table, so positions cannot drift apart. NULL reads as SQLite's 0 / "" unless keepOnNull: then the
// member keeps its default (kNaN, kNoTime, -1 = unknown).
template <typename Row>
struct Column {
    using Member = std::variant<std::int64_t Row::*, int Row::*, bool Row::*, double Row::*,
                                std::string Row::*, nlohmann::json Row::*, std::vector<std::string> Row::*>;
    const char *sql;
    Member member;
    bool keepOnNull = false;
};

void readColumn(const SqliteStmt &st, int i, std::int64_t &out)
{
    out = st.colInt(i);
}
void readColumn(const SqliteStmt &st, int i, int &out)
{
    out = static_cast<int>(st.colInt(i));
}
void readColumn(const SqliteStmt &st, int i, bool &out)
{
    out = st.colInt(i) != 0;
}
void readColumn(const SqliteStmt &st, int i, double &out)
{
    out = st.colDouble(i);
}
void readColumn(const SqliteStmt &st, int i, std::string &out)
{
    out = st.colText(i);
}
void readColumn(const SqliteStmt &st, int i, nlohmann::json &out)
{
    out = parseJson(st.colText(i));
}
void readColumn(const SqliteStmt &st, int i, std::vector<std::string> &out)
{
    out = splitList(st.colText(i), ',');
}

// "SELECT <columns> <rest>".
template <typename Row, std::size_t N>
std::string selectSql(const Column<Row> (&columns)[N], const std::string &rest)
{
    std::string sql = "SELECT ";
    for (std::size_t i = 0; i < N; ++i)
        sql += (i ? ", " : "") + std::string(columns[i].sql);
    return sql + " " + rest;
}

template <typename Row, std::size_t N>
Row readRow(const SqliteStmt &st, const Column<Row> (&columns)[N])
{
    Row row;
    for (std::size_t i = 0; i < N; ++i) {
        const int col = static_cast<int>(i);
        if (columns[i].keepOnNull && st.colIsNull(col))
            continue;
        std::visit([&](auto member) { readColumn(st, col, row.*member); }, columns[i].member);
    }
    return row;
}

// Steps a bound statement to the end, appending every row; returns the last step code (SQLITE_DONE = 101).
template <typename Row, std::size_t N>
int readRows(SqliteStmt &st, const Column<Row> (&columns)[N], std::vector<Row> &out)
{
    int rc = 0;
    while ((rc = st.step()) == kRow)
        out.push_back(readRow(st, columns));
    return rc;
}

// A running run whose writer is gone reads as 'crashed' (runowner.h), in lists, details and status filters.
const std::string kRunStatus = RunOwnership::effectiveStatusSql("r");

// listRuns' verdict filter and ordering name run_verdict and positions 1 (id) and 4 (started_utc).
const Column<RunSummary> kRunColumns[] = {
    {"r.id", &RunSummary::id},
    {"r.uuid", &RunSummary::uuid},
    {kRunStatus.c_str(), &RunSummary::status},
    {"r.started_utc", &RunSummary::startedUtc},
    {"COALESCE(r.finished_utc, '')", &RunSummary::finishedUtc},
    {"COALESCE(c.name, '')", &RunSummary::campaignName},
    {"COALESCE(c.sha256, '')", &RunSummary::campaignSha},
    {"r.plan_id", &RunSummary::planId},
    {"r.source", &RunSummary::source},
    {"r.notes", &RunSummary::notes},
    {"r.shard", &RunSummary::shard},
    {"r.simulated", &RunSummary::simulated},
    {"r.time_scale", &RunSummary::timeScale},
    {"COALESCE(r.t0_unix_ns, 0)", &RunSummary::t0UnixNs},
    {"(SELECT group_concat(tag, ',') FROM run_tags WHERE run_id = r.id)", &RunSummary::tags},
    {"(SELECT count(*) FROM scenarios WHERE run_id = r.id)", &RunSummary::scenarioCount},
    {"(SELECT count(*) FROM points WHERE run_id = r.id)", &RunSummary::pointCount},
    {"(SELECT CASE WHEN sum(verdict = 'fail') > 0 THEN 'fail' WHEN sum(verdict = 'invalid') > 0 THEN "
     "'invalid' WHEN sum(verdict = 'inconclusive') > 0 THEN 'inconclusive' "
     "  WHEN sum(verdict = 'pass') > 0 THEN 'pass' WHEN sum(verdict = 'no_target') > 0 THEN 'no_target' ELSE "
     "'' END "
     "  FROM scenarios WHERE run_id = r.id) AS run_verdict",
     &RunSummary::verdict},
    {"(SELECT group_concat(DISTINCT model) FROM scenarios WHERE run_id = r.id)", &RunSummary::models},
    {"(SELECT group_concat(DISTINCT backend) FROM scenarios WHERE run_id = r.id)", &RunSummary::backends},
    {"(SELECT group_concat(DISTINCT gpu) FROM scenarios WHERE run_id = r.id)", &RunSummary::gpus},
    {"(SELECT group_concat(DISTINCT phase) FROM scenarios WHERE run_id = r.id)", &RunSummary::phases},
};
const char *kRunFrom = "FROM runs r LEFT JOIN campaigns c ON c.id = r.campaign_id";

const Column<PointRow> kPointColumns[] = {
    {"p.id", &PointRow::id},
    {"p.run_id", &PointRow::runId},
    {"p.scenario_id", &PointRow::scenarioId},
    {"r.uuid", &PointRow::runUuid},
    {"s.scenario_key", &PointRow::scenarioKey},
    {"p.status", &PointRow::status},
    {"COALESCE(p.verdict, '')", &PointRow::verdict},
    {"s.idx", &PointRow::scenarioIndex},
    {"p.idx", &PointRow::pointIndex},
    {"p.config", &PointRow::config},
    {"COALESCE(p.aggregates, '')", &PointRow::aggregates},
    {"p.output_tps_per_gpu", &PointRow::outputTpsPerGpu, true},
    {"p.ttft_ms_p90", &PointRow::ttftMsP90, true},
    {"p.tpot_ms_p90", &PointRow::tpotMsP90, true},
    {"p.valid", &PointRow::valid, true},
    {"COALESCE(p.flags, '')", &PointRow::flags},
    {"p.window_start_ns", &PointRow::windowStartNs, true},
    {"p.window_end_ns", &PointRow::windowEndNs, true},
    {"p.started_unix_ns", &PointRow::startedUnixNs, true},
};

const Column<ScenarioRow> kScenarioColumns[] = {
    {"id", &ScenarioRow::id},
    {"idx", &ScenarioRow::index},
    {"scenario_key", &ScenarioRow::key},
    {"model", &ScenarioRow::model},
    {"backend", &ScenarioRow::backend},
    {"gpu", &ScenarioRow::gpu},
    {"phase", &ScenarioRow::phase},
    {"COALESCE(verdict, '')", &ScenarioRow::verdict},
    {"gpus", &ScenarioRow::gpus},
    {"prefill_gpus", &ScenarioRow::prefillGpus},
    {"decode_gpus", &ScenarioRow::decodeGpus},
    {"isl", &ScenarioRow::isl},
    {"osl", &ScenarioRow::osl},
    {"config", &ScenarioRow::config},
    {"COALESCE(verdict_json, '')", &ScenarioRow::verdictJson},
};

// NULL timings and token counts stay -1 (unknown).
const Column<RequestRow> kRequestColumns[] = {
    {"id", &RequestRow::id},
    {"point_id", &RequestRow::pointId},
    {"seq", &RequestRow::seq},
    {"(flags & 1)", &RequestRow::warmup},
    {"t_sched_ns", &RequestRow::tSchedNs, true},
    {"t_send_ns", &RequestRow::tSendNs, true},
    {"t_first_token_ns", &RequestRow::tFirstTokenNs, true},
    {"t_last_token_ns", &RequestRow::tLastTokenNs, true},
    {"t_end_ns", &RequestRow::tEndNs, true},
    {"ttft_us", &RequestRow::ttftUs, true},
    {"tpot_us", &RequestRow::tpotUs, true},
    {"e2e_us", &RequestRow::e2eUs, true},
    {"prompt_tokens", &RequestRow::promptTokens, true},
    {"completion_tokens", &RequestRow::completionTokens, true},
    {"cached_tokens", &RequestRow::cachedTokens, true},
    {"reasoning_tokens", &RequestRow::reasoningTokens, true},
    {"n_out", &RequestRow::nOut, true},
    {"n_out_source", &RequestRow::nOutSource},
    {"n_first", &RequestRow::nFirst},
    {"n_content", &RequestRow::nContent},
    {"error_class", &RequestRow::errorClass},
    {"http_status", &RequestRow::httpStatus},
};

} // namespace

Status HistoryReader::open(const std::string &path)
{
    if (!QFileInfo::exists(QString::fromStdString(path)))
        return makeError(ErrorCode::NotFound, "history database " + path + " does not exist");
    if (auto s = m_db.open(path, SqliteDb::Mode::ReadOnly); !s)
        return s;
    auto v = Schema::version(m_db);
    if (!v)
        return v.error();
    if (*v != Schema::kVersion)
        return makeError(*v > Schema::kVersion ? ErrorCode::Unsupported : ErrorCode::Storage,
                         "database " + path + " has schema version " + std::to_string(*v) + ", expected " +
                             std::to_string(Schema::kVersion) + " (open it once with a writer to migrate)");
    if (!RunOwnership::registerSqlFunction(m_db))
        return m_db.lastError("register run_owner_gone on " + path);
    // Memory-mapped reads: a scan of a large point reads pages in place instead of copying each 8 KiB page
    // out of the OS cache (about a tenth of derivePoint's time on 1,000,000 requests). WAL frames are still
    // read normally, so uncheckpointed data stays visible. Best effort: a build without mmap ignores it.
    (void)m_db.exec("PRAGMA mmap_size=1073741824");
    return Ok{};
}

Result<RunFilter> HistoryReader::parseFilter(const std::string &expr)
{
    RunFilter f;
    for (const std::string &part : splitList(expr, ',')) {
        const auto eq = part.find('=');
        if (eq == std::string::npos || eq == 0)
            return makeError(ErrorCode::InvalidInput,
                             "filter '" + expr + "': '" + part + "' is not key=glob");
        const std::string key = lower(part.substr(0, eq));
        const std::string value = part.substr(eq + 1);
        if (key == "model")
            f.model.push_back(value);
        else if (key == "backend")
            f.backend.push_back(value);
        else if (key == "gpu")
            f.gpu.push_back(value);
        else if (key == "gpus")
            f.gpu.push_back("*×" + value); // scenario GPU label "H200×8"
        else if (key == "phase")
            f.phase.push_back(value);
        else if (key == "verdict")
            f.verdict.push_back(value);
        else if (key == "status")
            f.status.push_back(value);
        else if (key == "tag")
            f.tag = value;
        else if (key == "since" || key == "from")
            f.fromUtc = value;
        else if (key == "until" || key == "to")
            f.toUtc = value;
        else if (key == "text")
            f.text = value;
        else
            return makeError(
                ErrorCode::InvalidInput,
                "filter '" + expr + "': unknown key '" + key +
                    "' (model, backend, gpu, gpus, phase, verdict, status, tag, since, until, text)");
    }
    return f;
}

Result<std::vector<RunSummary>> HistoryReader::listRuns(const RunFilter &filter)
{
    std::string where;
    std::vector<std::string> binds;
    auto add = [&](const std::string &clause) { where += (where.empty() ? " WHERE " : " AND ") + clause; };
    auto anyOf = [&](const std::string &column, const std::vector<std::string> &globs) {
        std::string c = "(";
        for (std::size_t i = 0; i < globs.size(); ++i) {
            c += (i ? " OR " : "") + ("lower(" + column + ") GLOB ?");
            binds.push_back(lower(globs[i]));
        }
        return c + ")";
    };
    // Scenario keys must match within one scenario (AND across keys).
    std::string scen;
    if (!filter.model.empty())
        scen += " AND " + anyOf("s.model", filter.model);
    if (!filter.backend.empty())
        scen += " AND " + anyOf("s.backend", filter.backend);
    if (!filter.gpu.empty()) {
        std::vector<std::string> g;
        std::string c = "(";
        for (std::size_t i = 0; i < filter.gpu.size(); ++i) {
            c += (i ? " OR " : "") +
                 std::string("lower(s.gpu) GLOB ? OR lower(s.gpu || '×' || s.gpus) GLOB ?");
            binds.push_back(lower(filter.gpu[i]));
            binds.push_back(lower(filter.gpu[i]));
        }
        scen += " AND " + c + ")";
    }
    if (!filter.phase.empty())
        scen += " AND " + anyOf("s.phase", filter.phase);
    if (!scen.empty())
        add("EXISTS(SELECT 1 FROM scenarios s WHERE s.run_id = r.id" + scen + ")");
    if (!filter.status.empty())
        add(anyOf(kRunStatus, filter.status));
    if (!filter.fromUtc.empty()) {
        add("r.started_utc >= ?");
        binds.push_back(filter.fromUtc);
    }
    if (!filter.toUtc.empty()) {
        add("substr(r.started_utc, 1, length(?)) <= ?");
        binds.push_back(filter.toUtc);
        binds.push_back(filter.toUtc);
    }
    if (!filter.tag.empty()) {
        add("EXISTS(SELECT 1 FROM run_tags t WHERE t.run_id = r.id AND lower(t.tag) GLOB ?)");
        binds.push_back(lower(filter.tag));
    }
    if (!filter.text.empty()) {
        add("(instr(lower(r.uuid), ?) OR instr(lower(COALESCE(c.name, '')), ?) OR instr(lower(r.notes), ?) "
            "OR "
            "EXISTS(SELECT 1 FROM scenarios s2 WHERE s2.run_id = r.id AND instr(lower(s2.scenario_key), "
            "?)))");
        for (int i = 0; i < 4; ++i)
            binds.push_back(lower(filter.text));
    }
    std::string sql = selectSql(kRunColumns, kRunFrom + where);
    if (!filter.verdict.empty()) {
        sql = "SELECT * FROM (" + sql + ") WHERE ";
        for (std::size_t i = 0; i < filter.verdict.size(); ++i) {
            sql += (i ? " OR " : "") + std::string("run_verdict GLOB ?");
            binds.push_back(lower(filter.verdict[i]));
        }
        sql += " ORDER BY 4 DESC, 1 DESC";
    } else {
        sql += " ORDER BY r.started_utc DESC, r.id DESC";
    }
    if (filter.limit > 0)
        sql += " LIMIT " + std::to_string(filter.limit);
    auto st = m_db.prepare(sql);
    if (!st)
        return st.error();
    for (std::size_t i = 0; i < binds.size(); ++i)
        st->bind(static_cast<int>(i + 1), binds[i]);
    std::vector<RunSummary> out;
    if (readRows(*st, kRunColumns, out) != 101)
        return m_db.lastError("list runs");
    return out;
}

Result<std::string> HistoryReader::resolveRun(const std::string &prefix)
{
    std::string hex;
    for (char c : prefix) {
        if (c == '-')
            continue;
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return makeError(ErrorCode::InvalidInput, "run id '" + prefix + "' is not hexadecimal");
        hex += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (hex.size() < 8)
        return makeError(ErrorCode::InvalidInput,
                         "run id '" + prefix + "' is too short (need at least 8 hex digits)");
    auto st = m_db.prepare("SELECT uuid FROM runs WHERE replace(lower(uuid), '-', '') GLOB ? LIMIT 3");
    if (!st)
        return st.error();
    st->bind(1, hex + "*");
    std::vector<std::string> hits;
    while (st->step() == kRow)
        hits.push_back(st->colText(0));
    if (hits.empty())
        return makeError(ErrorCode::NotFound, "no run matches '" + prefix + "' in " + m_db.path());
    if (hits.size() > 1)
        return makeError(ErrorCode::InvalidInput, "run id '" + prefix + "' is ambiguous (" + hits[0] + ", " +
                                                      hits[1] + (hits.size() > 2 ? ", …" : "") + ")");
    return hits[0];
}

Result<RunDetail> HistoryReader::runDetail(const std::string &uuid)
{
    auto st = m_db.prepare(selectSql(kRunColumns, kRunFrom + std::string(" WHERE r.uuid = ?")));
    if (!st)
        return st.error();
    st->bind(1, uuid);
    if (st->step() != kRow)
        return makeError(ErrorCode::NotFound, "run " + uuid + " is not in " + m_db.path());
    RunDetail d;
    d.summary = readRow(*st, kRunColumns);
    auto extra =
        m_db.prepare("SELECT r.provenance, COALESCE(c.json, '') FROM runs r LEFT JOIN campaigns c ON "
                     "c.id = r.campaign_id WHERE r.id = ?");
    if (!extra)
        return extra.error();
    extra->bind(1, d.summary.id);
    if (extra->step() == kRow) {
        d.provenance = parseJson(extra->colText(0));
        d.campaignJson = extra->colText(1);
    }
    auto sc = m_db.prepare(selectSql(kScenarioColumns, "FROM scenarios WHERE run_id = ? ORDER BY idx"));
    if (!sc)
        return sc.error();
    sc->bind(1, d.summary.id);
    readRows(*sc, kScenarioColumns, d.scenarios);
    auto pts = points({uuid});
    if (!pts)
        return pts.error();
    d.points = std::move(*pts);
    auto tg = m_db.prepare("SELECT json FROM targets_used WHERE run_id = ? ORDER BY id");
    if (!tg)
        return tg.error();
    tg->bind(1, d.summary.id);
    while (tg->step() == kRow)
        d.targets.push_back(parseJson(tg->colText(0)));
    return d;
}

Result<std::vector<PointRow>> HistoryReader::points(const std::vector<std::string> &uuids)
{
    std::vector<PointRow> out;
    auto st = m_db.prepare(selectSql(kPointColumns,
                                     "FROM points p JOIN scenarios s ON s.id = p.scenario_id JOIN runs r "
                                     "ON r.id = p.run_id WHERE r.uuid = ? ORDER BY s.idx, p.idx"));
    if (!st)
        return st.error();
    for (const std::string &uuid : uuids) {
        st->reset();
        st->bind(1, uuid);
        readRows(*st, kPointColumns, out);
    }
    return out;
}

Result<std::vector<PointRow>> HistoryReader::unfinishedPoints(const std::string &uuid)
{
    auto status =
        m_db.prepare("SELECT " + RunOwnership::effectiveStatusSql("runs") + " FROM runs WHERE uuid = ?");
    if (!status)
        return status.error();
    status->bind(1, uuid);
    if (status->step() != kRow)
        return makeError(ErrorCode::NotFound, "run " + uuid + " is not in " + m_db.path());
    const std::string s = status->colText(0);
    if (s != "crashed" && s != "cancelled")
        return makeError(ErrorCode::InvalidInput,
                         "run " + uuid + " is " + s + "; only crashed or cancelled runs resume");
    auto all = points({uuid});
    if (!all)
        return all.error();
    std::vector<PointRow> out;
    for (PointRow &p : *all) {
        if (p.status != "completed")
            out.push_back(std::move(p));
    }
    return out;
}

Result<std::vector<RequestRow>> HistoryReader::requests(std::int64_t pointId, bool includeWarmup)
{
    auto st = m_db.prepare(selectSql(kRequestColumns, "FROM requests WHERE point_id = ? ORDER BY seq"));
    if (!st)
        return st.error();
    st->bind(1, pointId);
    std::vector<RequestRow> out;
    readRows(*st, kRequestColumns, out);
    if (!includeWarmup)
        std::erase_if(out, [](const RequestRow &r) { return r.warmup; });
    return out;
}

Result<std::vector<double>> HistoryReader::samples(std::int64_t pointId, const std::string &metric,
                                                   bool includeWarmup)
{
    std::string expr;
    if (metric == "ttft_ms")
        expr = "ttft_us / 1000.0";
    else if (metric == "tpot_ms")
        expr = "tpot_us / 1000.0";
    else if (metric == "e2e_ms")
        expr = "e2e_us / 1000.0";
    else if (metric == "ttft_q_ms")
        expr = "(t_first_token_ns - t_sched_ns) / 1e6";
    else if (metric == "n_out")
        expr = "n_out";
    else
        return makeError(ErrorCode::InvalidInput, "unknown sample metric '" + metric +
                                                      "' (ttft_ms, tpot_ms, e2e_ms, ttft_q_ms, n_out)");
    auto st = m_db.prepare("SELECT " + expr + " FROM requests WHERE point_id = ? AND error_class = 0" +
                           std::string(includeWarmup ? "" : " AND (flags & 1) = 0") + " ORDER BY seq");
    if (!st)
        return st.error();
    st->bind(1, pointId);
    std::vector<double> out;
    while (st->step() == kRow) {
        if (!st->colIsNull(0))
            out.push_back(st->colDouble(0));
    }
    return out;
}

Result<std::vector<StreamEvent>> HistoryReader::events(std::int64_t requestId)
{
    auto st = m_db.prepare("SELECT e.blob, COALESCE(q.t_send_ns, 0) FROM request_events e JOIN requests q ON "
                           "q.id = e.request_id WHERE e.request_id = ?");
    if (!st)
        return st.error();
    st->bind(1, requestId);
    std::vector<StreamEvent> out;
    if (st->step() != kRow)
        return out; // no events stored (pruned or none)
    int size = 0;
    const void *blob = st->colBlob(0, size);
    if (!EventCodec::decode(blob, static_cast<std::size_t>(size), st->colInt(1), out))
        return makeError(ErrorCode::Storage, "malformed event blob of request " + std::to_string(requestId) +
                                                 " in " + m_db.path());
    return out;
}

Result<std::vector<RequestBreakdown>> HistoryReader::requestBreakdowns(std::int64_t pointId)
{
    auto st = m_db.prepare("SELECT seq, json FROM request_breakdowns WHERE point_id = ? ORDER BY seq");
    if (!st)
        return st.error();
    st->bind(1, pointId);
    std::vector<RequestBreakdown> out;
    for (int rc = st->step(); rc != kDone; rc = st->step()) {
        if (rc != kRow)
            return m_db.lastError("read the request breakdowns of point " + std::to_string(pointId));
        const std::int64_t seq = st->colInt(0);
        const std::string where = "point " + std::to_string(pointId) + ", seq " + std::to_string(seq) + ": ";
        const nlohmann::json j = nlohmann::json::parse(st->colText(1), nullptr, false);
        if (j.is_discarded())
            return makeError(ErrorCode::Storage, where + "request breakdown: `json`: not valid JSON");
        auto b = breakdownFromJson(j);
        if (!b)
            return makeError(ErrorCode::Storage, where + b.error().message);
        if (b->seq != static_cast<std::uint64_t>(seq))
            return makeError(ErrorCode::Storage, where + "request breakdown: `seq`: " +
                                                     std::to_string(b->seq) + " differs from the row's key");
        out.push_back(std::move(b).value());
    }
    return out;
}

Result<std::string> HistoryReader::text(std::int64_t requestId)
{
    auto st = m_db.prepare("SELECT raw_len, zlib FROM request_text WHERE request_id = ?");
    if (!st)
        return st.error();
    st->bind(1, requestId);
    if (st->step() != kRow)
        return std::string();
    int size = 0;
    const void *blob = st->colBlob(1, size);
    uLongf len = static_cast<uLongf>(st->colInt(0));
    std::string out(len, '\0');
    if (uncompress(reinterpret_cast<Bytef *>(out.data()), &len, static_cast<const Bytef *>(blob),
                   static_cast<uLong>(size)) != Z_OK)
        return makeError(ErrorCode::Storage, "corrupt stored text of request " + std::to_string(requestId));
    out.resize(len);
    return out;
}

Result<nlohmann::json> HistoryReader::derivePoint(std::int64_t pointId, const DeriveOptions &options)
{
    return StoredPointDerivation::derive(m_db, pointId, options);
}

} // namespace Throughline
