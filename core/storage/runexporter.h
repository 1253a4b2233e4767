#pragma once
// Exports one stored run as results.json-shaped JSON or as CSV (points, flattened metric keys such as
// ttft_ms_p90; or the narrow request rows). Blocking; call from a worker thread or the CLI.

#include "core/storage/historyreader.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace Throughline {

class RunExporter
{
public:
    // results.json form ("schema": "throughline.results/5") plus status, tags, notes and source.
    static Result<nlohmann::json> toJson(HistoryReader &reader, const std::string &uuid);
    static Result<std::string> pointsCsv(HistoryReader &reader, const std::string &uuid);
    static Result<std::string> requestsCsv(HistoryReader &reader, const std::string &uuid);
    static Status writeFile(const std::string &path, const std::string &content);
};

} // namespace Throughline
