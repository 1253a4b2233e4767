#pragma once
// Parsing of the simulated endpoint's generation requests (POST /v1/completions, /v1/chat/completions):
// the JSON body → prompt token count (through the model's chat template for chat) and prefix-cache block
// hashes, output length, stream options, request id and injected fault. Kept apart from the HTTP session so
// that it compiles without Boost.Beast. Thread affinity: the calling session's strand; ServerCore's RNG and
// counters are thread-safe.

#include "core/sim/simrequestcontext.h"
#include "core/tokenizer/chattemplate.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace Throughline::SimDetail {

struct ServerCore;

// Why a request is refused: the HTTP status and the OpenAI-style error's message and `param`.
struct RequestError {
    int status = 400;
    std::string message;
    const char *param = nullptr;
};

// The request's "messages" (string or text-part contents) as chat messages; an error when absent or
// malformed.
std::optional<RequestError> parseChatMessages(const nlohmann::json &body, std::vector<ChatMessage> &messages);

// Fills `ctx` (api, times, lengths, stream options, id, fault) and `prefixHashes` from `body`; the caller
// sets ctx.requestId and ctx.keepAlive. Only a valid request draws from the server's RNG and advances its
// sequence and request counters, so refused requests do not shift the seeded output lengths and faults.
std::optional<RequestError> parseGenerationRequest(ServerCore &core, Api api, const std::string &body,
                                                   RequestContext &ctx,
                                                   std::vector<std::uint64_t> &prefixHashes);

} // namespace Throughline::SimDetail
