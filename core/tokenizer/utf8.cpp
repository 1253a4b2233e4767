#include "core/tokenizer/utf8.h"

namespace Throughline::Utf8 {

namespace {

// Returns the length of the valid sequence starting at s[i], or 0 when invalid; `maximal` receives
// the length of the maximal invalid prefix (≥ 1) for the WHATWG replacement rule.
std::size_t sequenceLength(std::string_view s, std::size_t i, std::size_t &maximal)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    maximal = 1;
    if (b0 < 0x80)
        return 1;
    std::size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        need = 1;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 2;
        if (b0 == 0xE0)
            lo = 0xA0;
        if (b0 == 0xED)
            hi = 0x9F; // no surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 3;
        if (b0 == 0xF0)
            lo = 0x90;
        if (b0 == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    for (std::size_t k = 1; k <= need; ++k) {
        if (i + k >= s.size())
            return 0;
        const auto b = static_cast<unsigned char>(s[i + k]);
        if (b < lo || b > hi)
            return 0;
        lo = 0x80;
        hi = 0xBF;
        maximal = k + 1;
    }
    return need + 1;
}

} // namespace

std::size_t validPrefix(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size()) {
        // Fast path over ASCII.
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        std::size_t maximal = 0;
        const std::size_t n = sequenceLength(s, i, maximal);
        if (n == 0)
            return i;
        i += n;
    }
    return i;
}

std::string sanitize(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        std::size_t maximal = 0;
        const std::size_t n = sequenceLength(s, i, maximal);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            i += maximal;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

void append(std::string &out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

char32_t next(std::string_view s, std::size_t &i)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        ++i;
        return b0;
    }
    int n = b0 >= 0xF0 ? 3 : b0 >= 0xE0 ? 2 : 1;
    char32_t cp = b0 & (0x3F >> n);
    ++i;
    for (int k = 0; k < n && i < s.size(); ++k, ++i)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
    return cp;
}

} // namespace Throughline::Utf8
