#pragma once
// vLLM `bench serve` / benchmark_serving.py result files (--save-result, with the --save-detailed per-request
// lists when present), one JSON object or JSON Lines of several runs; also SGLang bench_serving JSONL and
// InferenceX post-processed records, which share the lineage. Each record becomes one load point.

#include "core/storage/importedrun.h"
#include "core/util/result.h"

#include <string>

namespace Throughline {

class VllmResultParser
{
public:
    static Result<ImportedRun> parse(const std::string &path, const std::string &text);
};

} // namespace Throughline
