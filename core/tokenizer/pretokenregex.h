#pragma once
// One pre-tokenizer split pattern ("Split" with behaviour Isolated), compiled with PCRE2 + JIT.
// Patterns are written for JavaScript's RegExp with the `u` flag (the reference implementations,
// transformers.js/@lenml and gpt-tokenizer, run them that way); translateJsPattern() rewrites the
// constructs whose meaning differs in PCRE2 (\s, \d, \w, $, the (?i:'s|…) group that transformers.js
// replaces) so both engines split identically.
// Immutable after construction; split() is thread-safe (per-thread match data and JIT stack).

#include "core/util/result.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

// A byte range [begin, end) inside the text being encoded.
struct TextSpan {
    std::size_t begin = 0;
    std::size_t end = 0;
};

class PreTokenRegex
{
public:
    // Compiles a pattern from a tokenizer.json "Split" (or a tiktoken pattern). The error names the
    // pattern and PCRE2's message with the offset.
    static Result<std::shared_ptr<const PreTokenRegex>> compile(const std::string &jsPattern);
    // The pattern as handed to PCRE2 (exposed for tests and error messages).
    static Result<std::string> translateJsPattern(const std::string &jsPattern);

    ~PreTokenRegex();
    PreTokenRegex(const PreTokenRegex &) = delete;
    PreTokenRegex &operator=(const PreTokenRegex &) = delete;

    // Splits text[span] into matches and the gaps between them (both kept, in order), appending the
    // pieces to out. text must be valid UTF-8 (checked by the caller).
    void split(std::string_view text, TextSpan span, std::vector<TextSpan> &out) const;

    const std::string &pattern() const { return m_pattern; }

private:
    PreTokenRegex() = default;
    std::string m_pattern;
    void *m_code = nullptr; // pcre2_code_8*, kept opaque so the header needs no pcre2.h
    bool m_jit = false;
};

} // namespace Throughline
