#include "core/sim/prefixcache.h"

#include "core/util/splitmix.h"

#include <algorithm>

namespace Throughline {

PrefixCache::PrefixCache(std::int64_t capacityBlocks, int blockTokens)
    : m_capacity(std::max<std::int64_t>(capacityBlocks, 1))
    , m_blockTokens(std::max(blockTokens, 1))
{
}

std::vector<std::uint64_t> PrefixCache::blockHashes(std::span<const std::int32_t> ids, int blockTokens)
{
    std::vector<std::uint64_t> out;
    if (blockTokens < 1)
        return out;
    const std::size_t blocks = ids.size() / static_cast<std::size_t>(blockTokens);
    out.reserve(blocks);
    std::uint64_t h = 0x5eedULL;
    for (std::size_t b = 0; b < blocks; ++b) {
        for (int i = 0; i < blockTokens; ++i)
            h = splitmix64(h ^
                           static_cast<std::uint32_t>(ids[b * static_cast<std::size_t>(blockTokens) + i]));
        out.push_back(h);
    }
    return out;
}

std::vector<std::uint64_t> PrefixCache::byteBlockHashes(std::string_view text, int blockTokens)
{
    std::vector<std::uint64_t> out;
    if (blockTokens < 1)
        return out;
    const std::size_t blockBytes = 4 * static_cast<std::size_t>(blockTokens);
    const std::size_t blocks = text.size() / blockBytes;
    out.reserve(blocks);
    std::uint64_t h = 0xb17e5ULL;
    for (std::size_t b = 0; b < blocks; ++b) {
        for (std::size_t i = 0; i < blockBytes; i += 8) {
            std::uint64_t w = 0;
            for (std::size_t k = 0; k < 8 && i + k < blockBytes; ++k)
                w |= std::uint64_t(static_cast<unsigned char>(text[b * blockBytes + i + k])) << (8 * k);
            h = splitmix64(h ^ w);
        }
        out.push_back(h);
    }
    return out;
}

void PrefixCache::touch(std::list<std::uint64_t>::iterator it)
{
    m_lru.splice(m_lru.begin(), m_lru, it);
}

int PrefixCache::lookup(const std::vector<std::uint64_t> &hashes)
{
    std::size_t hit = 0;
    while (hit < hashes.size() && m_index.contains(hashes[hit]))
        ++hit;
    // Refresh tail first so the leading blocks end up most recent: eviction takes a chain's tail first
    // (vLLM frees a request's blocks in reverse order for the same reason).
    for (std::size_t i = hit; i-- > 0;)
        touch(m_index.at(hashes[i]));
    return static_cast<int>(hit);
}

void PrefixCache::insert(const std::vector<std::uint64_t> &hashes)
{
    for (auto r = hashes.rbegin(); r != hashes.rend(); ++r) { // tail first, see lookup()
        const std::uint64_t h = *r;
        if (const auto it = m_index.find(h); it != m_index.end()) {
            touch(it->second);
            continue;
        }
        m_lru.push_front(h);
        m_index.emplace(h, m_lru.begin());
    }
    while (static_cast<std::int64_t>(m_index.size()) > m_capacity) {
        m_index.erase(m_lru.back());
        m_lru.pop_back();
    }
}

} // namespace Throughline
