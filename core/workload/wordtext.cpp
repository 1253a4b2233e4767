#include "core/workload/wordtext.h"

#include <algorithm>
#include <string_view>

namespace Throughline {

namespace {

constexpr std::string_view kWords[] = {
    " the",  " of",    " and",   " to",    " in",    " is",     " that",  " for",  " it",    " as",
    " with", " was",   " on",    " be",    " at",    " by",     " this",  " had",  " not",   " are",
    " but",  " from",  " or",    " have",  " an",    " they",   " which", " one",  " you",   " were",
    " her",  " all",   " she",   " there", " would", " their",  " we",    " him",  " been",  " has",
    " when", " who",   " will",  " more",  " no",    " if",     " out",   " so",   " said",  " what",
    " up",   " its",   " about", " into",  " than",  " them",   " can",   " only", " other", " new",
    " some", " could", " time",  " these", " two",   " may",    " then",  " do",   " first", " any",
    " my",   " now",   " such",  " like",  " our",   " over",   " man",   " me",   " even",  " most",
    " made", " after", " also",  " did",   " many",  " before", " must",  " back", " years", " where",
    " much", " your",  " way",   " well",  " down",  " should", " each",  " just", " those", " people"};
constexpr std::uint64_t kWordCount = sizeof(kWords) / sizeof(kWords[0]);

} // namespace

std::uint64_t WordText::mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

void WordText::append(Prompt &out, std::uint64_t key, int n)
{
    std::uint64_t state = mix(key ^ 0x5bd1e995ULL);
    out.text.reserve(out.text.size() + static_cast<std::size_t>(std::max(n, 0)) * 6);
    for (int i = 0; i < n; ++i) {
        state = mix(state);
        const std::uint64_t w = state % kWordCount;
        out.text += kWords[w];
        // Ids inside every catalog vocabulary and clear of special tokens (as SyntheticPromptSource).
        out.tokenIds.push_back(1000 + static_cast<int>((state >> 20) % 20000));
    }
    out.tokens += std::max(n, 0);
}

void WordText::appendMarker(Prompt &out, const std::string &marker)
{
    out.text += marker;
    int words = 1;
    for (char c : marker)
        words += c == ' ';
    std::uint64_t h = 1469598103934665603ULL;
    for (char c : marker)
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    for (int i = 0; i < words; ++i)
        out.tokenIds.push_back(1000 + static_cast<int>(mix(h + static_cast<std::uint64_t>(i)) % 20000));
    out.tokens += words;
}

} // namespace Throughline
