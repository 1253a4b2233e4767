#pragma once
// UTF-8 helpers shared by the tokenizer: validation and lossy repair. Pure functions, thread-safe.

#include <cstddef>
#include <string>
#include <string_view>

namespace Throughline::Utf8 {

// Length of the valid UTF-8 prefix of s (== s.size() when all of s is valid). Rejects overlong forms,
// surrogates and code points above U+10FFFF, as TextDecoder and PCRE2 do.
std::size_t validPrefix(std::string_view s);

inline bool isValid(std::string_view s)
{
    return validPrefix(s) == s.size();
}

// Replaces every maximal invalid subsequence with U+FFFD (the WHATWG TextDecoder rule that Node's
// Buffer/TextDecoder use), so decoded token bytes cut in the middle of a character become text.
std::string sanitize(std::string_view s);

// Appends the UTF-8 encoding of code point cp.
void append(std::string &out, char32_t cp);

// Decodes one code point at s[i] (s must be valid there) and advances i.
char32_t next(std::string_view s, std::size_t &i);

} // namespace Throughline::Utf8
