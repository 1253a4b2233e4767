#pragma once
// Helpers shared by the format parsers of ResultImporter: lenient JSON (Python's Infinity/NaN), error
// positions, scenario building, metric-block mapping into the results.json vocabulary.

#include "core/storage/importedrun.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace Throughline {

class ImportSupport
{
public:
    static Result<std::string> readFile(const std::string &path);
    // Parses one JSON value. Bare Infinity/-Infinity/NaN (Python's json module) become the strings "inf",
    // "-inf", "nan". Errors name path, line (firstLine = line number of text[0]) and the parser's reason.
    static Result<nlohmann::json> parseJson(const std::string &text, const std::string &path,
                                            int firstLine = 1);
    // Splits JSON Lines; each element is (line number, parsed object). Empty lines are skipped.
    static Result<std::vector<std::pair<int, nlohmann::json>>> parseJsonLines(const std::string &text,
                                                                              const std::string &path);
    // True when the text holds more than one top-level JSON value on separate lines.
    static bool looksLikeJsonLines(const std::string &text);

    static double number(const nlohmann::json &j, double fallback = kNaN); // numbers only; "inf" → +inf
    static nlohmann::json num(double v);                                   // NaN → null
    static std::string newUuid();
    static std::int64_t nowUnixNs();

    // Index of the scenario (model, backend, gpu, gpus, phase) in run.scenarios, added when new.
    static int scenarioFor(RunStart &run, const std::string &model, const std::string &backend,
                           const std::string &gpu, int gpus, const std::string &phase, int isl, int osl);
    // {mean, min, max, std, p50, p90, p95, p99, p999, n} from a block with keys avg/mean, p50/median, ….
    // `scale` converts units (s → ms: 1000).
    static nlohmann::json statBlock(const nlohmann::json &block, double scale = 1.0);
    // AIPerf / GenAI-Perf metric blocks ({"unit", "avg", "p50", …}) → results.json point metrics.
    static nlohmann::json metricsFromBlocks(const nlohmann::json &doc);
};

} // namespace Throughline
