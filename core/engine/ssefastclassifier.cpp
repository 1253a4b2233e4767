#include "core/engine/ssefastclassifier.h"

#include <charconv>

namespace Throughline {

namespace {

// Deeper documents go to the DOM path (which has no depth limit of its own).
constexpr int kMaxDepth = 64;

// A strict JSON scanner (RFC 8259 grammar, RFC 3629 UTF-8, paired surrogates), accepting exactly what
// nlohmann::json::parse accepts for the inputs it answers. Every method returns false on anything it does not
// accept; the caller then falls back to the DOM path, which makes the final call.
class Scanner
{
public:
    explicit Scanner(std::string_view s)
        : m_p(s.data())
        , m_end(s.data() + s.size())
    {
    }

    void ws()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\n' || *m_p == '\r'))
            ++m_p;
    }
    bool atEnd()
    {
        ws();
        return m_p == m_end;
    }
    // Next significant character, or 0 at the end.
    char peek()
    {
        ws();
        return m_p < m_end ? *m_p : '\0';
    }
    bool eat(char c)
    {
        if (peek() != c)
            return false;
        ++m_p;
        return true;
    }

    // A string at the cursor; raw = the bytes between the quotes, escaped = it held a backslash.
    bool string(std::string_view *raw, bool *escaped)
    {
        if (peek() != '"')
            return false;
        ++m_p;
        const char *start = m_p;
        bool esc = false;
        while (m_p < m_end) {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                if (raw)
                    *raw = std::string_view(start, static_cast<std::size_t>(m_p - start));
                if (escaped)
                    *escaped = esc;
                ++m_p;
                return true;
            }
            if (c < 0x20)
                return false;
            if (c == '\\') {
                esc = true;
                if (!escape())
                    return false;
                continue;
            }
            if (c < 0x80) {
                ++m_p;
                continue;
            }
            if (!utf8Sequence())
                return false;
        }
        return false;
    }

    // A number; *simpleInt receives its value when it is an integer of at most 9 digits (else
    // *isSimple=false).
    bool number(int *simpleInt, bool *isSimple)
    {
        ws();
        const char *start = m_p;
        bool negative = false;
        if (m_p < m_end && *m_p == '-') {
            negative = true;
            ++m_p;
        }
        if (m_p >= m_end)
            return false;
        const char *digits = m_p;
        if (*m_p == '0')
            ++m_p;
        else if (isDigit(*m_p))
            while (m_p < m_end && isDigit(*m_p))
                ++m_p;
        else
            return false;
        const char *digitsEnd = m_p;
        bool integer = true;
        if (m_p < m_end && *m_p == '.') {
            integer = false;
            ++m_p;
            if (m_p >= m_end || !isDigit(*m_p))
                return false;
            while (m_p < m_end && isDigit(*m_p))
                ++m_p;
        }
        if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
            integer = false;
            ++m_p;
            if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            if (m_p >= m_end || !isDigit(*m_p))
                return false;
            while (m_p < m_end && isDigit(*m_p))
                ++m_p;
        }
        const bool simple = integer && digitsEnd - digits <= 9;
        if (!simple) {
            // Out of double's range is a parse error for nlohmann (and underflow is left to it too).
            double v = 0;
            const auto r = std::from_chars(start, m_p, v);
            if (r.ec != std::errc() || r.ptr != m_p)
                return false;
        }
        if (isSimple)
            *isSimple = simple;
        if (simple && simpleInt) {
            int v = 0;
            for (const char *d = digits; d < digitsEnd; ++d)
                v = v * 10 + (*d - '0');
            *simpleInt = negative ? -v : v;
        }
        return true;
    }

    bool literal()
    {
        ws();
        for (std::string_view lit :
             {std::string_view("true"), std::string_view("false"), std::string_view("null")}) {
            if (static_cast<std::size_t>(m_end - m_p) >= lit.size() &&
                std::string_view(m_p, lit.size()) == lit) {
                m_p += lit.size();
                return true;
            }
        }
        return false;
    }

    // Validates and skips any value.
    bool skipValue(int depth)
    {
        if (depth > kMaxDepth)
            return false;
        switch (peek()) {
        case '"':
            return string(nullptr, nullptr);
        case '{':
            return object(depth, [this](std::string_view, int d) { return skipValue(d); });
        case '[':
            return array(depth, [this](int, int d) { return skipValue(d); });
        case 't':
        case 'f':
        case 'n':
            return literal();
        default:
            return number(nullptr, nullptr);
        }
    }

    // An object; onMember(key, depth) parses each member's value. Escaped keys are left to the DOM path.
    template <class F>
    bool object(int depth, F &&onMember)
    {
        if (depth > kMaxDepth || !eat('{'))
            return false;
        if (eat('}'))
            return true;
        for (;;) {
            std::string_view key;
            bool escaped = false;
            if (!string(&key, &escaped) || escaped || !eat(':') || !onMember(key, depth + 1))
                return false;
            if (eat(','))
                continue;
            return eat('}');
        }
    }

    // An array; onElement(index, depth) parses each element.
    template <class F>
    bool array(int depth, F &&onElement)
    {
        if (depth > kMaxDepth || !eat('['))
            return false;
        if (eat(']'))
            return true;
        for (int i = 0;; ++i) {
            if (!onElement(i, depth + 1))
                return false;
            if (eat(','))
                continue;
            return eat(']');
        }
    }

    // A string member: *nonEmpty = it is a string with at least one character; other values are skipped.
    bool stringFlag(int depth, bool *nonEmpty)
    {
        if (peek() != '"') {
            *nonEmpty = false;
            return skipValue(depth);
        }
        std::string_view raw;
        if (!string(&raw, nullptr))
            return false;
        *nonEmpty = !raw.empty(); // any escape decodes to at least one character
        return true;
    }

    // An integer member as nlohmann's get<int>() would read it: -1 when not a number; unusual numbers →
    // false.
    bool intMember(int depth, int *out)
    {
        const char c = peek();
        if (c != '-' && !isDigit(c)) {
            *out = -1;
            return skipValue(depth);
        }
        bool simple = false;
        if (!number(out, &simple))
            return false;
        return simple;
    }

private:
    static bool isDigit(char c) { return c >= '0' && c <= '9'; }

    static bool hex4(const char *p, const char *end, unsigned *cp)
    {
        if (end - p < 4)
            return false;
        unsigned v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = p[i];
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= static_cast<unsigned>(c - 'A' + 10);
            else
                return false;
        }
        *cp = v;
        return true;
    }

    // At a backslash inside a string.
    bool escape()
    {
        ++m_p;
        if (m_p >= m_end)
            return false;
        switch (*m_p) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
            ++m_p;
            return true;
        case 'u': {
            unsigned cp = 0;
            if (!hex4(m_p + 1, m_end, &cp))
                return false;
            m_p += 5;
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return false; // a low surrogate must follow a high one
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned lo = 0;
                if (m_end - m_p < 6 || m_p[0] != '\\' || m_p[1] != 'u' || !hex4(m_p + 2, m_end, &lo) ||
                    lo < 0xDC00 || lo > 0xDFFF)
                    return false;
                m_p += 6;
            }
            return true;
        }
        default:
            return false;
        }
    }

    // A multi-byte UTF-8 sequence at the cursor (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF).
    bool utf8Sequence()
    {
        const auto c = static_cast<unsigned char>(*m_p);
        int more = 0;
        unsigned cp = 0;
        if ((c & 0xE0) == 0xC0) {
            more = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            more = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            more = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (m_end - m_p <= more)
            return false;
        for (int i = 1; i <= more; ++i) {
            const auto cc = static_cast<unsigned char>(m_p[i]);
            if ((cc & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (cc & 0x3F);
        }
        if ((more == 1 && cp < 0x80) || (more == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (more == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return false;
        m_p += more + 1;
        return true;
    }

    const char *m_p;
    const char *m_end;
};

// What the content-event rule needs from choices[0]; a repeated key replaces the earlier value, as in the
// DOM.
struct ChoiceFields {
    bool isObject = false;
    bool text = false;
    bool deltaIsObject = false;
    bool content = false, reasoning = false, reasoningContent = false, toolCalls = false,
         functionCall = false;
    bool role = false;
    bool finishIsString = false;
};

bool functionObject(Scanner &s, int depth, bool *hasText)
{
    if (s.peek() != '{') {
        *hasText = false;
        return s.skipValue(depth);
    }
    bool name = false, args = false;
    const bool ok = s.object(depth, [&](std::string_view key, int d) {
        if (key == "name")
            return s.stringFlag(d, &name);
        if (key == "arguments")
            return s.stringFlag(d, &args);
        return s.skipValue(d);
    });
    *hasText = name || args;
    return ok;
}

bool delta(Scanner &s, int depth, ChoiceFields &c)
{
    c.content = c.reasoning = c.reasoningContent = c.toolCalls = c.functionCall = c.role = false;
    c.deltaIsObject = s.peek() == '{';
    if (!c.deltaIsObject)
        return s.skipValue(depth);
    return s.object(depth, [&](std::string_view key, int d) {
        if (key == "content")
            return s.stringFlag(d, &c.content);
        if (key == "reasoning")
            return s.stringFlag(d, &c.reasoning);
        if (key == "reasoning_content")
            return s.stringFlag(d, &c.reasoningContent);
        if (key == "role") {
            c.role = true;
            return s.skipValue(d);
        }
        if (key == "function_call")
            return functionObject(s, d, &c.functionCall);
        if (key == "tool_calls") {
            c.toolCalls = false;
            if (s.peek() != '[')
                return s.skipValue(d);
            return s.array(d, [&](int, int ed) {
                if (s.peek() != '{')
                    return s.skipValue(ed);
                bool callText = false;
                const bool ok = s.object(ed, [&](std::string_view k, int fd) {
                    if (k == "function")
                        return functionObject(s, fd, &callText);
                    return s.skipValue(fd);
                });
                c.toolCalls = c.toolCalls || callText;
                return ok;
            });
        }
        return s.skipValue(d);
    });
}

bool choice0(Scanner &s, int depth, ChoiceFields &c)
{
    c = ChoiceFields();
    c.isObject = s.peek() == '{';
    if (!c.isObject)
        return s.skipValue(depth);
    return s.object(depth, [&](std::string_view key, int d) {
        if (key == "text")
            return s.stringFlag(d, &c.text);
        if (key == "delta")
            return delta(s, d, c);
        if (key == "finish_reason") {
            c.finishIsString = s.peek() == '"';
            return s.skipValue(d);
        }
        return s.skipValue(d);
    });
}

bool usage(Scanner &s, int depth, SseEventInfo &info)
{
    info.usage = Usage();
    info.hasUsage = false;
    if (s.peek() != '{')
        return s.skipValue(depth);
    const bool ok = s.object(depth, [&](std::string_view key, int d) {
        if (key == "completion_tokens")
            return s.intMember(d, &info.usage.completionTokens);
        if (key == "prompt_tokens")
            return s.intMember(d, &info.usage.promptTokens);
        if (key == "prompt_tokens_details" || key == "completion_tokens_details") {
            int *target =
                key == "prompt_tokens_details" ? &info.usage.cachedTokens : &info.usage.reasoningTokens;
            const char *field = key == "prompt_tokens_details" ? "cached_tokens" : "reasoning_tokens";
            *target = -1;
            if (s.peek() != '{')
                return s.skipValue(d);
            return s.object(d, [&](std::string_view k, int dd) {
                if (k == field)
                    return s.intMember(dd, target);
                return s.skipValue(dd);
            });
        }
        return s.skipValue(d);
    });
    info.hasUsage = info.usage.completionTokens >= 0 || info.usage.promptTokens >= 0;
    return ok;
}

} // namespace

bool classifySseEventFast(std::string_view data, SseEventInfo &out)
{
    Scanner s(data);
    if (s.peek() != '{')
        return false; // not an object: the DOM path reports it (malformed or "other")
    SseEventInfo info;
    bool choicesArray = false, choicesEmpty = true;
    ChoiceFields c0;
    const bool ok = s.object(0, [&](std::string_view key, int d) {
        if (key == "usage")
            return usage(s, d, info);
        if (key == "error") {
            // A non-null error is an error event: the DOM path extracts its message.
            return s.peek() == 'n' && s.literal();
        }
        if (key == "object") {
            if (s.peek() != '"')
                return s.skipValue(d);
            std::string_view raw;
            bool escaped = false;
            return s.string(&raw, &escaped) && !escaped && raw != "error";
        }
        if (key == "choices") {
            choicesArray = s.peek() == '[';
            choicesEmpty = true;
            c0 = ChoiceFields();
            if (!choicesArray)
                return s.skipValue(d);
            return s.array(d, [&](int index, int ed) {
                choicesEmpty = false;
                return index == 0 ? choice0(s, ed, c0) : s.skipValue(ed);
            });
        }
        return s.skipValue(d);
    });
    if (!ok || !s.atEnd())
        return false;
    if (!choicesArray || choicesEmpty) {
        info.kind = info.hasUsage ? StreamEvent::Kind::Usage : StreamEvent::Kind::Other;
    } else if (!c0.isObject) {
        info.kind = StreamEvent::Kind::Other;
    } else {
        const bool content =
            c0.text || (c0.deltaIsObject && (c0.content || c0.reasoning || c0.reasoningContent ||
                                             c0.toolCalls || c0.functionCall));
        if (content)
            info.kind = StreamEvent::Kind::Content;
        else if (c0.deltaIsObject && c0.role)
            info.kind = StreamEvent::Kind::RoleOnly;
        else if (c0.finishIsString)
            info.kind = StreamEvent::Kind::Finish;
        else
            info.kind = StreamEvent::Kind::Other;
    }
    out = std::move(info);
    return true;
}

} // namespace Throughline
