#pragma once
// AIPerf exports: profile_export_aiperf.json (aggregates), profile_export.jsonl (one record per request,
// errors included) and profile_export_aiperf.csv (the aggregates as CSV). Each file becomes one load point.

#include "core/storage/importedrun.h"
#include "core/util/result.h"

#include <string>

namespace Throughline {

class AiperfResultParser
{
public:
    static Result<ImportedRun> parseJson(const std::string &path, const std::string &text);
    static Result<ImportedRun> parseJsonLines(const std::string &path, const std::string &text);
    static Result<ImportedRun> parseCsv(const std::string &path, const std::string &text);
};

} // namespace Throughline
