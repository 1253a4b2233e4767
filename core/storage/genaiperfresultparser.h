#pragma once
// GenAI-Perf profile_export_genai_perf.json (newer nested input_config and the older flat one): one load
// point.

#include "core/storage/importedrun.h"
#include "core/util/result.h"

#include <string>

namespace Throughline {

class GenaiPerfResultParser
{
public:
    static Result<ImportedRun> parse(const std::string &path, const std::string &text);
};

} // namespace Throughline
