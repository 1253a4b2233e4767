#pragma once
// Stored requests back as RequestRecords, for consumers written against the engine's records (requests.csv
// of a resumed run, re-analysis): every column of the narrow row, the stream events (times within 1 µs of
// the original: eventcodec.h), the error detail; not the curl total time, HTTP version or text.
//
// Thread affinity: that of the HistoryReader given (one per thread).

#include "core/engine/requestrecord.h"
#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

class HistoryReader;

class StoredRecords
{
public:
    // Requests of one point (warm-up included) in the order they were written, with scenarioIndex and
    // pointIndex set from the point row. An unknown point gives an empty list.
    static Result<std::vector<RequestRecord>> ofPoint(HistoryReader &reader, std::int64_t pointId);
    // The same by run uuid and indexes; NotFound naming them when that point is not stored.
    static Result<std::vector<RequestRecord>> ofPoint(HistoryReader &reader, const std::string &runUuid,
                                                      int scenarioIndex, int pointIndex);
};

} // namespace Throughline
