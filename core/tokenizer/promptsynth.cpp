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

} // namespace

PromptSynth::PromptSynth(std::shared_ptr<const BpeTokenizer> tokenizer, PromptSynthOptions options)
    : m_tok(std::move(tokenizer))
    , m_options(options)
{
    for (const TokenId id : m_tok->ordinaryIds())
        if (cleanToken(m_tok->tokenBytes(id)))
            m_allowed.push_back(id);
}

Result<PromptSynth::Prefix> PromptSynth::prefixFor(int tokens) const
{
    std::lock_guard lock(m_prefixMutex);
    if (auto it = m_prefixes.find(tokens); it != m_prefixes.end())
        return it->second;
    // The shared prefix comes from the seed alone (stream ~0), so every request agrees on it.
    auto p = complete(Prefix{}, tokens, ~std::uint64_t{0});
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
    auto r = complete(head, isl, index);
    if (r)
        r->sharedPrefixTokens = shared;
    return r;
}

Result<SynthPrompt> PromptSynth::complete(const Prefix &head, int total, std::uint64_t stream) const
{
    std::mt19937_64 rng(
        splitmix64(m_options.seed ^ splitmix64(stream + 0x51ed2701ULL * static_cast<std::uint64_t>(total))));
    const auto randomId = [&] { return m_allowed[rng() % m_allowed.size()]; };
    const std::size_t want = static_cast<std::size_t>(total);
    const std::size_t headLen = head.ids.size();

    std::vector<TokenId> tail; // ids after the head (canonical after the first round)
    for (std::size_t i = headLen; i < want; ++i)
        tail.push_back(randomId());
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
