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
    // The server's own steps (0 = not reached): handed to the scheduler, admitted, first token produced, KV
    // transfer (disaggregated), last token produced: the truth for the per-request server timing.
    for (const auto &[key, v] : {std::pair<const char *, std::int64_t>{"t_submit_ns", ctx.tSubmitNs},
                                 {"t_admitted_ns", ctx.tAdmittedNs},
                                 {"t_first_token_ns", ctx.tFirstTokenNs},
                                 {"t_kv_start_ns", ctx.tKvStartNs},
                                 {"t_kv_end_ns", ctx.tKvEndNs},
                                 {"t_last_token_ns", ctx.tLastTokenNs}}) {
        s += ",\"";
        s += key;
        s += "\":";
        appendInt(s, v);
    }
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
