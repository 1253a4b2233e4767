#pragma once
// Exact-length prompt synthesis: random allowed tokens → decode → re-encode → trim/extend until the
// text encodes to exactly ISL tokens with the model's own tokenizer (text tokens only: no BOS, no
// chat template — the caller adds those and counts them separately).
//
// Deterministic: a prompt depends only on (tokenizer, seed, shared-prefix ratio, isl, index), not on
// call order or thread. make() is const and thread-safe (the shared-prefix and body caches are locked).
//
// Layout of a prompt: [shared prefix (ratio × isl, same for every index)] [kUniqueTokens random ids drawn
// from the index: no two requests share more than the shared prefix] [body: a seed-fixed run of random ids,
// the same text for every request, cut to length]. Re-encoding a prompt therefore hits the tokenizer's piece
// cache for the body, which makes synthesis ~20× faster than all-random text (ISL 8000: ~3 ms instead of
// ~60 ms on the reference machine; bench_prompts). Prefix caches still see a unique prefix per request.

#include "core/tokenizer/bpetokenizer.h"
#include "core/util/result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace Throughline {

struct PromptSynthOptions {
    int isl = 128;                // tokens per prompt (default for make(index))
    double sharedPrefixRatio = 0; // 0 = every prompt unique from its first token; 0.5 = the first half
                                  // of the tokens is identical across requests (prefix-cache tests)
    std::uint64_t seed = 0;
};

struct SynthPrompt {
    std::string text;           // valid UTF-8
    std::vector<TokenId> ids;   // encode(text): exactly isl ids
    int sharedPrefixTokens = 0; // ids[0, sharedPrefixTokens) are common to all prompts of this isl
};

class PromptSynth
{
public:
    PromptSynth(std::shared_ptr<const BpeTokenizer> tokenizer, PromptSynthOptions options);

    Result<SynthPrompt> make(std::uint64_t index) const { return make(index, m_options.isl); }
    Result<SynthPrompt> make(std::uint64_t index, int isl) const;

    // Ids random prompts draw from: ordinary word tokens (" " + at least two ASCII letters); a tokenizer with
    // fewer than 1,000 of them uses every ordinary token whose bytes are complete UTF-8 without control
    // characters (other than tab and newline).
    const std::vector<TokenId> &allowedIds() const { return m_allowed; }

    static constexpr int kUniqueTokens = 16; // random ids after the shared prefix, per request
    static constexpr int kBodyBlock = 512;   // body ids are made in blocks of this many

private:
    struct Prefix {
        std::string text;
        std::vector<TokenId> ids;
    };
    Result<Prefix> prefixFor(int tokens) const;
    // The first `tokens` ids of the seed's body (blocks of kBodyBlock canonical ids, made on demand).
    std::vector<TokenId> bodyIds(int tokens) const;
    // Finds text whose encoding starts with `head` ids and has exactly `total` ids.
    // body: start from [unique ids] + body ids instead of all-random ids.
    Result<SynthPrompt> complete(const Prefix &head, int total, std::uint64_t stream, bool body) const;

    std::shared_ptr<const BpeTokenizer> m_tok;
    PromptSynthOptions m_options;
    std::vector<TokenId> m_allowed;
    mutable std::mutex m_prefixMutex;
    mutable std::map<int, Prefix> m_prefixes; // shared prefix by token count
    mutable std::mutex m_bodyMutex;
    mutable std::vector<TokenId> m_body; // whole blocks; grows, never changes once made
};

} // namespace Throughline
