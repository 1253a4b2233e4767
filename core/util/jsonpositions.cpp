#include "core/util/jsonpositions.h"

#include <unordered_set>

namespace Throughline {

// Recursive-descent scanner over the raw text; records where each value (and member name) starts.
class JsonPositionScanner
{
public:
    JsonPositionScanner(std::string_view text, JsonPositions &out)
        : m_text(text)
        , m_out(out)
    {
    }

    void run()
    {
        skipWs();
        JsonLocation root;
        root.value = here();
        m_out.m_locations[""] = root;
        value("", 0);
    }

private:
    static constexpr int kMaxDepth = 512; // deeper documents are indexed down to this depth only

    std::string_view m_text;
    JsonPositions &m_out;
    size_t m_pos = 0;
    int m_line = 1;
    int m_col = 1;
    bool m_failed = false;

    JsonPosition here() const { return {m_line, m_col}; }
    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_pos]; }

    void advance()
    {
        const auto c = static_cast<unsigned char>(m_text[m_pos]);
        ++m_pos;
        if (c == '\n') {
            ++m_line;
            m_col = 1;
        } else if ((c & 0xC0) != 0x80) {
            // Count code points: a continuation byte does not start a new column. The column
            // advances when the *next* lead byte is consumed, so bump on lead bytes only.
            ++m_col;
        }
    }

    void skipWs()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            advance();
    }

    bool string(std::string *out)
    {
        if (peek() != '"')
            return fail();
        advance();
        while (!atEnd()) {
            const char c = peek();
            if (c == '"') {
                advance();
                return true;
            }
            if (c == '\\') {
                advance();
                if (atEnd())
                    return fail();
                const char e = peek();
                advance();
                if (!out)
                    continue;
                switch (e) {
                case 'n':
                    *out += '\n';
                    break;
                case 't':
                    *out += '\t';
                    break;
                case 'r':
                    *out += '\r';
                    break;
                case 'b':
                    *out += '\b';
                    break;
                case 'f':
                    *out += '\f';
                    break;
                case 'u': {
                    unsigned cp = 0;
                    if (!hex4(cp))
                        return false;
                    // Surrogate pairs are rare in keys; a lone surrogate is encoded as-is.
                    if (cp >= 0xD800 && cp <= 0xDBFF && m_pos + 6 <= m_text.size() && m_text[m_pos] == '\\' &&
                        m_text[m_pos + 1] == 'u') {
                        advance();
                        advance();
                        unsigned lo = 0;
                        if (!hex4(lo))
                            return false;
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    }
                    appendUtf8(*out, cp);
                    break;
                }
                default:
                    *out += e;
                    break;
                }
                continue;
            }
            if (out)
                *out += c;
            advance();
        }
        return fail();
    }

    // The four hex digits of a \u escape.
    bool hex4(unsigned &out)
    {
        out = 0;
        for (int k = 0; k < 4; ++k) {
            if (atEnd())
                return fail();
            const char h = peek();
            out <<= 4;
            if (h >= '0' && h <= '9')
                out |= unsigned(h - '0');
            else if (h >= 'a' && h <= 'f')
                out |= unsigned(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                out |= unsigned(h - 'A' + 10);
            else
                return fail();
            advance();
        }
        return true;
    }

    static void appendUtf8(std::string &s, unsigned cp)
    {
        if (cp < 0x80) {
            s += char(cp);
        } else if (cp < 0x800) {
            s += char(0xC0 | (cp >> 6));
            s += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            s += char(0xE0 | (cp >> 12));
            s += char(0x80 | ((cp >> 6) & 0x3F));
            s += char(0x80 | (cp & 0x3F));
        } else {
            s += char(0xF0 | (cp >> 18));
            s += char(0x80 | ((cp >> 12) & 0x3F));
            s += char(0x80 | ((cp >> 6) & 0x3F));
            s += char(0x80 | (cp & 0x3F));
        }
    }

    bool fail()
    {
        m_failed = true;
        return false;
    }

    bool value(const std::string &ptr, int depth)
    {
        if (m_failed || depth > kMaxDepth)
            return fail();
        skipWs();
        const char c = peek();
        if (c == '{')
            return object(ptr, depth);
        if (c == '[')
            return array(ptr, depth);
        if (c == '"')
            return string(nullptr);
        // Literal or number: consume until a structural character.
        if (atEnd())
            return fail();
        while (!atEnd()) {
            const char d = peek();
            if (d == ',' || d == '}' || d == ']' || d == ' ' || d == '\t' || d == '\n' || d == '\r')
                break;
            advance();
        }
        return true;
    }

    // The walk shared by objects and arrays: opening bracket, items separated by commas, closing bracket.
    // `item(i)` reads the i-th item, starting at its first non-blank character.
    template <typename Item>
    bool items(char close, Item &&item)
    {
        advance(); // { or [
        skipWs();
        if (peek() == close) {
            advance();
            return true;
        }
        for (size_t i = 0; !atEnd(); ++i) {
            skipWs();
            if (!item(i))
                return false;
            skipWs();
            if (peek() == ',') {
                advance();
                continue;
            }
            if (peek() == close) {
                advance();
                return true;
            }
            return fail();
        }
        return fail();
    }

    bool object(const std::string &ptr, int depth)
    {
        std::unordered_set<std::string> seen;
        return items('}', [&](size_t) {
            JsonLocation loc;
            loc.key = here();
            std::string key;
            if (!string(&key))
                return false;
            skipWs();
            if (peek() != ':')
                return fail();
            advance();
            skipWs();
            loc.value = here();
            const std::string child = JsonPositions::join(ptr, key);
            if (!seen.insert(key).second)
                m_out.m_duplicates.emplace_back(child, loc.key);
            m_out.m_locations[child] = loc;
            return value(child, depth + 1);
        });
    }

    bool array(const std::string &ptr, int depth)
    {
        return items(']', [&](size_t i) {
            JsonLocation loc;
            loc.value = here();
            const std::string child = ptr + "/" + std::to_string(i);
            m_out.m_locations[child] = loc;
            return value(child, depth + 1);
        });
    }
};

JsonPositions JsonPositions::index(std::string_view text)
{
    JsonPositions p;
    JsonPositionScanner(text, p).run();
    return p;
}

std::optional<JsonLocation> JsonPositions::find(const std::string &pointer) const
{
    auto it = m_locations.find(pointer);
    if (it == m_locations.end())
        return std::nullopt;
    return it->second;
}

JsonLocation JsonPositions::nearest(const std::string &pointer) const
{
    std::string p = pointer;
    while (true) {
        auto it = m_locations.find(p);
        if (it != m_locations.end())
            return it->second;
        if (p.empty())
            return JsonLocation{{}, {1, 1}};
        const auto slash = p.rfind('/');
        p = slash == std::string::npos ? std::string() : p.substr(0, slash);
    }
}

JsonPosition JsonPositions::positionOfByte(std::string_view text, size_t byteOffset)
{
    JsonPosition pos{1, 1};
    const size_t end = std::min(byteOffset, text.size());
    for (size_t i = 0; i < end; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++pos.line;
            pos.column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++pos.column;
        }
    }
    return pos;
}

std::string JsonPositions::escapeToken(std::string_view token)
{
    std::string out;
    out.reserve(token.size());
    for (char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

} // namespace Throughline
