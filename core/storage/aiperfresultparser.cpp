#include "core/storage/aiperfresultparser.h"

#include "core/storage/importsupport.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace Throughline {

namespace {

using nlohmann::json;

ImportedRun emptyRun(const std::string &path, const std::string &format)
{
    ImportedRun out;
    out.format = format;
    out.run.uuid = ImportSupport::newUuid();
    out.run.source = format;
    out.run.campaignName = "imported";
    out.run.provenance = {{"imported_from", path}, {"format", format}};
    return out;
}

std::string firstModel(const json &config)
{
    for (const json *names : {config.contains("endpoint") ? &config["endpoint"] : nullptr, &config}) {
        if (!names || !names->is_object())
            continue;
        for (const char *key : {"model_names", "model"}) {
            if (auto it = names->find(key); it != names->end()) {
                if (it->is_array() && !it->empty() && it->front().is_string())
                    return it->front().get<std::string>();
                if (it->is_string())
                    return it->get<std::string>();
            }
        }
    }
    return {};
}

json loadOf(const json &loadgen)
{
    if (loadgen.is_object()) {
        if (auto c = loadgen.find("concurrency"); c != loadgen.end() && c->is_number())
            return {{"mode", "concurrency"}, {"concurrency", c->get<int>()}};
        if (auto r = loadgen.find("request_rate"); r != loadgen.end() && r->is_number())
            return {{"mode", "rate"}, {"rate", r->get<double>()}};
    }
    return json::object();
}

double avgOf(const json &doc, const char *key)
{
    auto it = doc.find(key);
    if (it == doc.end())
        return kNaN;
    if (it->is_object() && it->contains("avg"))
        return ImportSupport::number((*it)["avg"]);
    return ImportSupport::number(*it);
}

} // namespace

Result<ImportedRun> AiperfResultParser::parseJson(const std::string &path, const std::string &text)
{
    auto doc = ImportSupport::parseJson(text, path);
    if (!doc)
        return doc.error();
    if (!doc->is_object() || !doc->contains("request_latency"))
        return makeError(ErrorCode::InvalidInput,
                         path + ":1: not an AIPerf profile export (no request_latency block)");
    ImportedRun out = emptyRun(path, "aiperf");
    const json config = doc->value("input_config", json::object());
    const json load = loadOf(config.value("loadgen", json::object()));
    ImportedPoint p;
    p.scenarioIndex =
        ImportSupport::scenarioFor(out.run, firstModel(config), "unknown", "", 0, "imported", 0, 0);
    p.config = {{"load", load}, {"aiperf_version", doc->value("aiperf_version", std::string())}};
    const double ok = avgOf(*doc, "request_count");
    const double errors = avgOf(*doc, "error_request_count");
    p.aggregates = {
        {"load", load},
        {"window_s", ImportSupport::num(avgOf(*doc, "benchmark_duration"))},
        {"n_ok", ImportSupport::num(ok)},
        {"n_sent", ImportSupport::num((std::isnan(ok) ? 0 : ok) + (std::isnan(errors) ? 0 : errors))},
        {"metrics", ImportSupport::metricsFromBlocks(*doc)},
        {"source", {{"format", "aiperf"}}}};
    if (doc->contains("error_summary"))
        p.aggregates["errors_reported"] = (*doc)["error_summary"];
    // Telemetry (DCGM) is kept verbatim in provenance until core/telemetry owns telemetry_series.
    if (doc->contains("telemetry_data"))
        out.run.provenance["telemetry_data"] = (*doc)["telemetry_data"];
    const double start = avgOf(*doc, "min_request_timestamp");
    out.run.t0UnixNs = std::isnan(start) ? ImportSupport::nowUnixNs() : static_cast<std::int64_t>(start);
    out.points.push_back(std::move(p));
    return out;
}

Result<ImportedRun> AiperfResultParser::parseJsonLines(const std::string &path, const std::string &text)
{
    auto lines = ImportSupport::parseJsonLines(text, path);
    if (!lines)
        return lines.error();
    ImportedRun out = emptyRun(path, "aiperf");
    ImportedPoint p;
    p.scenarioIndex = ImportSupport::scenarioFor(out.run, "unknown", "unknown", "", 0, "imported", 0, 0);
    std::int64_t t0 = std::numeric_limits<std::int64_t>::max();
    for (const auto &[line, o] : *lines) {
        const json &meta = o.value("metadata", json());
        if (!meta.is_object() || !meta.contains("request_start_ns") || !meta["request_start_ns"].is_number())
            return makeError(ErrorCode::InvalidInput,
                             path + ":" + std::to_string(line) +
                                 ": not an AIPerf per-request record (metadata.request_start_ns missing)");
        t0 = std::min(t0, meta.value("credit_issued_ns", meta["request_start_ns"].get<std::int64_t>()));
        t0 = std::min(t0, meta["request_start_ns"].get<std::int64_t>());
    }
    std::uint64_t seq = 0;
    for (const auto &[line, o] : *lines) {
        const std::string at = path + ":" + std::to_string(line);
        const json &meta = o["metadata"];
        const json &m = o.value("metrics", json::object());
        auto metric = [&](const char *key) -> double {
            auto it = m.find(key);
            if (it == m.end() || !it->is_object())
                return kNaN;
            return ImportSupport::number(it->value("value", json()));
        };
        RequestRecord r;
        r.seq = seq++;
        r.scenarioIndex = p.scenarioIndex;
        r.warmup = meta.value("benchmark_phase", std::string()) == "warmup";
        const std::int64_t start = meta["request_start_ns"].get<std::int64_t>();
        r.tSched = meta.value("credit_issued_ns", start) - t0;
        r.tSend = start - t0;
        if (meta.contains("request_end_ns") && meta["request_end_ns"].is_number())
            r.tEnd = meta["request_end_ns"].get<std::int64_t>() - t0;
        if (meta.contains("request_ack_ns") && meta["request_ack_ns"].is_number())
            r.tFirstByte = meta["request_ack_ns"].get<std::int64_t>() - t0;
        if (o.contains("error") && !o["error"].is_null()) {
            const json &e = o["error"];
            const json code = e.value("code", json());
            r.error = code.is_number() ? ErrorClass::HttpStatus : ErrorClass::ServerErrorEvent;
            r.httpStatus = code.is_number() ? code.get<int>() : 0;
            r.errorDetail =
                (e.value("type", std::string()) + ": " + e.value("message", std::string())).substr(0, 500);
        } else {
            r.httpStatus = 200;
            const double ttft = metric("time_to_first_token");
            if (std::isnan(ttft))
                return makeError(ErrorCode::InvalidInput,
                                 at + ": successful record without metrics.time_to_first_token");
            std::int64_t t = r.tSend + std::llround(ttft * 1e6);
            r.events.push_back({t, StreamEvent::Kind::Content, -1});
            if (auto it = m.find("inter_chunk_latency"); it != m.end()) {
                const json &gaps = it->value("value", json());
                if (!gaps.is_array())
                    return makeError(ErrorCode::InvalidInput,
                                     at + ": metrics.inter_chunk_latency.value is not a list");
                for (const json &g : gaps) {
                    if (!g.is_number())
                        return makeError(ErrorCode::InvalidInput,
                                         at + ": inter_chunk_latency holds a non-number");
                    t += std::llround(g.get<double>() * 1e6);
                    r.events.push_back({t, StreamEvent::Kind::Content, -1});
                }
            }
        }
        auto intMetric = [&](const char *key) {
            const double v = metric(key);
            return std::isnan(v) ? -1 : static_cast<int>(v);
        };
        r.usage.promptTokens = intMetric("usage_prompt_tokens");
        if (r.usage.promptTokens < 0)
            r.usage.promptTokens = intMetric("input_sequence_length");
        r.usage.completionTokens = intMetric("usage_completion_tokens");
        r.usage.reasoningTokens = intMetric("usage_reasoning_tokens");
        r.nOut =
            r.usage.completionTokens >= 0 ? r.usage.completionTokens : intMetric("output_sequence_length");
        r.nOutSource = r.usage.completionTokens >= 0 ? TokenCountSource::Usage : TokenCountSource::Tokenizer;
        p.requests.push_back(std::move(r));
    }
    out.run.t0UnixNs = lines->empty() ? ImportSupport::nowUnixNs() : t0;
    p.config = {{"load", json::object()}, {"records", lines->size()}};
    p.aggregates = nlohmann::json::object(); // computed from the requests by ResultImporter
    out.points.push_back(std::move(p));
    return out;
}

Result<ImportedRun> AiperfResultParser::parseCsv(const std::string &path, const std::string &text)
{
    // Section 1: "Metric,avg,min,max,sum,p1,…" distribution rows; section 2: "Metric,Value" scalars.
    std::istringstream in(text);
    std::string raw;
    int line = 0;
    QStringList header;
    json blocks = json::object(), scalars = json::object();
    bool any = false;
    auto key = [](QString name) {
        // "Time to First Token (ms)" → "time_to_first_token"
        const int paren = name.indexOf(QLatin1Char('('));
        if (paren > 0)
            name = name.left(paren);
        return name.trimmed().toLower().replace(QLatin1Char(' '), QLatin1Char('_')).toStdString();
    };
    while (std::getline(in, raw)) {
        ++line;
        const QString l = QString::fromStdString(raw).trimmed();
        if (l.isEmpty()) {
            header.clear();
            continue;
        }
        if (l.startsWith(QLatin1Char('#')))
            continue;
        const QStringList cells = l.split(QLatin1Char(','));
        if (header.isEmpty()) {
            if (cells.value(0) == QStringLiteral("Endpoint") && cells.contains(QStringLiteral("Type")))
                return makeError(
                    ErrorCode::InvalidInput,
                    path + ":" + std::to_string(line) +
                        ": an AIPerf server-metrics export (Prometheus telemetry), not a benchmark "
                        "result; import profile_export_aiperf.json instead");
            if (cells.value(0) != QStringLiteral("Metric")) {
                if (any)
                    continue; // trailing sections (telemetry) are not imported
                return makeError(ErrorCode::InvalidInput,
                                 path + ":" + std::to_string(line) +
                                     ": not an AIPerf CSV export (expected a 'Metric,…' header)");
            }
            header = cells;
            continue;
        }
        if (header.size() == 2) {
            scalars[key(cells.value(0))] = cells.value(1).toDouble();
            continue;
        }
        if (cells.size() != header.size())
            return makeError(ErrorCode::InvalidInput,
                             path + ":" + std::to_string(line) + ": " + std::to_string(cells.size()) +
                                 " cells, the header has " + std::to_string(header.size()));
        json b = json::object();
        for (int i = 1; i < header.size(); ++i) {
            bool ok = false;
            const double v = cells[i].toDouble(&ok);
            if (ok)
                b[header[i].toStdString()] = v;
            else if (!cells[i].isEmpty())
                return makeError(ErrorCode::InvalidInput, path + ":" + std::to_string(line) + ": column '" +
                                                              header[i].toStdString() + "' is not a number");
        }
        blocks[key(cells.value(0))] = b;
        any = true;
    }
    if (!any)
        return makeError(ErrorCode::InvalidInput, path + ": no AIPerf metric rows found");
    for (const auto &[k, v] : scalars.items())
        blocks[k] = {{"avg", v}};
    ImportedRun out = emptyRun(path, "aiperf");
    ImportedPoint p;
    p.scenarioIndex = ImportSupport::scenarioFor(out.run, "unknown", "unknown", "", 0, "imported", 0, 0);
    const double ok = avgOf(blocks, "request_count");
    p.aggregates = {{"load", json::object()},
                    {"window_s", ImportSupport::num(avgOf(blocks, "benchmark_duration"))},
                    {"n_ok", ImportSupport::num(ok)},
                    {"n_sent", ImportSupport::num(avgOf(blocks, "completed_requests"))},
                    {"metrics", ImportSupport::metricsFromBlocks(blocks)},
                    {"source", {{"format", "aiperf-csv"}}}};
    const double start = avgOf(blocks, "minimum_request_timestamp");
    out.run.t0UnixNs = std::isnan(start) ? ImportSupport::nowUnixNs() : static_cast<std::int64_t>(start);
    out.points.push_back(std::move(p));
    return out;
}

} // namespace Throughline
