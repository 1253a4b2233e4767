#pragma once
// How long ready sockets waited inside a worker before being read (docs/metrics.md "The client's error
// budget"): one count per read in 10 µs buckets up to 50 ms. Written by the worker thread (relaxed
// atomics: one uncontended add per read), taken by the controller at the end of each load point. A
// histogram, not a sample list: at tens of thousands of reads per second the samples would cost more
// than what they measure.

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

namespace Throughline {

class ReadDelayHistogram
{
public:
    static constexpr std::int64_t kBucketNs = 10'000;
    static constexpr std::size_t kBuckets = 5000; // the last bucket holds everything ≥ 50 ms

    // Worker thread.
    void add(std::int64_t delayNs)
    {
        const std::size_t b = delayNs <= 0 ? 0 : static_cast<std::size_t>(delayNs / kBucketNs);
        // fetch_add, not load + store: the controller's exchange(0) may run between the two.
        m_counts[b < kBuckets ? b : kBuckets - 1].fetch_add(1, std::memory_order_relaxed);
    }

    // Any thread: adds the counts since the last take into `into` (sized kBuckets) and resets them. A read
    // racing with the take lands in this take or the next one, never in both.
    void takeInto(std::vector<std::uint64_t> &into)
    {
        into.resize(kBuckets, 0);
        for (std::size_t i = 0; i < kBuckets; ++i)
            into[i] += m_counts[i].exchange(0, std::memory_order_relaxed);
    }

    // Upper edge (ms) of the bucket holding the p-quantile (0 < p ≤ 1) of `counts`; NaN without counts.
    static double quantileMs(const std::vector<std::uint64_t> &counts, double p);
    static std::uint64_t total(const std::vector<std::uint64_t> &counts);

private:
    std::array<std::atomic<std::uint32_t>, kBuckets> m_counts{};
};

} // namespace Throughline
