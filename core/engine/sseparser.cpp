#include "core/engine/sseparser.h"

#include <cstring>

namespace Throughline {

SseParser::SseParser(std::size_t maxEventBytes)
    : m_maxEventBytes(maxEventBytes)
{
}

std::size_t SseParser::capacityBytes() const
{
    return m_line.capacity() + m_done.capacity() + m_bounds.capacity() * sizeof(Bound);
}

void SseParser::reset()
{
    m_line.clear();
    m_done.clear();
    m_bounds.clear();
    m_eventStart = 0;
    m_eventHasData = false;
    m_lastWasCr = false;
    m_overflow = false;
    m_bytesFed = 0;
}

// Finds the next CR or LF in [p, end); nullptr when none. memchr twice beats a byte loop on long lines.
static const char *findEol(const char *p, const char *end)
{
    const auto n = static_cast<std::size_t>(end - p);
    const char *lf = static_cast<const char *>(std::memchr(p, '\n', n));
    const char *cr =
        static_cast<const char *>(std::memchr(p, '\r', lf ? static_cast<std::size_t>(lf - p) : n));
    return cr ? cr : lf;
}

bool SseParser::feed(const char *bytes, std::size_t len, std::int64_t tNs)
{
    if (m_overflow)
        return false;
    m_bytesFed += len;
    const char *p = bytes;
    const char *const end = bytes + len;
    if (m_lastWasCr && p < end && *p == '\n')
        ++p; // second half of a CRLF split across reads
    m_lastWasCr = false;

    while (p < end) {
        const char *eol = findEol(p, end);
        if (!eol) {
            // Incomplete line: keep it for the next read (bounded).
            if (m_line.size() + static_cast<std::size_t>(end - p) > m_maxEventBytes) {
                m_overflow = true;
                return false;
            }
            m_line.append(p, static_cast<std::size_t>(end - p));
            break;
        }
        if (m_line.empty()) {
            processLine(p, static_cast<std::size_t>(eol - p), tNs);
        } else {
            if (m_line.size() + static_cast<std::size_t>(eol - p) > m_maxEventBytes) {
                m_overflow = true;
                return false;
            }
            m_line.append(p, static_cast<std::size_t>(eol - p));
            processLine(m_line.data(), m_line.size(), tNs);
            m_line.clear();
        }
        if (m_overflow)
            return false;
        if (*eol == '\r') {
            if (eol + 1 < end) {
                p = (eol[1] == '\n') ? eol + 2 : eol + 1;
            } else {
                m_lastWasCr = true;
                p = eol + 1;
            }
        } else {
            p = eol + 1;
        }
    }
    return true;
}

void SseParser::processLine(const char *p, std::size_t n, std::int64_t tNs)
{
    if (n == 0) {
        // Blank line: dispatch the event being built when it has a data field.
        if (m_eventHasData) {
            m_bounds.push_back(Bound{static_cast<std::uint32_t>(m_eventStart),
                                     static_cast<std::uint32_t>(m_done.size() - m_eventStart), tNs});
            m_eventStart = m_done.size();
            m_eventHasData = false;
        }
        return;
    }
    if (p[0] == ':')
        return; // comment (keep-alive pings)
    // Field name up to the first colon; value after it with one optional leading space.
    const char *colon = static_cast<const char *>(std::memchr(p, ':', n));
    const std::size_t nameLen = colon ? static_cast<std::size_t>(colon - p) : n;
    if (nameLen != 4 || std::memcmp(p, "data", 4) != 0)
        return; // event:, id:, retry: and unknown fields carry nothing the engine measures
    const char *v = colon ? colon + 1 : p + n;
    if (v < p + n && *v == ' ')
        ++v;
    const auto vlen = static_cast<std::size_t>(p + n - v);
    const std::size_t eventLen = m_done.size() - m_eventStart;
    if (eventLen + vlen + 1 > m_maxEventBytes) {
        m_overflow = true;
        return;
    }
    if (m_eventHasData)
        m_done.push_back('\n');
    m_done.append(v, vlen);
    m_eventHasData = true;
}

void SseParser::compact()
{
    // Keep only the event being built (if any) at the front; capacity is retained.
    if (m_eventStart == 0)
        return;
    const std::size_t tail = m_done.size() - m_eventStart;
    if (tail > 0)
        std::memmove(m_done.data(), m_done.data() + m_eventStart, tail);
    m_done.resize(tail);
    m_eventStart = 0;
}

} // namespace Throughline
