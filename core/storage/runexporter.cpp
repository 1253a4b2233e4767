#include "core/storage/runexporter.h"

#include "core/results/resultsjson.h"

#include <QFile>
#include <QSaveFile>

#include <map>
#include <set>
#include <sstream>

namespace Throughline {

namespace {

using nlohmann::json;

void flatten(const json &j, const std::string &prefix, std::map<std::string, std::string> &out)
{
    if (j.is_object()) {
        for (const auto &[k, v] : j.items())
            flatten(v, prefix.empty() ? k : prefix + "_" + k, out);
    } else if (j.is_array()) {
        std::string joined;
        for (const auto &v : j)
            joined += (joined.empty() ? "" : ";") + (v.is_string() ? v.get<std::string>() : v.dump());
        out[prefix] = joined;
    } else if (j.is_string()) {
        out[prefix] = j.get<std::string>();
    } else if (!j.is_null()) {
        out[prefix] = j.dump();
    } else {
        out[prefix] = "";
    }
}

std::string csvCell(const std::string &s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s) {
        q += c;
        if (c == '"')
            q += '"';
    }
    return q + "\"";
}

} // namespace

Result<json> RunExporter::toJson(HistoryReader &reader, const std::string &uuid)
{
    auto d = reader.runDetail(uuid);
    if (!d)
        return d.error();
    const RunSummary &s = d->summary;
    json out = {{"schema", std::string(RunResults::kSchema)},
                {"run_id", s.uuid},
                {"tool_version", d->provenance.is_object()
                                     ? d->provenance.value("tool_version", std::string())
                                     : std::string()},
                {"started_utc", s.startedUtc},
                {"simulated", s.simulated},
                {"time_scale", s.timeScale},
                {"status", s.status},
                {"source", s.source},
                {"plan_id", s.planId},
                {"tags", s.tags},
                {"notes", s.notes},
                {"campaign", {{"name", s.campaignName}, {"sha256", s.campaignSha}}},
                {"scenarios", json::array()}};
    for (const ScenarioRow &sc : d->scenarios) {
        json js = {{"id", sc.key},
                   {"model", sc.model},
                   {"backend", sc.backend},
                   {"gpu", sc.gpu},
                   {"gpus", sc.gpus},
                   {"prefill_gpus", sc.prefillGpus},
                   {"decode_gpus", sc.decodeGpus},
                   {"phase", sc.phase},
                   {"isl", sc.isl},
                   {"osl", sc.osl},
                   {"verdict", sc.verdictJson.is_object()
                                   ? sc.verdictJson
                                   : json{{"status", sc.verdict.empty() ? "no_target" : sc.verdict}}},
                   {"points", json::array()}};
        for (const PointRow &p : d->points) {
            if (p.scenarioId != sc.id || p.status != "completed")
                continue;
            json jp = p.aggregates.is_object() ? p.aggregates : json::object();
            if (!jp.contains("load") && p.config.is_object() && p.config.contains("load"))
                jp["load"] = p.config["load"];
            js["points"].push_back(jp);
        }
        out["scenarios"].push_back(js);
    }
    return out;
}

Result<std::string> RunExporter::pointsCsv(HistoryReader &reader, const std::string &uuid)
{
    auto d = reader.runDetail(uuid);
    if (!d)
        return d.error();
    std::vector<std::map<std::string, std::string>> rows;
    std::vector<std::string> columns{"run_id",   "scenario", "model",  "backend",   "gpu",         "gpus",
                                     "phase",    "point",    "status", "load_mode", "concurrency", "rate",
                                     "window_s", "n_sent",   "n_ok",   "valid",     "flags"};
    std::set<std::string> metricCols;
    for (const PointRow &p : d->points) {
        const ScenarioRow *sc = nullptr;
        for (const ScenarioRow &s : d->scenarios) {
            if (s.id == p.scenarioId)
                sc = &s;
        }
        std::map<std::string, std::string> r;
        r["run_id"] = d->summary.uuid;
        r["scenario"] = sc ? sc->key : "";
        r["model"] = sc ? sc->model : "";
        r["backend"] = sc ? sc->backend : "";
        r["gpu"] = sc ? sc->gpu : "";
        r["gpus"] = sc ? std::to_string(sc->gpus) : "";
        r["phase"] = sc ? sc->phase : "";
        r["point"] = std::to_string(p.pointIndex);
        r["status"] = p.status;
        const json &agg = p.aggregates.is_object() ? p.aggregates : json::object();
        const json load = agg.contains("load") ? agg["load"] : p.config.value("load", json::object());
        r["load_mode"] = load.value("mode", std::string());
        r["concurrency"] = load.contains("concurrency") ? load["concurrency"].dump() : "";
        r["rate"] = load.contains("rate") ? load["rate"].dump() : "";
        for (const char *k : {"window_s", "n_sent", "n_ok"})
            r[k] = agg.contains(k) && !agg[k].is_null() ? agg[k].dump() : "";
        r["valid"] = p.valid < 0 ? "" : (p.valid ? "true" : "false");
        std::string flags;
        for (const auto &f : p.flags)
            flags += (flags.empty() ? "" : ";") + f;
        r["flags"] = flags;
        std::map<std::string, std::string> m;
        if (agg.contains("metrics"))
            flatten(agg["metrics"], "", m);
        for (const auto &[k, v] : m) {
            metricCols.insert(k);
            r[k] = v;
        }
        rows.push_back(std::move(r));
    }
    columns.insert(columns.end(), metricCols.begin(), metricCols.end());
    std::ostringstream out;
    for (std::size_t i = 0; i < columns.size(); ++i)
        out << (i ? "," : "") << columns[i];
    out << '\n';
    for (const auto &r : rows) {
        for (std::size_t i = 0; i < columns.size(); ++i) {
            auto it = r.find(columns[i]);
            out << (i ? "," : "") << csvCell(it == r.end() ? std::string() : it->second);
        }
        out << '\n';
    }
    return out.str();
}

Result<std::string> RunExporter::requestsCsv(HistoryReader &reader, const std::string &uuid)
{
    auto pts = reader.points({uuid});
    if (!pts)
        return pts.error();
    std::ostringstream out;
    out << "run_id,scenario,point,seq,warmup,t_sched_ns,t_send_ns,t_first_token_ns,t_last_token_ns,t_end_ns,"
           "ttft_us,"
           "tpot_us,e2e_us,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,n_out,n_out_source,"
           "n_first,"
           "n_content,error_class,http_status\n";
    auto v = [](std::int64_t x) { return x < 0 ? std::string() : std::to_string(x); };
    for (const PointRow &p : *pts) {
        auto rows = reader.requests(p.id);
        if (!rows)
            return rows.error();
        for (const RequestRow &r : *rows) {
            out << uuid << ',' << csvCell(p.scenarioKey) << ',' << p.pointIndex << ',' << r.seq << ','
                << (r.warmup ? 1 : 0) << ',' << v(r.tSchedNs) << ',' << v(r.tSendNs) << ','
                << v(r.tFirstTokenNs) << ',' << v(r.tLastTokenNs) << ',' << v(r.tEndNs) << ',' << v(r.ttftUs)
                << ',' << v(r.tpotUs) << ',' << v(r.e2eUs) << ',' << v(r.promptTokens) << ','
                << v(r.completionTokens) << ',' << v(r.cachedTokens) << ',' << v(r.reasoningTokens) << ','
                << v(r.nOut) << ',' << r.nOutSource << ',' << r.nFirst << ',' << r.nContent << ','
                << r.errorClass << ',' << r.httpStatus << '\n';
        }
    }
    return out.str();
}

Status RunExporter::writeFile(const std::string &path, const std::string &content)
{
    QSaveFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, "cannot write " + path + ": " + f.errorString().toStdString());
    f.write(content.data(), static_cast<qint64>(content.size()));
    if (!f.commit())
        return makeError(ErrorCode::Io, "cannot write " + path + ": " + f.errorString().toStdString());
    return Ok{};
}

} // namespace Throughline
