#include "core/storage/telemetryreader.h"

#include "core/storage/schema.h"

#include <QFileInfo>

#include <cstring>

namespace Throughline {

namespace {

constexpr int kRow = 100;  // SQLITE_ROW
constexpr int kDone = 101; // SQLITE_DONE

Result<bool> hasTable(SqliteDb &db, const char *name)
{
    auto st = db.prepare("SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?");
    if (!st)
        return st.error();
    st->bind(1, name);
    if (st->step() != kRow)
        return db.lastError("inspect schema");
    return st->colInt(0) > 0;
}

Result<bool> hasColumn(SqliteDb &db, const char *table, const char *column)
{
    auto st = db.prepare(std::string("SELECT count(*) FROM pragma_table_info('") + table + "') WHERE name=?");
    if (!st)
        return st.error();
    st->bind(1, column);
    if (st->step() != kRow)
        return db.lastError("inspect schema");
    return st->colInt(0) > 0;
}

} // namespace

Status TelemetryReader::open(const std::string &path)
{
    if (!QFileInfo::exists(QString::fromStdString(path)))
        return makeError(ErrorCode::NotFound, "history database " + path + " does not exist");
    if (auto s = m_db.open(path, SqliteDb::Mode::ReadOnly); !s)
        return s;
    auto v = Schema::version(m_db);
    if (!v)
        return v.error();
    if (*v > Schema::kVersion)
        return makeError(ErrorCode::Unsupported,
                         "database " + path + " has schema version " + std::to_string(*v) +
                             ", newer than this build supports (" + std::to_string(Schema::kVersion) + ")");
    if (*v < 1)
        return makeError(ErrorCode::Storage, "database " + path + " has schema version " +
                                                 std::to_string(*v) +
                                                 " (open it once with a writer to migrate)");
    // Inspect what exists instead of trusting the version number alone: v1 files have telemetry_series
    // without scenario_id and none of the other telemetry tables.
    auto series = hasTable(m_db, "telemetry_series");
    if (!series)
        return series.error();
    m_hasSeriesTable = *series;
    m_hasScenarioColumn = false;
    if (m_hasSeriesTable) {
        auto col = hasColumn(m_db, "telemetry_series", "scenario_id");
        if (!col)
            return col.error();
        m_hasScenarioColumn = *col;
    }
    auto sources = hasTable(m_db, "telemetry_sources");
    if (!sources)
        return sources.error();
    m_hasSourcesTable = *sources;
    auto points = hasTable(m_db, "point_telemetry");
    if (!points)
        return points.error();
    m_hasPointTable = *points;
    return Ok{};
}

Result<std::int64_t> TelemetryReader::runId(const std::string &runUuid)
{
    auto st = m_db.prepare("SELECT id FROM runs WHERE uuid = ?");
    if (!st)
        return st.error();
    st->bind(1, runUuid);
    if (st->step() != kRow)
        return makeError(ErrorCode::NotFound, "run " + runUuid + " is not in " + m_db.path());
    return st->colInt(0);
}

Result<std::vector<StoredTelemetrySeries>> TelemetryReader::series(const std::string &runUuid,
                                                                   const TelemetryQuery &query)
{
    auto run = runId(runUuid);
    if (!run)
        return run.error();
    std::vector<StoredTelemetrySeries> out;
    if (!m_hasSeriesTable)
        return out;
    // v1 rows carry no scenario: they match only an unrestricted query.
    std::string sql =
        m_hasScenarioColumn
            ? "SELECT t.id, COALESCE(s.idx, -1), COALESCE(t.point_id, -1), t.source, t.metric, "
              "t.labels, t.unit, t.samples FROM telemetry_series t LEFT JOIN scenarios s ON "
              "s.id = t.scenario_id WHERE t.run_id = ?"
            : "SELECT t.id, -1, COALESCE(t.point_id, -1), t.source, t.metric, t.labels, t.unit, "
              "t.samples FROM telemetry_series t WHERE t.run_id = ?";
    if (query.scenarioIndex >= 0)
        sql += m_hasScenarioColumn ? " AND s.idx = ?" : " AND 0";
    if (!query.metrics.empty()) {
        sql += " AND t.metric IN (";
        for (std::size_t i = 0; i < query.metrics.size(); ++i)
            sql += i ? ",?" : "?";
        sql += ")";
    }
    sql += m_hasScenarioColumn ? " ORDER BY s.idx, t.metric, t.labels, t.id"
                               : " ORDER BY t.metric, t.labels, t.id";
    auto st = m_db.prepare(sql);
    if (!st)
        return st.error();
    int arg = 1;
    st->bind(arg++, *run);
    if (query.scenarioIndex >= 0 && m_hasScenarioColumn)
        st->bind(arg++, query.scenarioIndex);
    for (const std::string &m : query.metrics)
        st->bind(arg++, m);
    int rc = 0;
    while ((rc = st->step()) == kRow) {
        StoredTelemetrySeries s;
        s.id = st->colInt(0);
        s.scenarioIndex = static_cast<int>(st->colInt(1));
        s.pointId = st->colInt(2);
        s.source = st->colText(3);
        s.metric = st->colText(4);
        s.labels = nlohmann::json::parse(st->colText(5), nullptr, false);
        if (!s.labels.is_object())
            s.labels = nlohmann::json::object();
        s.unit = st->colText(6);
        int size = 0;
        const void *blob = st->colBlob(7, size);
        if (size % 16 != 0)
            return makeError(ErrorCode::Storage, "telemetry series " + std::to_string(s.id) + " (" +
                                                     s.metric + ") in " + m_db.path() + " has a " +
                                                     std::to_string(size) +
                                                     "-byte sample blob, not a multiple of 16");
        const auto n = static_cast<std::size_t>(size / 16);
        s.samples.reserve(n);
        const auto *bytes = static_cast<const unsigned char *>(blob);
        for (std::size_t k = 0; k < n; ++k) {
            // (int64 t_ns, float64 value) pairs as the writer stored them (host order, little-endian).
            TelemetrySample sample;
            std::memcpy(&sample.tNs, bytes + k * 16, 8);
            std::memcpy(&sample.value, bytes + k * 16 + 8, 8);
            if (query.fromNs >= 0 && sample.tNs < query.fromNs)
                continue;
            if (query.toNs >= 0 && sample.tNs >= query.toNs)
                continue;
            s.samples.push_back(sample);
        }
        out.push_back(std::move(s));
    }
    if (rc != kDone)
        return m_db.lastError("read telemetry series of run " + runUuid);
    return out;
}

Result<std::vector<std::string>> TelemetryReader::metrics(const std::string &runUuid, int scenarioIndex)
{
    auto run = runId(runUuid);
    if (!run)
        return run.error();
    std::vector<std::string> out;
    if (!m_hasSeriesTable || (scenarioIndex >= 0 && !m_hasScenarioColumn))
        return out;
    std::string sql = "SELECT DISTINCT t.metric FROM telemetry_series t";
    if (scenarioIndex >= 0)
        sql += " JOIN scenarios s ON s.id = t.scenario_id WHERE t.run_id = ? AND s.idx = ?";
    else
        sql += " WHERE t.run_id = ?";
    sql += " ORDER BY t.metric";
    auto st = m_db.prepare(sql);
    if (!st)
        return st.error();
    st->bind(1, *run);
    if (scenarioIndex >= 0)
        st->bind(2, scenarioIndex);
    while (st->step() == kRow)
        out.push_back(st->colText(0));
    return out;
}

Result<std::vector<StoredTelemetrySource>> TelemetryReader::sources(const std::string &runUuid)
{
    auto run = runId(runUuid);
    if (!run)
        return run.error();
    std::vector<StoredTelemetrySource> out;
    if (!m_hasSourcesTable)
        return out;
    auto st =
        m_db.prepare("SELECT COALESCE(s.idx, -1), t.source, t.url, t.backend, t.scrapes_ok, "
                     "t.scrapes_failed, t.malformed_lines, t.last_error FROM telemetry_sources t LEFT JOIN "
                     "scenarios s ON s.id = t.scenario_id WHERE t.run_id = ? ORDER BY s.idx, t.source");
    if (!st)
        return st.error();
    st->bind(1, *run);
    while (st->step() == kRow) {
        StoredTelemetrySource s;
        s.scenarioIndex = static_cast<int>(st->colInt(0));
        s.source = static_cast<int>(st->colInt(1));
        s.url = st->colText(2);
        s.backend = st->colText(3);
        s.scrapesOk = static_cast<int>(st->colInt(4));
        s.scrapesFailed = static_cast<int>(st->colInt(5));
        s.malformedLines = static_cast<int>(st->colInt(6));
        s.lastError = st->colText(7);
        out.push_back(std::move(s));
    }
    return out;
}

Result<nlohmann::json> TelemetryReader::pointSummary(std::int64_t pointId)
{
    if (!m_hasPointTable)
        return nlohmann::json(nullptr);
    auto st = m_db.prepare("SELECT summary FROM point_telemetry WHERE point_id = ?");
    if (!st)
        return st.error();
    st->bind(1, pointId);
    if (st->step() != kRow)
        return nlohmann::json(nullptr);
    nlohmann::json j = nlohmann::json::parse(st->colText(0), nullptr, false);
    if (j.is_discarded())
        return makeError(ErrorCode::Storage, "malformed telemetry summary of point " +
                                                 std::to_string(pointId) + " in " + m_db.path());
    return j;
}

} // namespace Throughline
