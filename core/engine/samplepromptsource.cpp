#include "core/engine/samplepromptsource.h"

#include "core/util/splitmix.h"

#include <algorithm>

namespace Throughline {

namespace {

std::size_t bytesOf(const Prompt &p)
{
    std::size_t n = p.text.size() + p.tokenIds.size() * sizeof(int);
    for (const ChatMessage &m : p.earlier)
        n += m.content.size();
    return n;
}

} // namespace

WithReplacementSampleOrder::WithReplacementSampleOrder(std::shared_ptr<const PromptSource> inner,
                                                       std::uint64_t size, std::uint64_t seed)
    : m_inner(std::move(inner))
    , m_size(std::max<std::uint64_t>(size, 1))
    , m_seed(seed)
{
}

std::uint64_t WithReplacementSampleOrder::sampleOf(std::uint64_t seq) const
{
    // Independent uniform draws per request (a hash of seed and seq): the order does not depend on which
    // worker asks first, so a run is reproducible.
    return splitmix64(splitmix64(m_seed) ^ seq) % m_size;
}

Prompt WithReplacementSampleOrder::make(std::uint64_t seq, int isl, bool tokenIds) const
{
    const auto key = std::make_tuple(sampleOf(seq), isl, tokenIds);
    {
        std::lock_guard lock(m_mu);
        if (const auto it = m_cache.find(key); it != m_cache.end())
            return it->second;
    }
    Prompt p = m_inner->make(std::get<0>(key), isl, tokenIds);
    std::lock_guard lock(m_mu);
    const std::size_t bytes = bytesOf(p);
    if (m_cachedBytes + bytes <= kMaxCachedBytes && m_cache.emplace(key, p).second)
        m_cachedBytes += bytes;
    return p;
}

std::string WithReplacementSampleOrder::name() const
{
    return m_inner->name() + ", " + std::to_string(m_size) + " samples drawn with replacement";
}

} // namespace Throughline
