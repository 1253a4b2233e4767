#pragma once
// Byte-level BPE tokenizer: Hugging Face tokenizer.json (model type BPE with a ByteLevel
// pre-tokenizer/decoder, as Llama 3.x, gpt-oss and DeepSeek-V3 ship) and tiktoken rank files
// (o200k_base). Encode/decode give the same ids as transformers.js (@lenml/tokenizers) and
// gpt-tokenizer respectively; see core/tokenizer/README.md for the exact rules followed.
//
// Immutable after loading and safe to share between threads (shared_ptr<const BpeTokenizer>); the
// piece cache is internally synchronised.

#include "core/util/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

using TokenId = std::int32_t;

// How text that spells an added/special token (e.g. "<|endoftext|>") is treated.
enum class SpecialTokens {
    Recognize, // split it out and emit the token's id (Hugging Face behaviour; gpt-tokenizer allowedSpecial
               // "all")
    AsText     // encode it like any other text (tiktoken encode_ordinary)
};

// What a tiktoken rank file does not carry: the split pattern and the special tokens.
struct TiktokenSpec {
    std::string name;
    std::string pattern; // JavaScript regex source (gpt-tokenizer's)
    std::vector<std::pair<std::string, TokenId>> specials;
    // The built-in spec for o200k_base (pattern and specials as in gpt-tokenizer 4.0.0).
    static TiktokenSpec o200kBase();
    static TiktokenSpec cl100kBase();
    // o200k_base or cl100k_base; nullopt for other names.
    static std::optional<TiktokenSpec> byName(std::string_view name);
};

class BpeTokenizer
{
public:
    // Loads a tokenizer.json. Errors name the file and the field that is missing or unsupported.
    static Result<std::shared_ptr<const BpeTokenizer>> loadHuggingFace(const std::string &path);
    static Result<std::shared_ptr<const BpeTokenizer>> fromHuggingFaceJson(std::string_view jsonText,
                                                                           const std::string &sourceName);
    // Loads a tiktoken rank file ("base64 rank" per line). Errors name the file and line.
    static Result<std::shared_ptr<const BpeTokenizer>> loadTiktoken(const std::string &path,
                                                                    const TiktokenSpec &spec);

    ~BpeTokenizer();
    BpeTokenizer(const BpeTokenizer &) = delete;
    BpeTokenizer &operator=(const BpeTokenizer &) = delete;

    // Token ids of text, without BOS/EOS or any template (add_special_tokens=false). Invalid UTF-8 is
    // first repaired with U+FFFD like a JavaScript string would be.
    std::vector<TokenId> encode(std::string_view text, SpecialTokens mode = SpecialTokens::Recognize) const;
    std::size_t count(std::string_view text, SpecialTokens mode = SpecialTokens::Recognize) const;
    // Appends the ids of text to out (avoids a vector per call in hot loops).
    void encodeInto(std::string_view text, SpecialTokens mode, std::vector<TokenId> &out) const;

    // Raw bytes of the ids concatenated (added tokens as their text). May end inside a UTF-8 character
    // when the ids were cut; Utf8::sanitize() makes text of it. Unknown ids are skipped.
    std::string decode(std::span<const TokenId> ids) const;
    // Bytes of one token; empty for an unknown id.
    std::string_view tokenBytes(TokenId id) const;

    bool isKnown(TokenId id) const;
    bool isAdded(TokenId id) const; // added or special token (never produced by BPE merges)
    TokenId idUpperBound() const { return static_cast<TokenId>(m_tokens.size()); }
    // Ordinary vocabulary ids (BPE-reachable, not added/special), ascending.
    const std::vector<TokenId> &ordinaryIds() const { return m_ordinary; }
    // Added/special tokens as (text, id).
    std::vector<std::pair<std::string, TokenId>> addedTokens() const;

    const std::string &name() const { return m_name; }

private:
    struct Impl;
    BpeTokenizer();
    void encodeSection(std::string_view text, std::size_t begin, std::size_t end,
                       std::vector<TokenId> &out) const;
    void encodePiece(std::string_view piece, std::vector<TokenId> &out) const;
    void mergePiece(std::string_view piece, std::vector<TokenId> &out) const;
    void finishLoading();

    std::string m_name;
    std::vector<std::string> m_tokens; // id → bytes ("" for unused ids)
    std::vector<std::uint8_t> m_flags; // id → kKnown | kAdded
    std::vector<TokenId> m_ordinary;
    bool m_ignoreMerges = false; // look a whole piece up in the vocabulary before merging
    std::unique_ptr<Impl> m_d;
};

} // namespace Throughline
