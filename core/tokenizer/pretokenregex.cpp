#include "core/tokenizer/pretokenregex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace Throughline {

namespace {

// JavaScript's \s (ECMA-262 WhiteSpace + LineTerminator), as class contents.
constexpr std::string_view kJsSpace =
    "\\t\\n\\x{0B}\\f\\r "
    "\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";

void replaceAll(std::string &s, std::string_view from, std::string_view to)
{
    std::size_t pos = 0;
    while ((pos = s.find(from, pos)) != std::string::npos) {
        s.replace(pos, from.size(), to);
        pos += to.size();
    }
}

// Per-thread PCRE2 state: match data for one pair of offsets and a JIT stack large enough for long
// whitespace runs (the default 32 KiB overflows on `\s+(?!\S)` over megabytes of spaces).
struct ThreadState {
    pcre2_match_data *matchData = nullptr;
    pcre2_match_context *context = nullptr;
    pcre2_jit_stack *jitStack = nullptr;
    ThreadState()
    {
        matchData = pcre2_match_data_create(1, nullptr);
        context = pcre2_match_context_create(nullptr);
        jitStack = pcre2_jit_stack_create(64 * 1024, 8 * 1024 * 1024, nullptr);
        pcre2_jit_stack_assign(context, nullptr, jitStack);
    }
    ~ThreadState()
    {
        pcre2_jit_stack_free(jitStack);
        pcre2_match_context_free(context);
        pcre2_match_data_free(matchData);
    }
};

ThreadState &threadState()
{
    thread_local ThreadState state;
    return state;
}

} // namespace

Result<std::string> PreTokenRegex::translateJsPattern(const std::string &jsPattern)
{
    std::string p = jsPattern;
    // transformers.js createPattern(): drop needless escapes, then replace the case-insensitive group
    // it cannot compile. We do the same so that (?i:) does not fold e.g. "ſ" to "s" in PCRE2.
    for (const char c : {'#', '&', '~'}) {
        const char from[3] = {'\\', c, 0};
        const char to[2] = {c, 0};
        replaceAll(p, from, to);
    }
    replaceAll(p, "(?i:'s|'t|'re|'ve|'m|'ll|'d)", "(?:'([sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD]))");

    // Rewrite \s \S \d \D \w \W to their JavaScript meanings (ASCII digits/word characters, JS
    // whitespace), tracking whether we are inside a character class.
    std::string out;
    out.reserve(p.size() + 64);
    bool inClass = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\' && i + 1 < p.size()) {
            const char e = p[i + 1];
            ++i;
            std::string_view body;
            bool negated = false;
            switch (e) {
            case 's':
                body = kJsSpace;
                break;
            case 'S':
                body = kJsSpace;
                negated = true;
                break;
            case 'd':
                body = "0-9";
                break;
            case 'D':
                body = "0-9";
                negated = true;
                break;
            case 'w':
                body = "A-Za-z0-9_";
                break;
            case 'W':
                body = "A-Za-z0-9_";
                negated = true;
                break;
            default:
                out += '\\';
                out += e;
                continue;
            }
            if (!inClass) {
                out += negated ? "[^" : "[";
                out += body;
                out += ']';
            } else if (!negated) {
                out += body;
            } else {
                return makeError(
                    ErrorCode::Unsupported,
                    "pre-tokenizer pattern uses \\" + std::string(1, e) +
                        " inside a character class, which has no PCRE2 equivalent: " + jsPattern);
            }
            continue;
        }
        if (!inClass && c == '[') {
            inClass = true;
            out += c;
            // A ']' right after '[' or '[^' is literal in PCRE2 but ends an empty class in JS; the
            // tokenizer patterns never use it, so reject rather than guess.
            if (i + 1 < p.size() && p[i + 1] == '^') {
                out += '^';
                ++i;
            }
            if (i + 1 < p.size() && p[i + 1] == ']')
                return makeError(ErrorCode::Unsupported,
                                 "pre-tokenizer pattern has an empty class '[]': " + jsPattern);
            continue;
        }
        if (inClass && c == ']')
            inClass = false;
        out += c;
    }
    return out;
}

Result<std::shared_ptr<const PreTokenRegex>> PreTokenRegex::compile(const std::string &jsPattern)
{
    auto translated = translateJsPattern(jsPattern);
    if (!translated)
        return translated.error();
    int errorCode = 0;
    PCRE2_SIZE errorOffset = 0;
    // UTF: code points, not bytes. DOLLAR_ENDONLY: JS `$` (no m flag) matches only at the very end.
    pcre2_code *code =
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated->data()), translated->size(),
                      PCRE2_UTF | PCRE2_UCP | PCRE2_DOLLAR_ENDONLY, &errorCode, &errorOffset, nullptr);
    if (!code) {
        PCRE2_UCHAR buffer[256];
        pcre2_get_error_message(errorCode, buffer, sizeof buffer);
        return makeError(ErrorCode::InvalidInput,
                         "cannot compile pre-tokenizer pattern at offset " + std::to_string(errorOffset) +
                             ": " + reinterpret_cast<const char *>(buffer) + " (pattern " + jsPattern + ")");
    }
    std::shared_ptr<PreTokenRegex> re(new PreTokenRegex);
    re->m_pattern = *translated;
    re->m_code = code;
    re->m_jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
    return std::shared_ptr<const PreTokenRegex>(std::move(re));
}

PreTokenRegex::~PreTokenRegex()
{
    pcre2_code_free(static_cast<pcre2_code *>(m_code));
}

void PreTokenRegex::split(std::string_view text, TextSpan span, std::vector<TextSpan> &out) const
{
    auto *code = static_cast<pcre2_code *>(m_code);
    ThreadState &ts = threadState();
    const auto *subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    // Matching runs over the whole span only: pass the span end as the subject length so lookaheads
    // such as (?!\S) see the span's end, as JS does on the sliced piece.
    const PCRE2_SIZE length = span.end;
    PCRE2_SIZE pos = span.begin;
    std::size_t prev = span.begin;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(ts.matchData);
    while (pos < length) {
        // The slice starts at span.begin: tell PCRE2 not to look behind it (no lookbehinds in the
        // shipped patterns, but \b or ^ would otherwise see the previous piece).
        const int rc = m_jit ? pcre2_jit_match(code, subject + span.begin, length - span.begin,
                                               pos - span.begin, PCRE2_NO_UTF_CHECK, ts.matchData, ts.context)
                             : pcre2_match(code, subject + span.begin, length - span.begin, pos - span.begin,
                                           PCRE2_NO_UTF_CHECK, ts.matchData, ts.context);
        if (rc < 0)
            break; // PCRE2_ERROR_NOMATCH (or a resource limit: the rest stays one piece)
        const std::size_t mBegin = span.begin + ov[0];
        const std::size_t mEnd = span.begin + ov[1];
        if (mBegin > prev)
            out.push_back({prev, mBegin});
        if (mEnd > mBegin) {
            out.push_back({mBegin, mEnd});
            pos = mEnd;
        } else {
            // Empty match: advance one code point (JS matchAll with the u flag does the same).
            pos = mEnd + 1;
            while (pos < length && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80)
                ++pos;
        }
        prev = mEnd;
    }
    if (prev < span.end)
        out.push_back({prev, span.end});
}

} // namespace Throughline
