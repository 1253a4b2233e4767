#pragma once
// TensorRT-LLM `trtllm-serve` GET /metrics: a JSON array of per-iteration executor statistics
// (IterationStats serialised by the executor; the endpoint returns the iterations queued since the previous
// call, so it may be an empty array). Written against the documented shape — there is no captured sample in
// ../shared/data/samples/ — with the fields:
//   iter, timestamp, iterLatencyMS, numActiveRequests, numQueuedRequests, numCompletedRequests,
//   maxNumActiveRequests, gpuMemUsage, cpuMemUsage, pinnedMemUsage,
//   kvCacheStats{maxNumBlocks, freeNumBlocks, usedNumBlocks, tokensPerBlock, allocTotalBlocks,
//   allocNewBlocks,
//                reusedBlocks, missedBlocks, cacheHitRate},
//   inflightBatchingStats{numScheduledRequests, numContextRequests, numGenRequests, numPausedRequests,
//                         numCtxTokens, microBatchId, avgNumDecodedTokensPerIter}
// Missing fields are tolerated (each field is optional); a non-object element is reported as an issue.
//
// The result is expressed as Prometheus-like samples named `trtllm_iter:*` so the same name map and store
// apply: gauges from the LAST iteration in the array (running, queued, KV usage, memory), and Delta samples
// summed over the array (context tokens, estimated generated tokens, iterations, completed requests), which
// the store turns into per-second rates. Generated tokens per iteration are estimated as
// numGenRequests × max(1, avgNumDecodedTokensPerIter) (speculative decoding emits several per step).
// Caveat: because the endpoint dequeues, a second client polling the same server steals iterations.
// Pure function, thread-safe.

#include "core/telemetry/parsedexposition.h"
#include "core/util/result.h"

#include <string_view>

namespace Throughline {

class TrtllmStatsParser
{
public:
    // Error only when the body is not JSON or not an array/object at top level.
    static Result<ParsedExposition> parse(std::string_view body);
};

} // namespace Throughline
