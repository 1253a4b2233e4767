#pragma once
// One generation request's parameters and progress inside an HTTP session of the simulated endpoint
// (core/sim/simsession.h). A plain value type, free of Boost, so that request parsing and response
// formatting compile without Beast. Thread affinity: the owning session's strand.

#include "core/sim/faultspec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline::SimDetail {

enum class Api { Completions, Chat };

struct RequestContext {
    Api api = Api::Chat;
    bool stream = false;
    bool includeUsage = false;
    bool continuousUsage = false;
    std::uint64_t seq = 0; // server-wide request number: the id's suffix and the scheduler's tag
    std::string id;
    std::string requestId; // X-Request-Id
    long long created = 0;
    int nPrompt = 0;
    int nCached = -1; // prompt tokens served from the prefix cache; -1 = prefix caching off
    int nOut = 1;
    int reasoningTokens = 0;
    std::string finishReason = "length";
    FaultKind fault = FaultKind::None;
    int faultAt = 1; // token index after which a mid-stream fault fires
    bool faultApplied = false;
    bool slowDone = false;
    std::int64_t tAcceptNs = 0;
    // Server timing (true steady ns; 0 = not reached): handed to the scheduler, admitted (first pool),
    // first token produced, KV transfer (disaggregated), last token produced. Copied from the scheduler's
    // callbacks on the strand (Session::flush).
    std::int64_t tSubmitNs = 0;
    std::int64_t tAdmittedNs = 0;
    std::int64_t tFirstTokenNs = 0;
    std::int64_t tKvStartNs = 0;
    std::int64_t tKvEndNs = 0;
    std::int64_t tLastTokenNs = 0;
    bool askedTiming = false; // nvext.extra_fields holds "timing" (Dynamo)
    std::int64_t tFirstWriteNs = 0;
    std::int64_t tLastWriteNs = 0;
    std::vector<std::int64_t> tokenWriteNs; // only with a ground-truth log
    int sent = 0;
    bool headerSent = false;
    bool responseDone = false;
    bool keepAlive = true;
};

} // namespace Throughline::SimDetail
