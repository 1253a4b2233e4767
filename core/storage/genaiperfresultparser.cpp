#include "core/storage/genaiperfresultparser.h"

#include "core/storage/importsupport.h"

namespace Throughline {

Result<ImportedRun> GenaiPerfResultParser::parse(const std::string &path, const std::string &text)
{
    using nlohmann::json;
    auto doc = ImportSupport::parseJson(text, path);
    if (!doc)
        return doc.error();
    if (!doc->is_object() || !doc->contains("request_latency") || !doc->contains("input_config"))
        return makeError(ErrorCode::InvalidInput,
                         path +
                             ":1: not a GenAI-Perf profile export (request_latency or input_config missing)");
    const json &cfg = (*doc)["input_config"];
    ImportedRun out;
    out.format = "genai-perf";
    out.run.uuid = ImportSupport::newUuid();
    out.run.source = "genai-perf";
    out.run.campaignName = "imported";
    out.run.provenance = {{"imported_from", path}, {"format", "genai-perf"}};
    std::string model, backend;
    json load = json::object();
    if (cfg.contains("perf_analyzer")) { // newer nested config
        if (cfg.contains("model_names") && cfg["model_names"].is_array() && !cfg["model_names"].empty())
            model = cfg["model_names"][0].get<std::string>();
        backend = cfg.value("endpoint", json::object()).value("backend", std::string());
        const json stim = cfg["perf_analyzer"].value("stimulus", json::object());
        if (stim.contains("concurrency"))
            load = {{"mode", "concurrency"}, {"concurrency", stim["concurrency"]}};
        else if (stim.contains("request_rate"))
            load = {{"mode", "rate"}, {"rate", stim["request_rate"]}};
    } else { // older flat config
        if (cfg.contains("model") && cfg["model"].is_array() && !cfg["model"].empty())
            model = cfg["model"][0].get<std::string>();
        backend = cfg.value("backend", std::string());
        if (cfg.contains("concurrency") && cfg["concurrency"].is_number())
            load = {{"mode", "concurrency"}, {"concurrency", cfg["concurrency"]}};
        else if (cfg.contains("request_rate") && cfg["request_rate"].is_number())
            load = {{"mode", "rate"}, {"rate", cfg["request_rate"]}};
    }
    ImportedPoint p;
    p.scenarioIndex = ImportSupport::scenarioFor(out.run, model, backend, "", 0, "imported", 0, 0);
    p.config = {{"load", load}};
    const json rc = doc->value("request_count", json::object());
    p.aggregates = {{"load", load},
                    {"n_ok", rc.is_object() ? rc.value("avg", json()) : json()},
                    {"metrics", ImportSupport::metricsFromBlocks(*doc)},
                    {"source", {{"format", "genai-perf"}}}};
    if (doc->contains("telemetry_stats"))
        out.run.provenance["telemetry_stats"] = (*doc)["telemetry_stats"];
    out.run.t0UnixNs = ImportSupport::nowUnixNs();
    out.points.push_back(std::move(p));
    return out;
}

} // namespace Throughline
