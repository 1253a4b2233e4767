#pragma once
// Server telemetry rows (schema v2): every scraped series of a scenario (samples as a blob of little-endian
// (int64 t_ns, float64 value) pairs on the run clock), each scrape target's outcome, and per-point
// summaries. The SQL behind StorageWriter::addTelemetry / storeTelemetry / setPointTelemetry.
//
// Thread affinity: the writer thread (WriterContext).

#include "core/telemetry/telemetrysnapshot.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace Throughline {

struct WriterContext;

class TelemetryRowWriter
{
public:
    enum class Mode {
        Add,    // new rows for every series and source (imports, merges, recording after the run)
        Replace // rows this writer wrote before for the same scenario/series/source are overwritten, others
                // added: a live recording stores the scenario's series so far after each point
    };
    static Status store(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                        const TelemetrySnapshot &snapshot, Mode mode);
    // The point_telemetry row (INSERT OR REPLACE); a few numbers of summary["telemetry"] get columns.
    static Status setPointSummary(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                                  int pointIndex, const nlohmann::json &summary);
};

} // namespace Throughline
