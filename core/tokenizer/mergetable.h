#pragma once
// Open-addressing hash map from a token pair (left id, right id) to the merge's rank and result id.
// The BPE inner loop looks pairs up millions of times per MB; std::unordered_map's node chasing costs
// more than the whole rest of the loop. Built once, read-only afterwards (thread-safe reads).

#include <cstdint>
#include <vector>

namespace Throughline {

class MergeTable
{
public:
    struct Entry {
        std::uint64_t key = kEmpty;
        std::uint32_t rank = 0;
        std::int32_t id = 0;
    };

    void reserve(std::size_t n)
    {
        std::size_t cap = 16;
        while (cap < n * 2)
            cap <<= 1;
        m_slots.assign(cap, Entry{});
        m_mask = cap - 1;
    }

    // Inserts or overwrites (transformers.js builds its rank Map the same way: a later duplicate merge wins).
    void set(std::int32_t left, std::int32_t right, std::uint32_t rank, std::int32_t id)
    {
        if ((m_size + 1) * 2 > m_slots.size())
            grow();
        const std::uint64_t key = makeKey(left, right);
        std::size_t i = hash(key) & m_mask;
        while (m_slots[i].key != kEmpty && m_slots[i].key != key)
            i = (i + 1) & m_mask;
        if (m_slots[i].key == kEmpty)
            ++m_size;
        m_slots[i] = Entry{key, rank, id};
    }

    // nullptr when the pair never merges.
    const Entry *find(std::int32_t left, std::int32_t right) const
    {
        if (m_slots.empty())
            return nullptr;
        const std::uint64_t key = makeKey(left, right);
        std::size_t i = hash(key) & m_mask;
        for (;;) {
            const Entry &e = m_slots[i];
            if (e.key == key)
                return &e;
            if (e.key == kEmpty)
                return nullptr;
            i = (i + 1) & m_mask;
        }
    }

    std::size_t size() const { return m_size; }

private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    static std::uint64_t makeKey(std::int32_t l, std::int32_t r)
    {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(l)) << 32) |
               static_cast<std::uint32_t>(r);
    }
    static std::size_t hash(std::uint64_t k)
    {
        k ^= k >> 33;
        k *= 0xff51afd7ed558ccdULL;
        k ^= k >> 33;
        return static_cast<std::size_t>(k);
    }
    void grow()
    {
        std::vector<Entry> old;
        old.swap(m_slots);
        reserve(old.empty() ? 8 : old.size());
        m_size = 0;
        for (const Entry &e : old) {
            if (e.key != kEmpty)
                set(static_cast<std::int32_t>(e.key >> 32), static_cast<std::int32_t>(e.key & 0xffffffffu),
                    e.rank, e.id);
        }
    }

    std::vector<Entry> m_slots;
    std::size_t m_mask = 0;
    std::size_t m_size = 0;
};

} // namespace Throughline
