#pragma once
// Parsers of every per-request server-timing format Throughline knows (docs/server-timing.md). Each one
// reads what the format publishes, field by field, into a ServerTiming; a malformed or missing field gives
// an error naming the request and the field, so the caller can record it and go on with the run.
// Pure functions; no thread affinity.

#include "core/servertiming/servertiming.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

// Formats that ride in the response (the non-streamed body, or the final chunk of a stream): `body` is that
// JSON object; `request` names the request in errors (its X-Request-Id).
Result<ServerTiming> parseLlamaCppTimings(const nlohmann::json &body, std::string_view request);
Result<ServerTiming> parseVllmMetrics(const nlohmann::json &body, std::string_view request);
Result<ServerTiming> parseSglangMetaInfo(const nlohmann::json &body, std::string_view request);
Result<ServerTiming> parseDynamoNvextTiming(const nlohmann::json &body, std::string_view request);
// Dispatch by format; Unsupported for the fetched formats.
Result<ServerTiming> parseInlineTiming(TimingFormat format, const nlohmann::json &body,
                                       std::string_view request);

// A fetched document holds many requests: the good ones are kept, each bad one is one problem.
struct TimingBatch {
    std::vector<ServerTiming> timings;
    std::vector<Error> problems;
};

// Dynamo's request trace (`dynamo.request.trace.v1` JSONL, plain rows or srt-slurm's {"timestamp", "event"}
// wrapper). Only `request_end` rows carry timing; tool rows and blank lines are skipped.
TimingBatch parseDynamoTrace(std::string_view jsonl);
// TensorRT-LLM's `GET /perf_metrics`: a JSON list of finished requests (engine ids, steady-clock seconds).
TimingBatch parseTrtllmPerfMetrics(std::string_view json);
// Dispatch by format; for an inline format, one JSON body per line.
TimingBatch parseFetchedTiming(TimingFormat format, std::string_view text);

} // namespace Throughline
