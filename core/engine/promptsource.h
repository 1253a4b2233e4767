#pragma once
// Prompts of ISL tokens, unique per request. SyntheticPromptSource (≈ ISL, no tokenizer needed) is the
// fallback; TokenizerPromptSource (core/engine/tokenizerpromptsource.h) makes exact-length prompts with the
// model's own tokenizer and is chosen per scenario through a PromptSourceFactory.
// Thread affinity: make() is called from the scheduler thread and from worker threads (closed loop);
// implementations must be reentrant.

#include "core/tokenizer/chattemplate.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

struct Scenario;

struct Prompt {
    std::string text;          // used when tokenIds is empty
    std::vector<int> tokenIds; // completions flavour with a preset that accepts token-id prompts
    int tokens = 0;            // intended (approximate unless exact) prompt length
    bool exact = false;        // tokenizer-exact length
    // Chat: the conversation before this prompt (multi-turn: earlier user turns and the server's answers);
    // the request's messages are these plus {"user", text}. Completions send text alone.
    std::vector<ChatMessage> earlier;
};

class PromptSource
{
public:
    virtual ~PromptSource() = default;
    // seq makes the prefix unique (defeats prefix caching across requests); isl is the target length.
    virtual Prompt make(std::uint64_t seq, int isl, bool tokenIds) const = 0;
    virtual std::string name() const = 0;
    // The run the prompts are for (RequestBuilder's constructor, before any make()): mixed into each
    // request's unique part, so a later run against the same server — or shard 0 of a sharded run after an
    // unsharded one, whose seqs also start at 0 — does not find its prompts in the server's prefix cache (it
    // did: tst_clishardmerge's shards were served 1.5–7 % faster than the reference run before them).
    // Lengths, the seed-fixed body and configured shared prefixes do not depend on it; prompts stay
    // reproducible from (seed, run id, seq). Default: ignored.
    virtual void setRunSalt(std::uint64_t salt) const { (void)salt; }
    static std::uint64_t runSalt(std::string_view runId); // FNV-1a of the run id
    // Hint before a load point: requests seq in [firstSeq, firstSeq + count) will follow, with ISL islOf(seq)
    // (a pure function). Sources that are slow to make prompts pre-generate them off the sending path and
    // return once the first `readyBefore` are made (the point's opening burst); make() stays correct for any
    // (seq, isl) whether hinted or not. Default: nothing.
    virtual void prepare(std::uint64_t firstSeq, std::uint64_t count,
                         std::function<int(std::uint64_t seq)> islOf, std::uint64_t readyBefore = 0) const
    {
        (void)firstSeq;
        (void)count;
        (void)islOf;
        (void)readyBefore;
    }
};

// The prompt source of one scenario and, when it is not exact, why (a sentence for the points' validity
// notes, e.g. "approximate ISL: tokenizer llama3_1 not fetched; run `throughline-cli tokenizers fetch`").
struct PromptSourceChoice {
    std::shared_ptr<const PromptSource> source; // null = the RequestBuilder's default (synthetic)
    std::string note;
};
using PromptSourceFactory = std::function<PromptSourceChoice(const Scenario &)>;

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
    void setRunSalt(std::uint64_t salt) const override { m_salt.store(salt, std::memory_order_relaxed); }

private:
    std::uint64_t m_seed;
    mutable std::atomic<std::uint64_t> m_salt{0};
};

} // namespace Throughline
