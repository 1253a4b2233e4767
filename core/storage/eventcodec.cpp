#include "core/storage/eventcodec.h"

namespace Throughline {

namespace {

inline char *putVarint(char *p, std::uint64_t v)
{
    // Unrolled for the common lengths (a per-token event is 3 bytes: Δt of 1–130 ms); longer values loop.
    if (v < (1u << 7)) {
        *p = static_cast<char>(v);
        return p + 1;
    }
    if (v < (1u << 14)) {
        p[0] = static_cast<char>(v | 0x80);
        p[1] = static_cast<char>(v >> 7);
        return p + 2;
    }
    if (v < (1u << 21)) {
        p[0] = static_cast<char>(v | 0x80);
        p[1] = static_cast<char>((v >> 7) | 0x80);
        p[2] = static_cast<char>(v >> 14);
        return p + 3;
    }
    while (v >= 0x80) {
        *p++ = static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<char>(v);
    return p;
}

inline bool getVarint(const std::uint8_t *&p, const std::uint8_t *end, std::uint64_t &v)
{
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p == end)
            return false;
        const std::uint8_t b = *p++;
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

inline std::int64_t floorUs(std::int64_t ns)
{
    return ns >= 0 ? ns / 1000 : -((-ns + 999) / 1000);
}

} // namespace

std::size_t EventCodec::encode(const std::vector<StreamEvent> &events, std::int64_t refNs, char *out,
                               ContentSpan &content)
{
    // The span is gathered in locals and stored once: `content` may alias the bytes written through `out`
    // (char), so updating its fields inside the loop would cost a store and reload per event.
    std::int64_t firstNs = kNoTime, lastNs = kNoTime;
    int count = 0;
    char *p = out;
    *p++ = static_cast<char>(kFormat);
    std::int64_t prevUs = floorUs(refNs == kNoTime ? 0 : refNs);
    const StreamEvent *e = events.data();
    const StreamEvent *const end = e + events.size();
    for (; e != end; ++e) {
        const std::int64_t tNs = e->tNs;
        const StreamEvent::Kind kind = e->kind;
        const std::int32_t tokens = e->tokens;
        const std::int64_t us = floorUs(tNs);
        const std::int64_t d = us - prevUs;
        prevUs = us;
        const std::uint64_t zz = (static_cast<std::uint64_t>(d) << 1) ^ static_cast<std::uint64_t>(d >> 63);
        if (kind == StreamEvent::Kind::Content) {
            if (count == 0)
                firstNs = tNs;
            lastNs = tNs;
            ++count;
        }
        const bool hasTokens = tokens >= 0;
        p = putVarint(p, (zz << 4) | (static_cast<std::uint64_t>(kind) << 1) | (hasTokens ? 1u : 0u));
        if (hasTokens)
            p = putVarint(p, static_cast<std::uint64_t>(tokens));
    }
    content.firstNs = firstNs;
    content.lastNs = lastNs;
    content.count = count;
    return static_cast<std::size_t>(p - out);
}

void EventCodec::encode(const std::vector<StreamEvent> &events, std::int64_t refNs, std::string &out)
{
    out.resize(maxEncodedSize(events.size()));
    ContentSpan content;
    out.resize(encode(events, refNs, out.data(), content));
}

bool EventCodec::decode(const void *data, std::size_t size, std::int64_t refNs, std::vector<StreamEvent> &out)
{
    out.clear();
    const auto *p = static_cast<const std::uint8_t *>(data);
    const auto *end = p + size;
    if (size == 0 || *p++ != kFormat)
        return false;
    std::int64_t us = floorUs(refNs == kNoTime ? 0 : refNs);
    while (p < end) {
        std::uint64_t v = 0;
        if (!getVarint(p, end, v))
            return false;
        const std::uint64_t zz = v >> 4;
        const auto d = static_cast<std::int64_t>(zz >> 1) ^ -static_cast<std::int64_t>(zz & 1);
        us += d;
        StreamEvent e;
        e.tNs = us * 1000;
        const unsigned kind = (v >> 1) & 7u;
        if (kind > static_cast<unsigned>(StreamEvent::Kind::Done))
            return false;
        e.kind = static_cast<StreamEvent::Kind>(kind);
        if (v & 1u) {
            std::uint64_t t = 0;
            if (!getVarint(p, end, t))
                return false;
            e.tokens = static_cast<std::int32_t>(t);
        }
        out.push_back(e);
    }
    return true;
}

} // namespace Throughline
