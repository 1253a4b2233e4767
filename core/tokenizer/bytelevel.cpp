#include "core/tokenizer/bytelevel.h"

#include "core/tokenizer/utf8.h"

#include <array>

namespace Throughline::ByteLevel {

namespace {

struct Tables {
    std::array<char32_t, 256> byteToChar{};
    std::array<int, 324> charToByte{}; // code points 0…323 cover the whole alphabet
    Tables()
    {
        charToByte.fill(-1);
        int extra = 0;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
            const char32_t cp = printable ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + extra++);
            byteToChar[b] = cp;
            charToByte[cp] = b;
        }
    }
};

const Tables &tables()
{
    static const Tables t;
    return t;
}

} // namespace

char32_t charForByte(unsigned char b)
{
    return tables().byteToChar[b];
}

std::optional<std::string> toBytes(std::string_view s)
{
    if (!Utf8::isValid(s))
        return std::nullopt;
    const Tables &t = tables();
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const char32_t cp = Utf8::next(s, i);
        if (cp >= t.charToByte.size() || t.charToByte[cp] < 0)
            return std::nullopt;
        out += static_cast<char>(t.charToByte[cp]);
    }
    return out;
}

} // namespace Throughline::ByteLevel
