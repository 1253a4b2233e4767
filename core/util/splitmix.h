#pragma once
// splitmix64: a cheap, well-mixed, platform-independent hash of one 64-bit word — the one place for the
// deterministic per-request draws (prompt text, dataset sample order, simulated prefix cache, datasets).

#include <cstdint>

namespace Throughline {

constexpr std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace Throughline
