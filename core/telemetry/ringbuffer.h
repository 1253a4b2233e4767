#pragma once
// Fixed-capacity ring buffer: pushing into a full ring overwrites the oldest element (counted).
// Not thread-safe; owners guard it.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace Throughline {

template <typename T>
class RingBuffer
{
public:
    explicit RingBuffer(std::size_t capacity = 1024)
        : m_capacity(capacity > 0 ? capacity : 1)
    {
    }

    void push(T value)
    {
        if (m_data.size() < m_capacity) {
            m_data.push_back(std::move(value));
            return;
        }
        m_data[m_head] = std::move(value);
        m_head = (m_head + 1) % m_capacity;
        ++m_dropped;
    }

    std::size_t size() const { return m_data.size(); }
    std::size_t capacity() const { return m_capacity; }
    bool empty() const { return m_data.empty(); }
    std::uint64_t dropped() const { return m_dropped; }

    // i = 0 is the oldest element.
    const T &at(std::size_t i) const { return m_data[(m_head + i) % m_data.size()]; }
    const T &back() const { return at(m_data.size() - 1); }

    template <typename Fn>
    void forEach(Fn &&fn) const
    {
        for (std::size_t i = 0; i < m_data.size(); ++i)
            fn(at(i));
    }

private:
    std::size_t m_capacity;
    std::size_t m_head = 0; // index of the oldest element once full
    std::vector<T> m_data;
    std::uint64_t m_dropped = 0;
};

} // namespace Throughline
