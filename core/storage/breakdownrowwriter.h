#pragma once
// Per-request server-timing breakdowns (schema v6, table request_breakdowns): one row per request of a point,
// keyed by (point id, seq), holding breakdownToJson (core/servertiming/breakdownjson.h). The SQL behind
// StorageWriter::setRequestBreakdowns.
//
// Thread affinity: the writer thread (WriterContext).

#include "core/servertiming/requestbreakdown.h"
#include "core/util/result.h"

#include <string>
#include <vector>

namespace Throughline {

struct WriterContext;

class BreakdownRowWriter
{
public:
    // Replaces the point's rows: a resumed or re-stored point never keeps breakdowns of requests it no longer
    // has. Two breakdowns with the same seq are refused (the key would silently keep one of them).
    static Status store(WriterContext &ctx, const std::string &runUuid, int scenarioIndex, int pointIndex,
                        const std::vector<RequestBreakdown> &breakdowns);
};

} // namespace Throughline
