#pragma once
// The narrow request row (schema.cpp "requests") plus its event blob (eventcodec.h), compressed text (when
// the run stores text) and error detail: what StorageWriter::addRequests writes per RequestRecord. Derived
// TTFT/TPOT/E2E are computed here in µs (NULL when undefined), once, so readers never decode events.
//
// Thread affinity: the writer thread (WriterContext).

#include "core/engine/requestrecord.h"
#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

struct WriterContext;

class RequestRowWriter
{
public:
    // Records of run `runUuid`, each under its own (scenarioIndex, pointIndex) point row.
    static Status insertAll(WriterContext &ctx, const std::string &runUuid,
                            const std::vector<RequestRecord> &records);
    static Status insert(WriterContext &ctx, std::int64_t pointId, bool storeText, const RequestRecord &r);
};

} // namespace Throughline
