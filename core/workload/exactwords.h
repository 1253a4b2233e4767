#pragma once
// Exact-length workload prompts with the model's own tokenizer (trace blocks, multi-turn turns, agentic
// calls). Filler is drawn from word tokens (" " + ASCII letters) that encode to themselves on their own;
// each is its own pre-tokenizer piece, so any run of them re-encodes to exactly those ids, runs concatenate
// additively, and a prefix of a run is a prefix of its tokens (shared hash-id blocks stay shared prefixes).
// fit() then makes the whole prompt exactly the target as the server counts it — completions: the text's
// tokens; chat: the prompt templated as one user message (core/tokenizer/chattemplate.h) — by dropping or
// adding filler words at its end (a template can change how the content's first word tokenizes).
//
// Deterministic from the key (the driver mixes seed, session/entry and the run salt into it). Immutable
// after construction; methods are reentrant.

#include "core/campaign/scenario.h"
#include "core/engine/promptsource.h"
#include "core/tokenizer/bpetokenizer.h"
#include "core/tokenizer/chattemplate.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace Throughline {

class ExactWords
{
public:
    // The scenario model's tokenizer from the default tokenizer cache (TokenizerStore, as the CLI's exact
    // prompts), with its chat template for chat-flavour endpoints; nullptr (≈-length filler then) when the
    // tokenizer is unknown or not fetched.
    static std::shared_ptr<const ExactWords> forScenario(const Scenario &scenario);

    ExactWords(std::shared_ptr<const BpeTokenizer> tokenizer, std::optional<ChatTemplate> chat);

    bool usable() const { return m_words.size() >= 256; }
    // Appends n filler tokens of stream `key` (text; ids in tokenIds; tokens += n).
    void append(Prompt &out, std::uint64_t key, int n) const;
    // Tokens the server counts for a prompt text (chat: templated as one user message).
    int count(const std::string &text) const;
    // Tokens the server counts for a prompt (chat: its earlier messages + text as the last user message).
    int count(const Prompt &p) const;
    // Chat: tokens of a conversation alone (no generation prompt), what a multi-turn history occupies.
    int countHistory(const std::vector<ChatMessage> &messages) const;
    // Template tokens around an empty user message (0 for completions).
    int overhead() const { return m_overhead; }
    // Makes p exactly `target` server tokens (count(p)) by dropping or adding filler words at its end (stream
    // `key`): p.tokens = target, p.exact = true, and (completions) p.tokenIds = the text's ids. False (p
    // unchanged in meaning, exact = false, tokens = what the server will count) when the target cannot be
    // met, e.g. it is below the non-filler part.
    bool fit(Prompt &p, int target, std::uint64_t key) const;

    const BpeTokenizer &tokenizer() const { return *m_tok; }
    bool chat() const { return m_chat.has_value(); }

private:
    std::shared_ptr<const BpeTokenizer> m_tok;
    std::optional<ChatTemplate> m_chat;
    std::vector<TokenId> m_words; // self-encoding word tokens
    int m_overhead = 0;
};

} // namespace Throughline
