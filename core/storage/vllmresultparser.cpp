#include "core/storage/vllmresultparser.h"

#include "core/storage/importsupport.h"

#include <QDateTime>

#include <cmath>
#include <regex>

namespace Throughline {

namespace {

using nlohmann::json;

std::string str(const json &o, const char *key)
{
    auto it = o.find(key);
    if (it == o.end() || it->is_null())
        return {};
    return it->is_string() ? it->get<std::string>() : it->dump();
}

// "4xNVIDIA_L40S" → (NVIDIA_L40S, 4); "Standard_ND96asr_v4 x 1" → (Standard_ND96asr_v4, 1)
std::pair<std::string, int> gpuOf(const std::string &s)
{
    static const std::regex lead(R"(^\s*(\d+)\s*[xX×]\s*(.+)$)"), trail(R"(^(.+?)\s*[xX×]\s*(\d+)\s*$)");
    std::smatch m;
    if (std::regex_match(s, m, lead))
        return {m[2].str(), std::stoi(m[1].str())};
    if (std::regex_match(s, m, trail))
        return {m[1].str(), std::stoi(m[2].str())};
    return {s, 0};
}

json stats(const json &o, const std::string &metric, double scale, const std::string &suffix)
{
    json b = json::object();
    auto get = [&](const std::string &key) {
        auto it = o.find(key);
        return it == o.end() ? kNaN : ImportSupport::number(*it) * scale;
    };
    b["mean"] = ImportSupport::num(get("mean_" + metric + suffix));
    b["p50"] = ImportSupport::num(get("median_" + metric + suffix));
    b["std"] = ImportSupport::num(get("std_" + metric + suffix));
    for (const auto &[key, name] :
         {std::pair{"p90", "p90_"}, {"p95", "p95_"}, {"p99", "p99_"}, {"p999", "p99.9_"}})
        b[key] = ImportSupport::num(get(name + metric + suffix));
    return b;
}

Status point(ImportedRun &out, const json &o, const std::string &path, int line)
{
    const std::string where = path + ":" + std::to_string(line);
    if (o.contains("client_command"))
        return makeError(ErrorCode::InvalidInput,
                         where +
                             ": a vLLM nightly-benchmark command file (client_command, gpu_type) holds no "
                             "results; import the result JSON it produced");
    const bool inferencex = o.contains("tput_per_gpu") && o.contains("conc");
    const bool sglang = o.contains("median_e2e_latency_ms");
    const bool vllm =
        o.contains("completed") && (o.contains("mean_ttft_ms") || o.contains("median_ttft_ms") ||
                                    o.contains("input_lens") || o.contains("output_throughput"));
    if (!inferencex && !sglang && !vllm)
        return makeError(
            ErrorCode::InvalidInput,
            where + ": not a vLLM bench serve result (expected keys such as completed, mean_ttft_ms, "
                    "output_throughput)");
    ImportedPoint p;
    json metrics = json::object();
    std::string model, backend, gpuLabel, phase = "imported";
    int gpus = 0, isl = 0, osl = 0;
    json load = json::object();
    if (inferencex) {
        out.format = "inferencex";
        model = str(o, "model");
        backend = str(o, "framework");
        gpuLabel = str(o, "hw");
        gpus = static_cast<int>(ImportSupport::number(o.value("tp", json(0)), 0)) *
               std::max(1, static_cast<int>(ImportSupport::number(o.value("dp", json(1)), 1)));
        isl = o.value("isl", 0);
        osl = o.value("osl", 0);
        load = {{"mode", "concurrency"}, {"concurrency", o.value("conc", 0)}};
        // InferenceX latencies are in seconds; interactivity is tokens/s per user.
        metrics["ttft_ms"] = stats(o, "ttft", 1000.0, "");
        metrics["tpot_ms"] = stats(o, "tpot", 1000.0, "");
        metrics["chunk_gap_ms"] = stats(o, "itl", 1000.0, "");
        metrics["e2e_ms"] = stats(o, "e2el", 1000.0, "");
        metrics["interactivity_tps_user"] = stats(o, "intvty", 1.0, "");
        metrics["output_tps_per_gpu"] =
            ImportSupport::num(ImportSupport::number(o.value("output_tput_per_gpu", json())));
        metrics["total_tps_per_gpu"] =
            ImportSupport::num(ImportSupport::number(o.value("tput_per_gpu", json())));
        metrics["input_tps_per_prefill_gpu"] =
            ImportSupport::num(ImportSupport::number(o.value("input_tput_per_gpu", json())));
    } else {
        out.format = sglang ? "sglang" : "vllm";
        model = str(o, "model_id");
        if (model.empty())
            model = str(o, "model");
        backend = str(o, "backend");
        auto [g, n] = gpuOf(str(o, "gpu"));
        gpuLabel = g;
        gpus = n;
        if (!str(o, "deployment").empty())
            phase = str(o, "deployment");
        isl = static_cast<int>(ImportSupport::number(o.value("random_input_len", json(0)), 0));
        osl = static_cast<int>(ImportSupport::number(o.value("random_output_len", json(0)), 0));
        if (isl == 0 && o.contains("input_len"))
            isl = std::atoi(str(o, "input_len").c_str());
        if (osl == 0 && o.contains("output_len"))
            osl = std::atoi(str(o, "output_len").c_str());
        const json &mc = o.value("max_concurrency", json());
        if (mc.is_number())
            load = {{"mode", "concurrency"}, {"concurrency", mc.get<int>()}};
        else
            load = {{"mode", "rate"},
                    {"rate", ImportSupport::num(ImportSupport::number(o.value("request_rate", json())))}};
        metrics["ttft_ms"] = stats(o, "ttft", 1.0, "_ms");
        metrics["tpot_ms"] = stats(o, "tpot", 1.0, "_ms");
        metrics["chunk_gap_ms"] = stats(o, "itl", 1.0, "_ms");
        metrics["e2e_ms"] = sglang ? stats(o, "e2e_latency", 1.0, "_ms") : stats(o, "e2el", 1.0, "_ms");
        metrics["output_tps"] =
            ImportSupport::num(ImportSupport::number(o.value("output_throughput", json())));
        metrics["request_rate"] =
            ImportSupport::num(ImportSupport::number(o.value("request_throughput", json())));
        metrics["total_tps"] =
            ImportSupport::num(ImportSupport::number(o.value("total_token_throughput", json())));
        if (gpus > 0 && metrics["output_tps"].is_number())
            metrics["output_tps_per_gpu"] = metrics["output_tps"].get<double>() / gpus;
        const std::string date = str(o, "date"); // "20250414-141706", local time of the client
        if (out.run.t0UnixNs == 0 && !date.empty()) {
            const QDateTime dt =
                QDateTime::fromString(QString::fromStdString(date), QStringLiteral("yyyyMMdd-HHmmss"));
            if (dt.isValid())
                out.run.t0UnixNs = dt.toMSecsSinceEpoch() * 1'000'000;
        }
        if (o.contains("benchmark_start_time_unix") && out.run.t0UnixNs == 0)
            out.run.t0UnixNs =
                static_cast<std::int64_t>(ImportSupport::number(o["benchmark_start_time_unix"], 0) * 1e9);
    }
    p.scenarioIndex = ImportSupport::scenarioFor(out.run, model, backend, gpuLabel, gpus, phase, isl, osl);
    int idx = 0;
    for (const ImportedPoint &q : out.points)
        idx += q.scenarioIndex == p.scenarioIndex;
    p.pointIndex = idx;
    p.config = {{"load", load}, {"source_line", line}};
    const int completed = static_cast<int>(ImportSupport::number(o.value("completed", json(0)), 0));
    const int prompts =
        static_cast<int>(ImportSupport::number(o.value("num_prompts", json(completed)), completed));
    p.aggregates = {{"load", load},
                    {"window_s", ImportSupport::num(ImportSupport::number(o.value("duration", json())))},
                    {"n_sent", std::max(prompts, completed)},
                    {"n_ok", completed},
                    {"metrics", metrics},
                    {"source", {{"format", out.format}, {"line", line}}}};

    // Per-request lists (--save-detailed). Lengths must agree; a short list is a corrupt record.
    const std::size_t n =
        o.contains("output_lens") && o["output_lens"].is_array() ? o["output_lens"].size() : 0;
    for (const char *key : {"input_lens", "ttfts", "itls", "errors"}) {
        if (o.contains(key) && (!o[key].is_array() || o[key].size() != n))
            return makeError(ErrorCode::InvalidInput,
                             where + ": field '" + key + "' has " +
                                 std::to_string(o[key].is_array() ? o[key].size() : 0) +
                                 " entries, output_lens has " + std::to_string(n));
    }
    for (std::size_t i = 0; i < n; ++i) {
        RequestRecord r;
        r.seq = i;
        r.scenarioIndex = p.scenarioIndex;
        r.pointIndex = p.pointIndex;
        const std::string at = where + ": request " + std::to_string(i);
        if (!o["output_lens"][i].is_number())
            return makeError(ErrorCode::InvalidInput, at + ": output_lens entry is not a number");
        r.nOut = o["output_lens"][i].get<int>();
        r.usage.completionTokens = r.nOut;
        r.nOutSource = TokenCountSource::Tokenizer; // vLLM counts output tokens with the tokenizer
        if (o.contains("input_lens"))
            r.usage.promptTokens = o["input_lens"][i].is_number() ? o["input_lens"][i].get<int>() : -1;
        if (o.contains("errors") && o["errors"][i].is_string() &&
            !o["errors"][i].get<std::string>().empty()) {
            r.error = ErrorClass::HttpStatus;
            r.errorDetail = o["errors"][i].get<std::string>().substr(0, 500);
        }
        if (o.contains("ttfts")) {
            // Send times are not in the file: each request's clock starts at 0 (TTFT/TPOT/E2E stay exact).
            r.tSend = 0;
            const json &ttft = o["ttfts"][i];
            if (!ttft.is_number() && !ttft.is_null())
                return makeError(ErrorCode::InvalidInput, at + ": ttfts entry is not a number");
            if (ttft.is_number() && r.ok()) {
                std::int64_t t = std::llround(ttft.get<double>() * 1e9);
                r.events.push_back({t, StreamEvent::Kind::Content, -1});
                if (o.contains("itls")) {
                    if (!o["itls"][i].is_array())
                        return makeError(ErrorCode::InvalidInput, at + ": itls entry is not a list");
                    for (const json &gap : o["itls"][i]) {
                        if (!gap.is_number())
                            return makeError(ErrorCode::InvalidInput, at + ": itls holds a non-number");
                        t += std::llround(gap.get<double>() * 1e9);
                        r.events.push_back({t, StreamEvent::Kind::Content, -1});
                    }
                }
                r.tEnd = t;
                r.httpStatus = 200;
            }
        }
        p.requests.push_back(std::move(r));
    }
    out.points.push_back(std::move(p));
    return Ok{};
}

} // namespace

Result<ImportedRun> VllmResultParser::parse(const std::string &path, const std::string &text)
{
    ImportedRun out;
    out.run.uuid = ImportSupport::newUuid();
    out.run.source = "vllm";
    out.run.campaignName = "imported";
    out.run.provenance = {{"imported_from", path}};
    std::vector<std::pair<int, json>> records;
    if (ImportSupport::looksLikeJsonLines(text)) {
        auto lines = ImportSupport::parseJsonLines(text, path);
        if (!lines)
            return lines.error();
        records = std::move(*lines);
    } else {
        auto doc = ImportSupport::parseJson(text, path);
        if (!doc)
            return doc.error();
        if (!doc->is_object())
            return makeError(ErrorCode::InvalidInput, path + ":1: expected a JSON object");
        records.emplace_back(1, std::move(*doc));
    }
    if (records.empty())
        return makeError(ErrorCode::InvalidInput, path + ": empty file");
    for (const auto &[line, o] : records) {
        if (auto s = point(out, o, path, line); !s)
            return s.error();
    }
    out.run.source = out.format;
    if (out.run.t0UnixNs == 0)
        out.run.t0UnixNs = ImportSupport::nowUnixNs();
    out.run.provenance["format"] = out.format;
    out.run.provenance["records"] = records.size();
    return out;
}

} // namespace Throughline
