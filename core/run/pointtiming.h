#pragma once
// A load point's server timing (Endpoint::serverTiming, docs/server-timing.md): the server's own account of
// each request — read from the record's closing chunk, or fetched once the point has finished (TensorRT-LLM
// /perf_metrics on every base URL, Dynamo's request trace from where the previous point's read stopped) —
// joined to the point's records on the wall clock, its parts then scaled into model time like every other
// latency of the point. Timing that is missing, malformed or cannot be fetched becomes counts and notes,
// never a failed point. Blocking (the fetch); run()'s thread.

#include "core/engine/requestrecord.h"
#include "core/metrics/timingsummary.h"

#include <string>
#include <vector>

namespace Throughline {

struct Scenario;

struct PointTimingSource {
    const TimingFormatInfo *format = nullptr; // null: the point has no server timing
    std::vector<std::string> urls;            // trtllm-perf: fetched after the point, in this order
    std::vector<std::string> headers;         // sent with each fetch ("Authorization: Bearer …")
    std::string file;                         // dynamo-trace: the server's JSONL
    long long *fileOffset = nullptr;          // in and out: where the previous point's read stopped
};

// The source of a scenario's points: none when its endpoint's server_timing is off (or "auto" and the
// backend preset publishes none); `baseUrls` are the point's endpoint URLs.
PointTimingSource pointTimingSource(const Scenario &scenario, const std::vector<std::string> &baseUrls);

struct PointTiming {
    ServerTimingSummary summary;              // empty when the source has no format
    std::vector<RequestBreakdown> breakdowns; // one per record, in the records' order; model time
    std::vector<std::string> notes;           // sentences for the point's validity notes (fetch failures)
};

// `records` on the wall clock (before toModelTime), sorted by seq; `runId` the X-Request-Id prefix.
PointTiming joinPointTiming(const PointTimingSource &source, const std::vector<RequestRecord> &records,
                            const std::string &runId, double timeScale);

// The validity note of a point whose successful requests lack server timing: how many, and the first problem.
std::string serverTimingMissingNote(const ServerTimingSummary &summary);

} // namespace Throughline
