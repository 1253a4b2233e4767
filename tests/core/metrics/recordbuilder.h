#pragma once
// Hand-built RequestRecords for metric tests. Times are given in ms since run t=0 (integers keep
// the hand-computed answers exact) and stored in ns as the engine does.

#include "core/engine/requestrecord.h"

#include <cstdint>
#include <initializer_list>
#include <utility>

namespace Throughline::Test {

inline std::int64_t ms(double v)
{
    return static_cast<std::int64_t>(v * 1'000'000.0);
}

class RecordBuilder
{
public:
    explicit RecordBuilder(std::uint64_t seq = 0) { m_r.seq = seq; }

    RecordBuilder &send(double tSendMs, double tSchedMs = -1)
    {
        m_r.tSend = ms(tSendMs);
        m_r.tSched = tSchedMs < 0 ? m_r.tSend : ms(tSchedMs);
        m_r.tWire = m_r.tSend;
        return *this;
    }
    RecordBuilder &warmup(bool w = true)
    {
        m_r.warmup = w;
        return *this;
    }
    // Content events at the given times (ms), tokens unknown (-1) unless given.
    RecordBuilder &content(std::initializer_list<double> timesMs)
    {
        for (double t : timesMs)
            m_r.events.push_back({ms(t), StreamEvent::Kind::Content, -1});
        return *this;
    }
    RecordBuilder &contentTokens(std::initializer_list<std::pair<double, int>> events)
    {
        for (auto [t, n] : events)
            m_r.events.push_back({ms(t), StreamEvent::Kind::Content, n});
        return *this;
    }
    RecordBuilder &event(double tMs, StreamEvent::Kind kind)
    {
        m_r.events.push_back({ms(tMs), kind, -1});
        return *this;
    }
    RecordBuilder &end(double tEndMs)
    {
        m_r.tEnd = ms(tEndMs);
        return *this;
    }
    RecordBuilder &usage(int completion, int prompt = -1)
    {
        m_r.usage.completionTokens = completion;
        m_r.usage.promptTokens = prompt;
        return *this;
    }
    RecordBuilder &isl(int n)
    {
        m_r.intendedIsl = n;
        return *this;
    }
    RecordBuilder &fail(ErrorClass c, int httpStatus = 0)
    {
        m_r.error = c;
        m_r.httpStatus = httpStatus;
        return *this;
    }
    RecordBuilder &engineTokenizerCount(int n)
    {
        m_r.nOut = n;
        m_r.nOutSource = TokenCountSource::Tokenizer;
        return *this;
    }
    RequestRecord build() const { return m_r; }
    operator RequestRecord() const { return m_r; }

private:
    RequestRecord m_r;
};

} // namespace Throughline::Test
