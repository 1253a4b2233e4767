#include "core/sim/simgroundtruthrecord.h"

#include "core/sim/simservercore.h"

#include <nlohmann/json.hpp>

namespace Throughline::SimDetail {

std::string groundTruthRecord(const RequestContext &ctx, std::int64_t tDoneNs, int nOut)
{
    std::string s;
    s.reserve(160 + ctx.tokenWriteNs.size() * 20);
    s += "{\"request_id\":";
    s += nlohmann::json(ctx.requestId).dump();
    s += ",\"clock\":\"CLOCK_MONOTONIC\",\"t_accept_ns\":";
    appendInt(s, ctx.tAcceptNs);
    s += ",\"t_first_token_write_ns\":";
    if (ctx.tFirstWriteNs)
        appendInt(s, ctx.tFirstWriteNs);
    else
        s += "null";
    s += ",\"t_token_write_ns\":[";
    for (size_t i = 0; i < ctx.tokenWriteNs.size(); ++i) {
        if (i)
            s += ',';
        appendInt(s, ctx.tokenWriteNs[i]);
    }
    s += "],\"t_done_ns\":";
    appendInt(s, tDoneNs);
    s += ",\"n_prompt\":";
    appendInt(s, ctx.nPrompt);
    s += ",\"n_out\":";
    appendInt(s, nOut);
    s += ",\"fault\":";
    if (ctx.fault == FaultKind::None)
        s += "null";
    else {
        s += '"';
        s += faultName(ctx.fault);
        s += '"';
    }
    s += '}';
    return s;
}

} // namespace Throughline::SimDetail
