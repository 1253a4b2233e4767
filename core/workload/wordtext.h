#pragma once
// Deterministic filler for workload prompts: a key-seeded run of common English words that are one token
// each in the usual BPE vocabularies (≈ 1 token per word), with a parallel token-id form for presets that
// take token-id prompts. words(key, n) is a prefix of words(key, m) for n < m, so equal keys give equal
// prefixes (shared prompt blocks, session histories). Pure, reentrant.

#include "core/engine/promptsource.h"

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

class WordText
{
public:
    // Appends n words of stream `key` (text: " word" each; ids: one id per word) to `out`.
    static void append(Prompt &out, std::uint64_t key, int n);
    // A unique marker ("Session 12 turn 3:") counted as `tokens` ≈ its word count.
    static void appendMarker(Prompt &out, const std::string &marker);
    static std::uint64_t mix(std::uint64_t x);
};

} // namespace Throughline
