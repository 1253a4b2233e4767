#include "core/engine/streamaccumulator.h"

#include "core/engine/sseevent.h"

namespace Throughline {

StreamAccumulator::StreamAccumulator(RequestRecord &rec, bool storeText)
    : m_rec(rec)
    , m_storeText(storeText)
{
}

void StreamAccumulator::onEvent(std::string_view data, std::int64_t tNs)
{
    SseEventInfo info = classifySseEvent(data, m_storeText);
    StreamEvent ev;
    ev.tNs = tNs;
    ev.kind = info.kind;
    if (info.malformed) {
        m_malformed = true;
        if (m_rec.errorDetail.empty())
            m_rec.errorDetail = "malformed SSE payload: " + std::string(data.substr(0, 200));
    }
    if (info.kind == StreamEvent::Kind::Done)
        m_sawDone = true;
    if (info.kind == StreamEvent::Kind::Error) {
        m_serverError = true;
        if (m_rec.errorDetail.empty())
            m_rec.errorDetail = info.errorMessage.substr(0, 500);
    }
    if (info.hasUsage) {
        // Continuous usage stats report cumulative completion tokens on every chunk: the per-event count is
        // the difference to the previous report.
        if (info.kind == StreamEvent::Kind::Content) {
            if (info.usage.completionTokens >= 0) {
                ev.tokens = info.usage.completionTokens - m_lastCumulative;
                if (ev.tokens < 0)
                    ev.tokens = -1;
            }
        }
        if (info.usage.completionTokens >= 0)
            m_lastCumulative = info.usage.completionTokens;
        m_haveUsage = true;
        // Later reports supersede earlier ones field by field.
        if (info.usage.completionTokens >= 0)
            m_rec.usage.completionTokens = info.usage.completionTokens;
        if (info.usage.promptTokens >= 0)
            m_rec.usage.promptTokens = info.usage.promptTokens;
        if (info.usage.cachedTokens >= 0)
            m_rec.usage.cachedTokens = info.usage.cachedTokens;
        if (info.usage.reasoningTokens >= 0)
            m_rec.usage.reasoningTokens = info.usage.reasoningTokens;
    }
    if (info.kind == StreamEvent::Kind::Content) {
        ++m_contentEvents;
        if (ev.tokens < 0)
            m_perEventCounts = false;
        if (m_storeText)
            m_rec.text += info.text;
    }
    m_rec.events.push_back(ev);
}

void StreamAccumulator::finish()
{
    if (m_haveUsage && m_rec.usage.completionTokens >= 0) {
        m_rec.nOut = m_rec.usage.completionTokens;
        m_rec.nOutSource = TokenCountSource::Usage;
    } else {
        m_rec.nOut = m_contentEvents;
        m_rec.nOutSource = TokenCountSource::EventCount;
    }
    m_rec.nFirst = 1;
    m_rec.nFirstApproximate = true;
    for (const StreamEvent &e : m_rec.events) {
        if (e.kind == StreamEvent::Kind::Content) {
            if (e.tokens > 0) {
                m_rec.nFirst = e.tokens;
                m_rec.nFirstApproximate = false;
            }
            break;
        }
    }
    (void)m_perEventCounts;
    if (m_rec.error == ErrorClass::None) {
        if (m_serverError)
            m_rec.error = ErrorClass::ServerErrorEvent;
        else if (m_malformed)
            m_rec.error = ErrorClass::MalformedStream;
    }
}

} // namespace Throughline
