#include "core/tokenizer/promptsynth.h"

#include "core/tokenizer/utf8.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace Throughline {

namespace {

constexpr int kMaxRounds = 200;

std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

bool cleanToken(std::string_view bytes)
{
    if (bytes.empty() || !Utf8::isValid(bytes))
        return false;
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7F)
            return false;
    }
    return bytes.find("\xEF\xBF\xBD") == std::string_view::npos; // U+FFFD
}

bool wordToken(std::string_view bytes)
{
    if (bytes.size() < 3 || bytes.front() != ' ')
        return false;
    return std::all_of(bytes.begin() + 1, bytes.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
}

} // namespace

PromptSynth::PromptSynth(std::shared_ptr<const BpeTokenizer> tokenizer, PromptSynthOptions options)
    : m_tok(std::move(tokenizer))
    , m_options(options)
{
    // Word tokens (" " + ASCII letters) keep the text in short pre-tokenizer pieces, one token each:
    // re-encoding gives the same ids in one round and hits the piece cache (random multi-byte tokens glue
    // into long pieces that are neither cached nor cheap to merge: ~5× slower at ISL 8000). Other tokenizers:
    // any clean token.
    for (const TokenId id : m_tok->ordinaryIds())
        if (wordToken(m_tok->tokenBytes(id)))
            m_allowed.push_back(id);
    if (m_allowed.size() < 1000) {
        m_allowed.clear();
        for (const TokenId id : m_tok->ordinaryIds())
            if (cleanToken(m_tok->tokenBytes(id)))
                m_allowed.push_back(id);
    }
}

Result<PromptSynth::Prefix> PromptSynth::prefixFor(int tokens) const
{
    std::lock_guard lock(m_prefixMutex);
    if (auto it = m_prefixes.find(tokens); it != m_prefixes.end())
        return it->second;
    // The shared prefix comes from the seed alone (stream ~0), so every request agrees on it.
    auto p = complete(Prefix{}, tokens, ~std::uint64_t{0}, false);
    if (!p)
        return p.error();
    Prefix prefix{std::move(p->text), std::move(p->ids)};
    m_prefixes.emplace(tokens, prefix);
    return prefix;
}

Result<SynthPrompt> PromptSynth::make(std::uint64_t index, int isl) const
{
    if (isl < 1)
        return makeError(ErrorCode::InvalidInput,
                         "prompt length (ISL) must be >= 1, got " + std::to_string(isl));
    if (m_allowed.empty())
        return makeError(ErrorCode::InvalidInput, "tokenizer " + m_tok->name() + " has no usable tokens");
    const double ratio = std::clamp(m_options.sharedPrefixRatio, 0.0, 1.0);
    const int shared = std::min(isl, static_cast<int>(std::lround(ratio * isl)));
    Prefix head;
    if (shared > 0) {
        auto p = prefixFor(shared);
        if (!p)
            return p.error();
        head = std::move(*p);
        if (shared == isl)
            return SynthPrompt{head.text, head.ids, shared};
    }
    auto r = complete(head, isl, index, true);
    if (r)
        r->sharedPrefixTokens = shared;
    return r;
}

std::vector<TokenId> PromptSynth::bodyIds(int tokens) const
{
    std::lock_guard lock(m_bodyMutex);
    while (static_cast<int>(m_body.size()) < tokens) {
        // Block b is canonical on its own (exact kBodyBlock ids) and depends on the seed and b only, so the
        // body does not depend on call order. Streams count down from ~1 (~0 is the shared prefix).
        const std::uint64_t b = m_body.size() / kBodyBlock;
        auto block = complete(Prefix{}, kBodyBlock, ~std::uint64_t{1} - b, false);
        if (block) {
            m_body.insert(m_body.end(), block->ids.begin(), block->ids.end());
        } else { // not expected; random ids still make a valid start (the caller's rounds fix the length)
            std::mt19937_64 rng(splitmix64(m_options.seed ^ b));
            for (int i = 0; i < kBodyBlock; ++i)
                m_body.push_back(m_allowed[rng() % m_allowed.size()]);
        }
    }
    return {m_body.begin(), m_body.begin() + tokens};
}

Result<SynthPrompt> PromptSynth::complete(const Prefix &head, int total, std::uint64_t stream,
                                          bool body) const
{
    std::mt19937_64 rng(
        splitmix64(m_options.seed ^ splitmix64(stream + 0x51ed2701ULL * static_cast<std::uint64_t>(total))));
    const auto randomId = [&] { return m_allowed[rng() % m_allowed.size()]; };
    const std::size_t want = static_cast<std::size_t>(total);
    const std::size_t headLen = head.ids.size();

    std::vector<TokenId> tail; // ids after the head (canonical after the first round)
    tail.reserve(want - std::min(want, headLen) + 8);
    const std::size_t unique = body ? std::min<std::size_t>(kUniqueTokens, want - headLen) : want - headLen;
    for (std::size_t i = 0; i < unique; ++i)
        tail.push_back(randomId());
    if (tail.size() < want - headLen) {
        const std::vector<TokenId> rest = bodyIds(static_cast<int>(want - headLen - tail.size()));
        tail.insert(tail.end(), rest.begin(), rest.end());
    }
    for (int round = 0; round < kMaxRounds; ++round) {
        const std::string text = head.text + Utf8::sanitize(m_tok->decode(tail));
        std::vector<TokenId> ids = m_tok->encode(text);
        const bool headKept =
            ids.size() >= headLen && std::equal(head.ids.begin(), head.ids.end(), ids.begin());
        const bool special =
            std::any_of(ids.begin(), ids.end(), [&](TokenId id) { return m_tok->isAdded(id); });
        if (!headKept || special) {
            // The boundary merged into the prefix (or random text spelled a special token): redraw
            // the first tail token and try again.
            if (tail.empty())
                tail.push_back(randomId());
            tail.front() = randomId();
            if (special)
                for (TokenId &t : tail)
                    if (rng() % 8 == 0)
                        t = randomId();
            continue;
        }
        if (ids.size() == want)
            return SynthPrompt{text, std::move(ids), static_cast<int>(headLen)};
        tail.assign(ids.begin() + static_cast<std::ptrdiff_t>(headLen), ids.end());
        if (ids.size() > want) {
            tail.resize(want - headLen); // trim; re-encoding the cut text is checked next round
        } else {
            for (std::size_t i = ids.size(); i < want; ++i)
                tail.push_back(randomId());
        }
    }
    return makeError(ErrorCode::Internal, "could not synthesise a prompt of exactly " +
                                              std::to_string(total) + " tokens with " + m_tok->name() +
                                              " in " + std::to_string(kMaxRounds) + " rounds");
}

} // namespace Throughline
