#pragma once
// Response bodies of the simulated endpoint's generations, in vLLM's OpenAI-compatible shapes: the SSE
// chunks of a stream (role, token, usage) and the one JSON body of a non-streamed request. The SSE appenders
// write into the caller's buffer with no JSON library: they run per token on the write path. Pure functions
// of the request and the server options. Thread affinity: the calling session's strand.

#include "core/sim/simrequestcontext.h"

#include <string>
#include <string_view>

namespace Throughline::SimDetail {

struct ServerCore;

// `data: {"id":…,"object":…,"created":…,"model":…,"choices":[` — the start every chunk shares.
void appendChunkPrefix(std::string &s, const ServerCore &core, const RequestContext &ctx);
// `"usage":{…}` with `completion` generated tokens (and cached prompt tokens when prefix caching is on).
void appendUsage(std::string &s, const RequestContext &ctx, int completion);
// A chat stream's first event: the assistant role with empty content.
void appendRoleChunk(std::string &s, const ServerCore &core, const RequestContext &ctx);
// The event of token i (1-based); the last one carries the finish reason. `extra`: a member added to the
// chunk's object (the server's timing on the closing chunk), or empty.
void appendTokenChunk(std::string &s, const ServerCore &core, const RequestContext &ctx, int i,
                      std::string_view extra = {});
// A chat stream's closing usage event (stream_options.include_usage): empty choices, `completion` tokens.
void appendUsageChunk(std::string &s, const ServerCore &core, const RequestContext &ctx, int completion,
                      std::string_view extra = {});
// The whole body of a non-streamed request (all ctx.nOut tokens); `extra` as above.
std::string nonStreamBody(const ServerCore &core, const RequestContext &ctx, std::string_view extra = {});

} // namespace Throughline::SimDetail
