#pragma once
// Fetching a server's timing document after a load point: an HTTP GET (TensorRT-LLM /perf_metrics) or a
// file the user names (Dynamo's request trace). Blocking; call from the run's thread, never the UI thread.

#include "core/util/result.h"

#include <string>
#include <vector>

namespace Throughline {

// GET url with the given extra header lines ("Name: value"); the body of a 2xx answer.
Result<std::string> fetchTimingUrl(const std::string &url, const std::vector<std::string> &headers = {},
                                   double timeoutS = 10);
// The file's bytes from `offset` on (a trace that grows during the run is read in pieces); offset is
// advanced to the end of the last complete line.
Result<std::string> readTimingFile(const std::string &path, long long &offset);

} // namespace Throughline
