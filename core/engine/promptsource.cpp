#include "core/engine/promptsource.h"

#include "core/util/splitmix.h"

#include <algorithm>
#include <string_view>

namespace Throughline {

namespace {

constexpr std::string_view kWords[] = {
    " the",     " of",      " and",    " to",   " in",     " is",     " that",    " for",     " it",
    " as",      " with",    " was",    " on",   " be",     " at",     " by",      " this",    " had",
    " not",     " are",     " but",    " from", " or",     " have",   " an",      " they",    " which",
    " one",     " you",     " were",   " her",  " all",    " she",    " there",   " would",   " their",
    " we",      " him",     " been",   " has",  " when",   " who",    " will",    " more",    " no",
    " if",      " out",     " so",     " said", " what",   " up",     " its",     " about",   " into",
    " than",    " them",    " can",    " only", " other",  " new",    " some",    " could",   " time",
    " these",   " two",     " may",    " then", " do",     " first",  " any",     " my",      " now",
    " such",    " like",    " our",    " over", " man",    " me",     " even",    " most",    " made",
    " after",   " also",    " did",    " many", " before", " must",   " through", " back",    " years",
    " where",   " much",    " your",   " way",  " well",   " down",   " should",  " because", " each",
    " just",    " those",   " people", " how",  " too",    " little", " state",   " good",    " very",
    " make",    " world",   " still",  " own",  " see",    " men",    " work",    " long",    " get",
    " here",    " between", " both",   " life", " being",  " under",  " never",   " day",     " same",
    " another", " know",    " while",  " last"};
constexpr std::uint64_t kWordCount = sizeof(kWords) / sizeof(kWords[0]);

} // namespace

std::uint64_t PromptSource::runSalt(std::string_view runId)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : runId) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

Prompt SyntheticPromptSource::make(std::uint64_t seq, int isl, bool tokenIds) const
{
    Prompt p;
    p.tokens = isl;
    const std::uint64_t salt = m_salt.load(std::memory_order_relaxed);
    std::uint64_t state = splitmix64(m_seed ^ splitmix64(seq) ^ salt);
    if (tokenIds) {
        p.tokenIds.reserve(static_cast<std::size_t>(isl));
        // Unique prefix: the run salt's and sequence number's base-20000 digits, then pseudo-random ids.
        std::uint64_t s = seq ^ salt;
        do {
            p.tokenIds.push_back(1000 + static_cast<int>(s % 20000));
            s /= 20000;
        } while (s > 0 && static_cast<int>(p.tokenIds.size()) < isl);
        while (static_cast<int>(p.tokenIds.size()) < isl) {
            state = splitmix64(state);
            p.tokenIds.push_back(1000 + static_cast<int>(state % 20000));
        }
        p.tokenIds.resize(static_cast<std::size_t>(std::max(isl, 1)), 1000);
        return p;
    }
    // The prefix "Request 123-1:" costs about 6 tokens; fill the rest with one-token words.
    p.text = "Request " + std::to_string(seq) + "-" + std::to_string(m_seed) +
             (salt ? "-" + std::to_string(salt % 100000) : std::string()) + ":";
    const int words = std::max(isl - 6, 1);
    p.text.reserve(p.text.size() + static_cast<std::size_t>(words) * 6);
    for (int i = 0; i < words; ++i) {
        state = splitmix64(state);
        p.text += kWords[state % kWordCount];
    }
    return p;
}

} // namespace Throughline
