#include "core/storage/metricchunk.h"

namespace Throughline {

namespace {

inline void putVarint(std::string &out, std::int64_t value)
{
    std::uint64_t v = (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
    char buf[10];
    int n = 0;
    while (v >= 0x80) {
        buf[n++] = static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    buf[n++] = static_cast<char>(v);
    out.append(buf, static_cast<std::size_t>(n));
}

inline bool getVarint(const std::uint8_t *&p, const std::uint8_t *end, std::int64_t &value)
{
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p == end)
            return false;
        const std::uint8_t b = *p++;
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            value = static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
            return true;
        }
    }
    return false;
}

} // namespace

void MetricChunk::append(const MetricRow &r)
{
    if (m_bytes.empty())
        m_bytes.push_back(static_cast<char>(kFormat));
    const unsigned bits = (r.warmup ? 1u : 0u) | (r.failed ? 2u : 0u) | (r.hasSend ? 4u : 0u) |
                          (r.hasEnd ? 8u : 0u) | (r.hasTtft ? 16u : 0u) | (r.hasTpot ? 32u : 0u) |
                          (r.hasE2e ? 64u : 0u) | (r.hasNOut ? 128u : 0u);
    m_bytes.push_back(static_cast<char>(bits));
    if (r.hasSend) {
        putVarint(m_bytes, r.tSendNs - m_prevSend);
        m_prevSend = r.tSendNs;
    }
    if (r.hasEnd)
        putVarint(m_bytes, r.tEndNs - (r.hasSend ? r.tSendNs : 0));
    if (r.hasTtft)
        putVarint(m_bytes, r.ttftUs);
    if (r.hasTpot)
        putVarint(m_bytes, r.tpotUs);
    if (r.hasE2e)
        putVarint(m_bytes, r.e2eUs);
    if (r.hasNOut)
        putVarint(m_bytes, r.nOut);
    ++m_rows;
}

MetricChunk::Reader::Reader(const void *data, std::size_t size)
    : m_p(static_cast<const std::uint8_t *>(data))
    , m_end(static_cast<const std::uint8_t *>(data) + size)
{
    if (size == 0 || *m_p++ != kFormat)
        m_valid = false;
}

bool MetricChunk::Reader::next(MetricRow &r)
{
    if (!m_valid || m_p == m_end)
        return false;
    const unsigned bits = *m_p++;
    r.warmup = bits & 1u;
    r.failed = bits & 2u;
    r.hasSend = bits & 4u;
    r.hasEnd = bits & 8u;
    r.hasTtft = bits & 16u;
    r.hasTpot = bits & 32u;
    r.hasE2e = bits & 64u;
    r.hasNOut = bits & 128u;
    std::int64_t v = 0;
    bool ok = true;
    if (r.hasSend) {
        ok = getVarint(m_p, m_end, v);
        m_prevSend += v;
        r.tSendNs = m_prevSend;
    }
    if (ok && r.hasEnd) {
        ok = getVarint(m_p, m_end, v);
        r.tEndNs = v + (r.hasSend ? r.tSendNs : 0);
    }
    if (ok && r.hasTtft)
        ok = getVarint(m_p, m_end, r.ttftUs);
    if (ok && r.hasTpot)
        ok = getVarint(m_p, m_end, r.tpotUs);
    if (ok && r.hasE2e)
        ok = getVarint(m_p, m_end, r.e2eUs);
    if (ok && r.hasNOut)
        ok = getVarint(m_p, m_end, r.nOut);
    if (!ok)
        m_valid = false;
    return ok;
}

} // namespace Throughline
