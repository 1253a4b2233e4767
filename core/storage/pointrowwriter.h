#pragma once
// Load point rows: a point starts (status 'running', its config and wall-clock start), finishes (aggregates
// in the metric vocabulary plus their indexed copies, verdict, window), or — on resume — loses the partial
// requests of an interrupted attempt and becomes 'pending' again. The SQL behind StorageWriter's point jobs.
//
// Thread affinity: the writer thread (WriterContext).

#include "core/storage/storagetypes.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace Throughline {

struct WriterContext;

class PointRowWriter
{
public:
    // `config` null keeps the stored (planned) config.
    static Status begin(WriterContext &ctx, const std::string &runUuid, int scenarioIndex, int pointIndex,
                        const nlohmann::json &config, std::int64_t startedUnixNs);
    static Status reset(WriterContext &ctx, const std::string &runUuid, int scenarioIndex, int pointIndex);
    static Status finish(WriterContext &ctx, const std::string &runUuid, const FinishedPoint &result);
};

} // namespace Throughline
