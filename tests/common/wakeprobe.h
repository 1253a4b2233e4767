#pragma once
// How late a thread wakes from a 1 ms sleep while a timing test runs: what the machine does to any idle
// thread (0.07 ms p99 on a quiet machine, 1–7 ms at load, or on a virtual machine whose host is busy). Timing
// bounds are judged only where it stayed quiet (kBusyWakeP99Ms); correctness is asserted either way.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace Throughline::TestFixture {

inline constexpr double kBusyWakeP99Ms = 0.5;

class WakeProbe
{
public:
    WakeProbe()
        : m_thread([this] {
            using namespace std::chrono;
            while (m_on.load()) {
                const auto t0 = steady_clock::now();
                std::this_thread::sleep_for(milliseconds(1));
                m_lateMs.push_back(duration<double, std::milli>(steady_clock::now() - t0).count() - 1.0);
            }
        })
    {
    }
    ~WakeProbe() { stop(); }
    WakeProbe(const WakeProbe &) = delete;
    WakeProbe &operator=(const WakeProbe &) = delete;

    // Stops the probe; the p99 of its wake-up lateness in ms (0 when it never woke).
    double stopP99Ms()
    {
        stop();
        if (m_lateMs.empty())
            return 0.0;
        std::vector<double> v = m_lateMs;
        std::sort(v.begin(), v.end());
        return v[std::min(v.size() - 1, static_cast<std::size_t>(0.99 * static_cast<double>(v.size() - 1)))];
    }

private:
    void stop()
    {
        if (m_thread.joinable()) {
            m_on = false;
            m_thread.join();
        }
    }
    std::atomic<bool> m_on{true};
    std::vector<double> m_lateMs;
    std::thread m_thread;
};

} // namespace Throughline::TestFixture
