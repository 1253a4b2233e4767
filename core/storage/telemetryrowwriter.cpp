#include "core/storage/telemetryrowwriter.h"

#include "core/storage/writercontext.h"

#include <cstring>

namespace Throughline {

namespace {

// (int64 t_ns, float64 value) pairs in host order (little-endian on every supported host).
void packSamples(const TelemetrySeries &t, std::string &blob)
{
    blob.resize(t.samples.size() * 16);
    for (std::size_t k = 0; k < t.samples.size(); ++k) {
        std::memcpy(blob.data() + k * 16, &t.samples[k].tNs, 8);
        std::memcpy(blob.data() + k * 16 + 8, &t.samples[k].value, 8);
    }
}

Status storeSources(WriterContext &ctx, WriterContext::ScenarioRef ref, const TelemetrySnapshot &snapshot,
                    TelemetryRowWriter::Mode mode)
{
    auto ins = ctx.db.prepare("INSERT INTO telemetry_sources(run_id, scenario_id, source, url, backend, "
                              "scrapes_ok, scrapes_failed, malformed_lines, last_error) "
                              "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
    auto upd =
        ctx.db.prepare("UPDATE telemetry_sources SET run_id = ?, scenario_id = ?, source = ?, url = ?, "
                       "backend = ?, scrapes_ok = ?, scrapes_failed = ?, malformed_lines = ?, "
                       "last_error = ? WHERE id = ?");
    if (!ins)
        return ins.error();
    if (!upd)
        return upd.error();
    for (std::size_t i = 0; i < snapshot.sources.size(); ++i) {
        const TelemetrySourceStatus &t = snapshot.sources[i];
        const auto key = std::make_pair(ref.scenario, static_cast<int>(i));
        const auto known = ctx.sourceRows.find(key);
        const bool update = mode == TelemetryRowWriter::Mode::Replace && known != ctx.sourceRows.end();
        SqliteStmt &st = update ? *upd : *ins;
        st.bind(1, ref.run)
            .bind(2, ref.scenario)
            .bind(3, static_cast<int>(i))
            .bind(4, t.url)
            .bind(5, t.backendId)
            .bind(6, t.scrapesOk)
            .bind(7, t.scrapesFailed)
            .bind(8, t.malformedLines)
            .bind(9, t.lastError);
        if (update)
            st.bind(10, known->second);
        if (auto s = ctx.run(st, "insert telemetry source"); !s)
            return s;
        if (!update && mode == TelemetryRowWriter::Mode::Replace)
            ctx.sourceRows[key] = ctx.db.lastInsertId();
    }
    return Ok{};
}

Status storeSeries(WriterContext &ctx, WriterContext::ScenarioRef ref, const TelemetrySnapshot &snapshot,
                   TelemetryRowWriter::Mode mode)
{
    auto ins = ctx.db.prepare("INSERT INTO telemetry_series(run_id, scenario_id, point_id, source, "
                              "metric, labels, unit, samples) VALUES(?, ?, NULL, ?, ?, ?, ?, ?)");
    auto upd = ctx.db.prepare("UPDATE telemetry_series SET unit = ?, samples = ? WHERE id = ?");
    if (!ins)
        return ins.error();
    if (!upd)
        return upd.error();
    std::string blob;
    for (const TelemetrySeries &t : snapshot.series) {
        packSamples(t, blob);
        nlohmann::json labels = nlohmann::json::object();
        for (const auto &[k, v] : t.labels)
            labels[k] = v;
        const std::string source = static_cast<std::size_t>(t.source) < snapshot.sources.size()
                                       ? snapshot.sources[static_cast<std::size_t>(t.source)].url
                                       : std::to_string(t.source);
        const std::string labelText = labels.dump();
        const auto key = std::make_tuple(ref.scenario, source, t.name, labelText);
        if (mode == TelemetryRowWriter::Mode::Replace) {
            if (const auto it = ctx.seriesRows.find(key); it != ctx.seriesRows.end()) {
                upd->bind(1, t.unit)
                    .bindBlob(2, blob.data(), static_cast<int>(blob.size()))
                    .bind(3, it->second);
                if (auto s = ctx.run(*upd, "update telemetry series"); !s)
                    return s;
                continue;
            }
        }
        ins->bind(1, ref.run)
            .bind(2, ref.scenario)
            .bind(3, source)
            .bind(4, t.name)
            .bind(5, labelText)
            .bind(6, t.unit);
        ins->bindBlob(7, blob.data(), static_cast<int>(blob.size()));
        if (auto s = ctx.run(*ins, "insert telemetry series"); !s)
            return s;
        if (mode == TelemetryRowWriter::Mode::Replace)
            ctx.seriesRows[key] = ctx.db.lastInsertId();
    }
    return Ok{};
}

} // namespace

Status TelemetryRowWriter::store(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                                 const TelemetrySnapshot &snapshot, Mode mode)
{
    auto ref = ctx.scenario(runUuid, scenarioIndex);
    if (!ref)
        return ref.error();
    if (auto s = storeSources(ctx, *ref, snapshot, mode); !s)
        return s;
    return storeSeries(ctx, *ref, snapshot, mode);
}

Status TelemetryRowWriter::setPointSummary(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                                           int pointIndex, const nlohmann::json &summary)
{
    auto ref = ctx.point(runUuid, scenarioIndex, pointIndex);
    if (!ref)
        return ref.error();
    auto st = ctx.db.prepare("INSERT OR REPLACE INTO point_telemetry(point_id, run_id, summary, "
                             "kv_cache_usage_peak, waiting_mean, stalled_requests, scrape_failures) "
                             "VALUES(?, ?, ?, ?, ?, ?, ?)");
    if (!st)
        return st.error();
    const nlohmann::json flat = summary.value("telemetry", nlohmann::json::object());
    auto num = [&](int i, const char *key) {
        const auto it = flat.find(key);
        if (it != flat.end() && it->is_number())
            st->bind(i, it->get<double>());
        else
            st->bindNull(i);
    };
    st->bind(1, ref->point).bind(2, ref->run).bind(3, summary.dump());
    num(4, "kv_cache_usage_peak");
    num(5, "waiting_mean");
    num(6, "stalled_requests");
    num(7, "scrape_failures");
    return ctx.run(*st, "set point telemetry");
}

} // namespace Throughline
