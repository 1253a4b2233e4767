#pragma once
// Read queries over the stored server telemetry of a run (schema v2: telemetry_series, telemetry_sources),
// for the history run detail and reports. Series come back on the run clock (the client's time axis), so
// they overlay the request-derived series directly.
// Thread affinity: one TelemetryReader per thread; it opens its own read-only connection (like
// HistoryReader), so it never blocks the writer and sees only committed data.
// Older files: a v1 database (telemetry_series without scenario_id, no telemetry_sources) or one without
// the telemetry tables reads as "no telemetry" — an empty result, not an error.

#include "core/storage/sqlitedb.h"
#include "core/telemetry/telemetrysnapshot.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

// One stored series with its samples decoded.
struct StoredTelemetrySeries {
    std::int64_t id = 0;
    int scenarioIndex = -1;    // -1: not tied to a scenario (v1 rows)
    std::int64_t pointId = -1; // -1: whole-scenario series (what the writer stores)
    std::string source;        // scrape target URL (or its index when unknown)
    std::string metric;        // common series name (commonseries.h) or the server's own name
    nlohmann::json labels = nlohmann::json::object(); // identifying labels, e.g. {"gpu":"0"}
    std::string unit;                                 // "ratio", "requests", "tokens/s", "W", …
    std::vector<TelemetrySample> samples;             // ascending run-clock time (ns), value in `unit`
};

// Outcome of one scrape target during one scenario.
struct StoredTelemetrySource {
    int scenarioIndex = -1;
    int source = 0; // index of the target within its scenario
    std::string url, backend;
    int scrapesOk = 0, scrapesFailed = 0, malformedLines = 0;
    std::string lastError;
};

struct TelemetryQuery {
    int scenarioIndex = -1;           // -1: every scenario
    std::vector<std::string> metrics; // empty: every metric
    // Samples outside [fromNs, toNs) are dropped; kNoTime (-1) = open end.
    std::int64_t fromNs = -1, toNs = -1;
};

class TelemetryReader
{
public:
    // Opens read-only. A missing file is NotFound; a database newer than this build is refused.
    Status open(const std::string &path);
    const std::string &path() const { return m_db.path(); }
    // False for databases written before telemetry was stored (schema v1 or no telemetry tables).
    bool hasTelemetry() const { return m_hasScenarioColumn; }

    // Series of a run (full uuid), ordered by scenario, metric, labels. An unknown run is NotFound; a run
    // without telemetry is an empty list. A blob whose size is not a multiple of 16 bytes is a Storage error
    // naming the series id and the file.
    Result<std::vector<StoredTelemetrySeries>> series(const std::string &runUuid,
                                                      const TelemetryQuery &query = {});
    // Distinct metric names stored for a run (or one scenario), sorted.
    Result<std::vector<std::string>> metrics(const std::string &runUuid, int scenarioIndex = -1);
    Result<std::vector<StoredTelemetrySource>> sources(const std::string &runUuid);
    // The stored per-point summary (point_telemetry.summary), or null when none was stored.
    Result<nlohmann::json> pointSummary(std::int64_t pointId);

private:
    Result<std::int64_t> runId(const std::string &runUuid);

    SqliteDb m_db;
    bool m_hasSeriesTable = false;
    bool m_hasScenarioColumn = false; // schema v2 telemetry_series
    bool m_hasSourcesTable = false;
    bool m_hasPointTable = false;
};

} // namespace Throughline
