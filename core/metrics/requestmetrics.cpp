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
} // namespace

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
    if (r.usage.completionTokens >= 0) {
        m.nOut = r.usage.completionTokens;
        m.nOutSource = TokenCountSource::Usage;
        m.nOutApproximate = false;
    } else if (m.nOutTokenizer >= 0) {
        m.nOut = m.nOutTokenizer;
        m.nOutSource = TokenCountSource::Tokenizer;
        m.nOutApproximate = false;
    } else if (r.nOut >= 0 && r.nOutSource == TokenCountSource::Tokenizer) {
        m.nOut = r.nOut;
        m.nOutSource = TokenCountSource::Tokenizer;
        m.nOutApproximate = false;
    } else {
        m.nOut = m.contentEvents;
        m.nOutSource = TokenCountSource::EventCount;
        m.nOutApproximate = true;
    }
    if (m.nOutTokenizer < 0 && r.nOut >= 0 && r.nOutSource == TokenCountSource::Tokenizer)
        m.nOutTokenizer = r.nOut;

    // N_first.
    if (first && first->tokens >= 0) {
        m.nFirst = first->tokens;
        m.nFirstApproximate = false;
    } else if (!r.nFirstApproximate && r.nFirst >= 0) {
        m.nFirst = r.nFirst;
        m.nFirstApproximate = false;
    } else {
        m.nFirst = 1;
        m.nFirstApproximate = true;
    }

    m.nIn = r.usage.promptTokens >= 0 ? r.usage.promptTokens : r.intendedIsl;

    m.e2eMs = msBetween(r.tSend, r.tEnd);
    m.ttftMs = first ? msBetween(r.tSend, m.tFirstTokenNs) : kNaN;
    m.ttftQMs = first ? msBetween(r.tSched, m.tFirstTokenNs) : kNaN;

    m.tpotMs = kNaN;
    m.tpotMlperfMs = kNaN;
    m.interactivityTpsUser = kNaN;
    if (first) {
        const int after = m.nOut - m.nFirst;
        if (after >= 1) {
            m.tpotMs = msBetween(m.tFirstTokenNs, m.tLastTokenNs) / after;
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
