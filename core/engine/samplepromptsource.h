#pragma once
// MLPerf Endpoints' performance sample order (EPR-38, loadgen's WithReplacementSampleOrder) for synthetic
// prompts: request `seq` asks for one sample of a dataset of `size` samples, drawn uniformly with
// replacement from (seed, seq); its prompt is the inner source's prompt for that sample index, so a sample
// drawn twice is the same prompt (a server may serve its prefix from cache, as with the real dataset).
// Made prompts are kept (up to kMaxCachedBytes) because the inner source's prepare() pre-generates by request
// seq, which this order does not follow. Thread-safe like every PromptSource.

#include "core/engine/promptsource.h"

#include <map>
#include <mutex>
#include <tuple>

namespace Throughline {

class WithReplacementSampleOrder : public PromptSource
{
public:
    static constexpr std::size_t kMaxCachedBytes = 256u << 20;

    WithReplacementSampleOrder(std::shared_ptr<const PromptSource> inner, std::uint64_t size,
                               std::uint64_t seed);
    Prompt make(std::uint64_t seq, int isl, bool tokenIds) const override;
    std::string name() const override;
    void setRunSalt(std::uint64_t salt) const override { m_inner->setRunSalt(salt); }
    // The dataset sample request `seq` gets, in [0, size).
    std::uint64_t sampleOf(std::uint64_t seq) const;
    std::uint64_t size() const { return m_size; }

private:
    std::shared_ptr<const PromptSource> m_inner;
    std::uint64_t m_size;
    std::uint64_t m_seed;
    mutable std::mutex m_mu;
    mutable std::map<std::tuple<std::uint64_t, int, bool>, Prompt> m_cache;
    mutable std::size_t m_cachedBytes = 0;
};

} // namespace Throughline
