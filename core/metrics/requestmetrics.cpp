#include "core/metrics/requestmetrics.h"

#include <limits>

namespace Throughline {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kNsPerMs = 1e6;

double msBetween(std::int64_t fromNs, std::int64_t toNs)
{
    if (fromNs == kNoTime || toNs == kNoTime)
        return kNaN;
    return static_cast<double>(toNs - fromNs) / kNsPerMs;
}

struct ResolvedCount {
    int n = 0;
    TokenCountSource source = TokenCountSource::EventCount;
    bool approximate = true;
};

// N_out: usage → tokenizer hook → the engine's tokenizer count → content events (approximate).
ResolvedCount resolveNOut(const RequestRecord &r, int nOutTokenizer, int contentEvents)
{
    if (r.usage.completionTokens >= 0)
        return {r.usage.completionTokens, TokenCountSource::Usage, false};
    if (nOutTokenizer >= 0)
        return {nOutTokenizer, TokenCountSource::Tokenizer, false};
    if (r.nOut >= 0 && r.nOutSource == TokenCountSource::Tokenizer)
        return {r.nOut, TokenCountSource::Tokenizer, false};
    return {contentEvents, TokenCountSource::EventCount, true};
}

// N_first: the first content event's own count → record.nFirst unless approximate → 1 (approximate).
ResolvedCount resolveNFirst(const RequestRecord &r, const StreamEvent *first)
{
    if (first && first->tokens >= 0)
        return {first->tokens, TokenCountSource::Usage, false};
    if (!r.nFirstApproximate && r.nFirst >= 0)
        return {r.nFirst, TokenCountSource::Usage, false};
    return {1, TokenCountSource::EventCount, true};
}

// (t_last − t_first) / (N_out − N_first); NaN when the denominator < 1.
double tpotOf(std::int64_t tFirstNs, std::int64_t tLastNs, int nOut, int nFirst)
{
    const int after = nOut - nFirst;
    return after >= 1 ? msBetween(tFirstNs, tLastNs) / after : kNaN;
}
} // namespace

double requestTpotMs(const RequestRecord &r, int *nOut)
{
    const StreamEvent *first = nullptr;
    std::int64_t last = kNoTime;
    int contentEvents = 0;
    for (const StreamEvent &e : r.events) {
        if (e.kind != StreamEvent::Kind::Content)
            continue;
        ++contentEvents;
        if (!first)
            first = &e;
        last = e.tNs;
    }
    const ResolvedCount out = resolveNOut(r, -1, contentEvents);
    if (nOut)
        *nOut = out.n;
    if (!first)
        return kNaN;
    return tpotOf(first->tNs, last, out.n, resolveNFirst(r, first).n);
}

RequestMetrics computeRequestMetrics(const RequestRecord &r, const OutputTokenCounter &counter)
{
    RequestMetrics m;
    m.ok = r.ok();

    const StreamEvent *first = nullptr;
    std::int64_t prev = kNoTime;
    m.chunkGapsMs.reserve(r.events.size());
    for (const StreamEvent &e : r.events) {
        if (e.kind != StreamEvent::Kind::Content)
            continue;
        ++m.contentEvents;
        if (!first)
            first = &e;
        if (prev != kNoTime)
            m.chunkGapsMs.push_back(static_cast<double>(e.tNs - prev) / kNsPerMs);
        prev = e.tNs;
    }
    if (first) {
        m.tFirstTokenNs = first->tNs;
        m.tLastTokenNs = prev;
    }

    // N_out.
    if (counter)
        m.nOutTokenizer = counter(r);
    const ResolvedCount nOut = resolveNOut(r, m.nOutTokenizer, m.contentEvents);
    m.nOut = nOut.n;
    m.nOutSource = nOut.source;
    m.nOutApproximate = nOut.approximate;
    if (m.nOutTokenizer < 0 && r.nOut >= 0 && r.nOutSource == TokenCountSource::Tokenizer)
        m.nOutTokenizer = r.nOut;

    const ResolvedCount nFirst = resolveNFirst(r, first);
    m.nFirst = nFirst.n;
    m.nFirstApproximate = nFirst.approximate;

    m.nIn = r.usage.promptTokens >= 0 ? r.usage.promptTokens : r.intendedIsl;

    m.e2eMs = msBetween(r.tSend, r.tEnd);
    m.ttftMs = first ? msBetween(r.tSend, m.tFirstTokenNs) : kNaN;
    m.ttftQMs = first ? msBetween(r.tSched, m.tFirstTokenNs) : kNaN;

    m.tpotMs = kNaN;
    m.tpotMlperfMs = kNaN;
    m.interactivityTpsUser = kNaN;
    if (first) {
        if (m.nOut - m.nFirst >= 1) {
            m.tpotMs = tpotOf(m.tFirstTokenNs, m.tLastTokenNs, m.nOut, m.nFirst);
            if (m.tpotMs > 0)
                m.interactivityTpsUser = 1000.0 / m.tpotMs;
        } else {
            m.tpotUndefined = true;
        }
        // MLPerf counts the tokens after the first chunk with the tokenizer; without one it falls
        // back to the resolved N_out (documented in docs/metrics.md).
        const int nOutMlperf = m.nOutTokenizer >= 0 ? m.nOutTokenizer : m.nOut;
        const int afterMlperf = nOutMlperf - m.nFirst;
        if (afterMlperf >= 1 && r.tEnd != kNoTime)
            m.tpotMlperfMs = msBetween(m.tFirstTokenNs, r.tEnd) / afterMlperf;
    }
    return m;
}

std::vector<double> tokensPerContentEvent(const RequestRecord &r, int nOut)
{
    std::vector<double> out;
    bool allKnown = true;
    for (const StreamEvent &e : r.events) {
        if (e.kind != StreamEvent::Kind::Content)
            continue;
        out.push_back(e.tokens);
        if (e.tokens < 0)
            allKnown = false;
    }
    if (!allKnown && !out.empty()) {
        const double each = static_cast<double>(nOut) / static_cast<double>(out.size());
        std::fill(out.begin(), out.end(), each);
    }
    return out;
}

std::string_view errorClassKey(ErrorClass c)
{
    switch (c) {
    case ErrorClass::None:
        return "none";
    case ErrorClass::Connect:
        return "connect";
    case ErrorClass::Tls:
        return "tls";
    case ErrorClass::HttpStatus:
        return "http_status";
    case ErrorClass::TimeoutBeforeFirstToken:
        return "timeout_before_first_token";
    case ErrorClass::StallMidStream:
        return "stall_mid_stream";
    case ErrorClass::DisconnectMidStream:
        return "disconnect_mid_stream";
    case ErrorClass::ServerErrorEvent:
        return "server_error_event";
    case ErrorClass::MalformedStream:
        return "malformed_stream";
    case ErrorClass::ShortOutput:
        return "short_output";
    case ErrorClass::HarnessCancelled:
        return "harness_cancelled";
    }
    return "unknown";
}

std::string_view tokenCountSourceKey(TokenCountSource s)
{
    switch (s) {
    case TokenCountSource::Usage:
        return "usage";
    case TokenCountSource::Tokenizer:
        return "tokenizer";
    case TokenCountSource::EventCount:
        return "event_count";
    }
    return "unknown";
}

} // namespace Throughline
