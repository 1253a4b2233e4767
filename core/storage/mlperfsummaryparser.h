#pragma once
// MLPerf Endpoints result_summary.json files (core/storage/resultsummary.h) as History runs: one file is one
// load point; a directory is read recursively, every result_summary.json in it one point (the client's
// results/<system>/<model>/r<N>/ layout and Throughline's DIR/mlperf/<scenario>/r<C>/), grouped into
// scenarios by the file's "throughline.scenario" or else by the directory above r<N>.

#include "core/storage/importedrun.h"
#include "core/util/result.h"

#include <string>

namespace Throughline {

class MlperfSummaryParser
{
public:
    static Result<ImportedRun> parse(const std::string &path, const std::string &text);
    static Result<ImportedRun> parseDirectory(const std::string &dir);
};

} // namespace Throughline
