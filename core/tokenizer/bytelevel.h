#pragma once
// GPT-2 "byte-level" alphabet: every byte maps to one printable code point (bytes_to_unicode() in
// GPT-2/tokenizers), so vocab strings in tokenizer.json are byte strings in disguise. Thread-safe.

#include <optional>
#include <string>
#include <string_view>

namespace Throughline::ByteLevel {

// The code point that stands for byte b.
char32_t charForByte(unsigned char b);

// Converts a byte-level vocab string back to raw bytes; nullopt when it contains a character outside
// the alphabet (such entries are added tokens stored verbatim, e.g. DeepSeek's "<｜begin▁of▁sentence｜>").
std::optional<std::string> toBytes(std::string_view byteLevelUtf8);

} // namespace Throughline::ByteLevel
