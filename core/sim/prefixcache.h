#pragma once
// Prefix (KV block) cache of the simulated endpoint, as vLLM's automatic prefix caching sees it: a prompt is
// cut into full blocks of `blockTokens` tokens, block i is named by a hash chained over blocks 0..i, and a
// new request reuses the leading blocks whose hashes are cached (so two prompts share cache entries only for
// an identical prefix). Least recently used blocks are evicted beyond `capacityBlocks` (the pool's KV
// capacity ÷ block size). Not thread-safe: owned and used by one scheduler pool thread.

#include <cstdint>
#include <list>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Throughline {

class PrefixCache
{
public:
    PrefixCache(std::int64_t capacityBlocks, int blockTokens);

    // Chained hashes of the full blocks of a token-id prompt.
    static std::vector<std::uint64_t> blockHashes(std::span<const std::int32_t> ids, int blockTokens);
    // Same for a text prompt without a tokenizer: blocks of 4 × blockTokens bytes (the bytes/4 counter).
    static std::vector<std::uint64_t> byteBlockHashes(std::string_view text, int blockTokens);

    // Leading blocks of `hashes` present in the cache (refreshed as most recently used).
    int lookup(const std::vector<std::uint64_t> &hashes);
    // Adds (or refreshes) every block of a prompt whose prefill completed; evicts LRU blocks over capacity.
    void insert(const std::vector<std::uint64_t> &hashes);

    int blockTokens() const { return m_blockTokens; }
    std::size_t size() const { return m_index.size(); }

private:
    void touch(std::list<std::uint64_t>::iterator it);

    std::int64_t m_capacity;
    int m_blockTokens;
    std::list<std::uint64_t> m_lru; // front = most recent
    std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> m_index;
};

} // namespace Throughline
