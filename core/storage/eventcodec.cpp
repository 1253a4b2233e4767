#include "core/storage/eventcodec.h"

namespace Throughline {

namespace {

inline char *putVarint(char *p, std::uint64_t v)
{
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
    content = {};
    char *p = out;
    *p++ = static_cast<char>(kFormat);
    std::int64_t prevUs = floorUs(refNs == kNoTime ? 0 : refNs);
    for (const StreamEvent &e : events) {
        const std::int64_t us = floorUs(e.tNs);
        const std::int64_t d = us - prevUs;
        prevUs = us;
        const std::uint64_t zz = (static_cast<std::uint64_t>(d) << 1) ^ static_cast<std::uint64_t>(d >> 63);
        if (e.kind == StreamEvent::Kind::Content) {
            if (content.count == 0)
                content.firstNs = e.tNs;
            content.lastNs = e.tNs;
            ++content.count;
        }
        const bool hasTokens = e.tokens >= 0;
        p = putVarint(p, (zz << 4) | (static_cast<std::uint64_t>(e.kind) << 1) | (hasTokens ? 1u : 0u));
        if (hasTokens)
            p = putVarint(p, static_cast<std::uint64_t>(e.tokens));
    }
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
