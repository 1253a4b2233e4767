#pragma once
// Matching server entries that carry only the engine's own ids (TensorRT-LLM /perf_metrics) to the client's
// requests: first a monotone alignment of the two sequences (client by send time, server by arrival time)
// on each request's latency signature (time to first token and to last token from arrival/send), which
// survives dropped entries (a bounded queue) and foreign requests; then, on the clock fitted from that
// alignment, each entry is given the nearest free request by aligned arrival time and signature.
// Pure computation.

#include "core/servertiming/requestbreakdown.h"

#include <vector>

namespace Throughline {

// For each client request, the index of its entry in `entries`, or -1.
std::vector<int> matchByOrderAndTime(const std::vector<ClientTimes> &clients,
                                     const std::vector<ServerTiming> &entries);

} // namespace Throughline
