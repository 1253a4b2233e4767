#pragma once
// Prompts of about ISL tokens, unique per request. An interface so the tokenizer module can plug in
// exact-length prompts later; SyntheticPromptSource is the default until then.
// Thread affinity: make() is called from the scheduler thread; implementations must be reentrant.

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

struct Prompt {
    std::string text;          // used when tokenIds is empty
    std::vector<int> tokenIds; // completions flavour with a preset that accepts token-id prompts
    int tokens = 0;            // intended (approximate unless exact) prompt length
    bool exact = false;        // tokenizer-exact length
};

class PromptSource
{
public:
    virtual ~PromptSource() = default;
    // seq makes the prefix unique (defeats prefix caching across requests); isl is the target length.
    virtual Prompt make(std::uint64_t seq, int isl, bool tokenIds) const = 0;
    virtual std::string name() const = 0;
};

// Deterministic synthetic prompts: "Request <seq>-<seed>: " followed by common English words that are one
// token each in the usual BPE vocabularies (Llama 3, GPT-4o, DeepSeek), so the length is ≈ isl tokens
// (typically within ±10 %). Token-id prompts draw ids from [1000, 1000 + 20000) — inside every catalog
// model's vocabulary and clear of special tokens.
class SyntheticPromptSource : public PromptSource
{
public:
    explicit SyntheticPromptSource(std::uint64_t seed = 1)
        : m_seed(seed)
    {
    }
    Prompt make(std::uint64_t seq, int isl, bool tokenIds) const override;
    std::string name() const override { return "synthetic"; }

private:
    std::uint64_t m_seed;
};

} // namespace Throughline
