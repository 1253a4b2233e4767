#pragma once
// Imports result files into the history database: our bundles, vLLM bench serve results (incl.
// --save-detailed per-request lists; SGLang and InferenceX variants), AIPerf (JSON, JSONL, CSV), GenAI-Perf
// exports and MLPerf Endpoints result_summary.json files (one, or a directory of them). The whole file is
// parsed first and then written in one transaction: a file whose Nth record is corrupt leaves the database
// unchanged, and the error names the file and the line. Blocking; call from a worker thread or the CLI.

#include "core/storage/importedrun.h"
#include "core/util/result.h"

#include <string>

namespace Throughline {

class ResultImporter
{
public:
    enum class Format { Auto, Vllm, Aiperf, GenaiPerf, Tlrun, MlperfEndpoints };
    static Result<Format>
    parseFormat(const std::string &name); // auto|vllm|aiperf|genai-perf|tlrun|mlperf-endpoints

    struct Summary {
        std::string uuid;
        std::string format; // detected format
        int scenarios = 0, points = 0;
        std::size_t requests = 0;
    };

    static Result<Summary> importFile(const std::string &path, Format format, const std::string &historyPath);
    // Parsing only (no database): used by tests and by importFile.
    static Result<ImportedRun> parse(const std::string &path, Format format);
    // Writes a parsed run in one transaction; aggregates of points that carry requests but no metrics are
    // computed from the requests with core/metrics.
    static Status write(ImportedRun run, const std::string &historyPath);
};

} // namespace Throughline
