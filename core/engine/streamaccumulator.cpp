#include "core/engine/streamaccumulator.h"

#include "core/engine/sseevent.h"

namespace Throughline {

static_assert(static_cast<unsigned>(StreamEvent::Kind::Done) < 8, "StreamEvent::Kind must fit in 3 bits");

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
    else
        m_lastData.assign(data);
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
    store(ev);
}

void StreamAccumulator::reserveEvents(std::size_t n)
{
    m_dtNs.reserve(n);
    m_kindTok.reserve(n);
}

std::size_t StreamAccumulator::capacityBytes() const
{
    return m_dtNs.capacity() * sizeof(std::uint32_t) + m_kindTok.capacity() +
           m_farTimesNs.capacity() * sizeof(std::int64_t) + m_bigTokens.capacity() * sizeof(std::int32_t);
}

void StreamAccumulator::store(const StreamEvent &ev)
{
    const std::int64_t t = ev.tNs; // packed field: copy before use
    const std::int64_t d = t - m_lastNs;
    if (d >= 0 && d < static_cast<std::int64_t>(kFarTime)) {
        m_dtNs.push_back(static_cast<std::uint32_t>(d));
    } else {
        m_dtNs.push_back(kFarTime);
        m_farTimesNs.push_back(t);
    }
    m_lastNs = t;
    const std::int32_t tokens = ev.tokens;
    std::uint8_t code;
    if (tokens == -1) {
        code = 0;
    } else if (tokens >= 0 && tokens < kBigTokens - 1) {
        code = static_cast<std::uint8_t>(tokens + 1);
    } else {
        code = kBigTokens;
        m_bigTokens.push_back(tokens);
    }
    m_kindTok.push_back(static_cast<std::uint8_t>(static_cast<std::uint8_t>(ev.kind) | (code << 3)));
}

void StreamAccumulator::expandInto(std::vector<StreamEvent> &out) const
{
    out.reserve(out.size() + m_dtNs.size());
    std::size_t far = 0, big = 0;
    std::int64_t t = 0;
    for (std::size_t i = 0; i < m_dtNs.size(); ++i) {
        t = m_dtNs[i] == kFarTime ? m_farTimesNs[far++] : t + static_cast<std::int64_t>(m_dtNs[i]);
        StreamEvent e;
        e.tNs = t;
        e.kind = static_cast<StreamEvent::Kind>(m_kindTok[i] & 7u);
        const unsigned code = m_kindTok[i] >> 3;
        e.tokens = code == kBigTokens ? m_bigTokens[big++] : static_cast<std::int32_t>(code) - 1;
        out.push_back(e);
    }
}

void StreamAccumulator::finish()
{
    if (!m_finished) {
        m_finished = true;
        expandInto(m_rec.events);
        // The record now owns the events: give the compact store back.
        // (`v = {}` would keep the capacity: it assigns an empty initializer list.)
        std::vector<std::uint32_t>().swap(m_dtNs);
        std::vector<std::uint8_t>().swap(m_kindTok);
        std::vector<std::int64_t>().swap(m_farTimesNs);
        std::vector<std::int32_t>().swap(m_bigTokens);
    }
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
    // Server timing rides on the closing chunk; kept only when one of the known objects is in it.
    for (const std::string_view key : {"\"timings\"", "\"metrics\"", "\"meta_info\"", "\"nvext\""})
        if (m_lastData.find(key) != std::string::npos) {
            m_rec.serverTiming = std::move(m_lastData);
            m_lastData.clear();
            break;
        }
    if (m_rec.error == ErrorClass::None) {
        if (m_serverError)
            m_rec.error = ErrorClass::ServerErrorEvent;
        else if (m_malformed)
            m_rec.error = ErrorClass::MalformedStream;
    }
}

} // namespace Throughline
