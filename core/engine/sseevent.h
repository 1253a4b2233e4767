#pragma once
// Classification of one SSE `data:` payload (off the hot path): content-event rule of ARCHITECTURE.md,
// usage extraction, error events. Pure function, no state.

#include "core/engine/requestrecord.h"

#include <string>
#include <string_view>

namespace Throughline {

struct SseEventInfo {
    StreamEvent::Kind kind = StreamEvent::Kind::Other;
    bool malformed = false;   // not JSON (and not [DONE])
    bool hasUsage = false;    // a "usage" object with at least completion_tokens or prompt_tokens
    Usage usage;              // valid when hasUsage
    std::string errorMessage; // for Kind::Error: the server's message (not yet redacted)
    std::string text;         // content text of choices[0] when requested (storeText), concatenated fields
};

// Content event: choices[0] holds a non-empty string in `text`, `delta.content`, `delta.reasoning`,
// `delta.reasoning_content`, `delta.tool_calls[*].function.name|arguments` or
// `delta.function_call.name|arguments`. Anything else is not content: role-only, empty strings, usage-only,
// finish-only, logprobs-only (and `delta.refusal`, which the rule does not list).
SseEventInfo classifySseEvent(std::string_view data, bool wantText = false);

} // namespace Throughline
