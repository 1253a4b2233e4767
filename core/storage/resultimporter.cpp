#include "core/storage/resultimporter.h"

#include "core/metrics/pointaggregate.h"
#include "core/storage/aiperfresultparser.h"
#include "core/storage/genaiperfresultparser.h"
#include "core/storage/importsupport.h"
#include "core/storage/mlperfsummaryparser.h"
#include "core/storage/resultsummary.h"
#include "core/storage/runbundle.h"
#include "core/storage/storagewriter.h"
#include "core/storage/vllmresultparser.h"

#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace Throughline {

namespace {

using nlohmann::json;

Result<ResultImporter::Format> sniff(const std::string &path, const std::string &text)
{
    if (RunBundle::looksLikeSqlite(path))
        return ResultImporter::Format::Tlrun;
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return makeError(ErrorCode::InvalidInput, path + ": empty file");
    if (text[first] != '{' && text[first] != '[')
        return ResultImporter::Format::Aiperf; // CSV exports (the CSV parser names what it finds)
    // Look at the first JSON value (first line for JSON Lines).
    json head;
    if (ImportSupport::looksLikeJsonLines(text)) {
        auto lines = ImportSupport::parseJsonLines(text.substr(0, text.find('\n')), path);
        if (!lines)
            return lines.error();
        head = lines->front().second;
    } else {
        auto doc = ImportSupport::parseJson(text, path);
        if (!doc)
            return doc.error();
        head = std::move(*doc);
    }
    if (!head.is_object())
        return makeError(ErrorCode::InvalidInput, path + ":1: expected a JSON object");
    if (Mlperf::looksLikeResultSummary(head))
        return ResultImporter::Format::MlperfEndpoints;
    if (head.contains("metadata") && head.contains("metrics"))
        return ResultImporter::Format::Aiperf; // per-request JSONL
    if (head.contains("request_latency")) {
        const json cfg = head.value("input_config", json::object());
        if (head.contains("aiperf_version") || cfg.contains("loadgen"))
            return ResultImporter::Format::Aiperf;
        return ResultImporter::Format::GenaiPerf;
    }
    return ResultImporter::Format::Vllm;
}

const char *formatName(ResultImporter::Format f)
{
    switch (f) {
    case ResultImporter::Format::Auto:
        return "auto";
    case ResultImporter::Format::Vllm:
        return "vllm";
    case ResultImporter::Format::Aiperf:
        return "aiperf";
    case ResultImporter::Format::GenaiPerf:
        return "genai-perf";
    case ResultImporter::Format::Tlrun:
        return "tlrun";
    case ResultImporter::Format::MlperfEndpoints:
        return "mlperf-endpoints";
    }
    return "auto";
}

} // namespace

Result<ResultImporter::Format> ResultImporter::parseFormat(const std::string &name)
{
    if (name.empty() || name == "auto")
        return Format::Auto;
    if (name == "vllm")
        return Format::Vllm;
    if (name == "aiperf")
        return Format::Aiperf;
    if (name == "genai-perf")
        return Format::GenaiPerf;
    if (name == "tlrun")
        return Format::Tlrun;
    if (name == "mlperf-endpoints")
        return Format::MlperfEndpoints;
    return makeError(ErrorCode::InvalidInput,
                     "unknown import format '" + name +
                         "' (auto, vllm, aiperf, genai-perf, tlrun, mlperf-endpoints)");
}

Result<ImportedRun> ResultImporter::parse(const std::string &path, Format format)
{
    // A directory: MLPerf Endpoints' per-point layout (results/<system>/<model>/r<N>/result_summary.json).
    if (QFileInfo(QString::fromStdString(path)).isDir()) {
        if (format != Format::Auto && format != Format::MlperfEndpoints)
            return makeError(ErrorCode::InvalidInput, path + ": a directory is imported as mlperf-endpoints");
        return MlperfSummaryParser::parseDirectory(path);
    }
    auto text = ImportSupport::readFile(path);
    if (!text)
        return text.error();
    if (format == Format::Auto) {
        auto f = sniff(path, *text);
        if (!f)
            return f.error();
        format = *f;
    }
    switch (format) {
    case Format::Vllm:
        return VllmResultParser::parse(path, *text);
    case Format::GenaiPerf:
        return GenaiPerfResultParser::parse(path, *text);
    case Format::MlperfEndpoints:
        return MlperfSummaryParser::parse(path, *text);
    case Format::Aiperf: {
        const auto first = text->find_first_not_of(" \t\r\n");
        if (first == std::string::npos)
            return makeError(ErrorCode::InvalidInput, path + ": empty file");
        if ((*text)[first] != '{')
            return AiperfResultParser::parseCsv(path, *text);
        if (ImportSupport::looksLikeJsonLines(*text))
            return AiperfResultParser::parseJsonLines(path, *text);
        return AiperfResultParser::parseJson(path, *text);
    }
    case Format::Tlrun:
    case Format::Auto:
        break;
    }
    return makeError(ErrorCode::InvalidInput,
                     path + ": a run bundle is imported with RunBundle::importBundle");
}

Status ResultImporter::write(ImportedRun in, const std::string &historyPath)
{
    if (in.run.campaignJson.empty())
        in.run.campaignJson =
            json{{"imported", in.format}, {"file", in.run.provenance.value("imported_from", std::string())}}
                .dump();
    for (ImportedPoint &p : in.points) {
        // Per-request exports carry no aggregates: compute them with the metrics definitions.
        if ((!p.aggregates.is_object() || !p.aggregates.contains("metrics")) && !p.requests.empty()) {
            PointInput pi;
            pi.records = p.requests;
            pi.validity.minWindowS = 0; // the importer cannot know the campaign's window rule
            pi.confidenceLevel = kDefaultConfidenceLevel;
            const json load = p.config.value("load", json::object());
            if (load.value("mode", std::string()) == "rate") {
                pi.load.mode = PointLoad::Mode::Rate;
                pi.load.rate = load.value("rate", 0.0);
            } else {
                pi.load.concurrency = load.value("concurrency", 0);
            }
            const PointResult r = aggregatePoint(pi);
            p.aggregates = r.toJson();
            // GPU count unknown in these exports: per-GPU variants would silently divide by 1.
            for (const char *k : {"output_tps_per_gpu", "output_tps_per_decode_gpu", "total_tps_per_gpu",
                                  "input_tps_per_prefill_gpu"}) {
                if (p.aggregates.contains("metrics") && p.aggregates["metrics"].contains(k))
                    p.aggregates["metrics"][k] = nullptr;
                if (p.aggregates.contains("intervals"))
                    p.aggregates["intervals"]["metrics"].erase(k);
            }
            p.aggregates["source"] = {{"format", in.format}, {"derived", "from imported requests"}};
            p.windowStartNs = static_cast<std::int64_t>(r.w0S * 1e9);
            p.windowEndNs = static_cast<std::int64_t>(r.w1S * 1e9);
        }
    }
    StorageWriter writer;
    if (auto s = writer.open(historyPath); !s)
        return s;
    const std::string uuid = in.run.uuid;
    writer.beginGroup(); // the whole file in one transaction
    writer.beginRun(in.run);
    for (ImportedPoint &p : in.points) {
        writer.beginPoint(uuid, p.scenarioIndex, p.pointIndex, p.config);
        writer.addRequests(uuid, std::move(p.requests));
        writer.finishPoint(uuid, FinishedPoint{p.scenarioIndex, p.pointIndex, p.aggregates, "",
                                               p.windowStartNs, p.windowEndNs});
    }
    writer.finishRun(uuid, RunStatus::Completed);
    writer.endGroup();
    return writer.close();
}

Result<ResultImporter::Summary> ResultImporter::importFile(const std::string &path, Format format,
                                                           const std::string &historyPath)
{
    if (format == Format::Auto && RunBundle::looksLikeSqlite(path))
        format = Format::Tlrun;
    Summary sum;
    if (format == Format::Tlrun) {
        auto uuid = RunBundle::importBundle(path, historyPath);
        if (!uuid)
            return uuid.error();
        sum.uuid = *uuid;
        sum.format = "tlrun";
        return sum;
    }
    auto run = parse(path, format);
    if (!run)
        return run.error();
    sum.uuid = run->run.uuid;
    sum.format = run->format.empty() ? formatName(format) : run->format;
    sum.scenarios = static_cast<int>(run->run.scenarios.size());
    sum.points = static_cast<int>(run->points.size());
    for (const ImportedPoint &p : run->points)
        sum.requests += p.requests.size();
    if (auto s = write(std::move(*run), historyPath); !s)
        return s.error();
    return sum;
}

} // namespace Throughline
