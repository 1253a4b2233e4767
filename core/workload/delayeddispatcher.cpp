#include "core/workload/delayeddispatcher.h"

namespace Throughline {

DelayedDispatcher::DelayedDispatcher(Clock::time_point runT0, Send send)
    : m_t0(runT0)
    , m_send(std::move(send))
{
    m_thread = std::thread([this] { run(); });
}

DelayedDispatcher::~DelayedDispatcher()
{
    stop();
}

void DelayedDispatcher::schedule(WorkloadRequest r)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stop)
            return;
        const std::int64_t at = r.notBeforeNs;
        m_queue.emplace(at, std::move(r));
    }
    m_cv.notify_one();
}

void DelayedDispatcher::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_queue.clear();
    }
    m_cv.notify_one();
    if (m_thread.joinable())
        m_thread.join();
}

std::size_t DelayedDispatcher::pending() const
{
    std::lock_guard lock(m_mutex);
    return m_queue.size();
}

void DelayedDispatcher::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_stop) {
        if (m_queue.empty()) {
            m_cv.wait(lock);
            continue;
        }
        const auto due = m_t0 + std::chrono::nanoseconds(m_queue.begin()->first);
        if (Clock::now() < due) {
            m_cv.wait_until(lock, due);
            continue;
        }
        WorkloadRequest r = std::move(m_queue.begin()->second);
        m_queue.erase(m_queue.begin());
        lock.unlock(); // the callback takes the engine's point lock: never hold ours meanwhile
        m_send(std::move(r));
        lock.lock();
    }
}

} // namespace Throughline
