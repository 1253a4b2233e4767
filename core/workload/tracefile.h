#pragma once
// Request traces for replay, Mooncake style: JSONL, one request per line,
// {"timestamp": ms since trace start, "input_length": tokens, "output_length": tokens, "hash_ids": [int, …]}
// (hash_ids optional: each id names one block of blockTokens prompt tokens; equal ids = equal content, so
// requests sharing leading ids share a prompt prefix). Timestamps may be unsorted; entries are sorted by
// time (stable). Pure data; immutable after load.

#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

struct TraceEntry {
    double timestampMs = 0;
    int inputLength = 0;
    int outputLength = 0;
    std::vector<std::int64_t> hashIds;
    int line = 0; // 1-based line in the file
};

class TraceFile
{
public:
    // Errors (InvalidInput / Io / NotFound) name "file:line: field: problem".
    static Result<TraceFile> load(const std::string &path);
    static Result<TraceFile> parse(std::string_view text, const std::string &sourceName);

    const std::vector<TraceEntry> &entries() const { return m_entries; }
    // Send offsets (ns from the point start) at the given speed-up: (t − t_first) / speedUp.
    std::vector<std::int64_t> offsetsNs(double speedUp) const;
    double durationS(double speedUp) const; // last offset, seconds

private:
    std::vector<TraceEntry> m_entries;
};

} // namespace Throughline
