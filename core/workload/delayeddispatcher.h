#pragma once
// Sends workload requests at their notBeforeNs (think times, trace timestamps) from its own thread, so
// worker threads never sleep. Earliest first; requests due at the same time keep their scheduling order.
// Thread affinity: schedule()/stop() from any thread; the callback runs on the dispatcher thread.

#include "core/workload/workloaddriver.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace Throughline {

class DelayedDispatcher
{
public:
    using Clock = std::chrono::steady_clock;
    using Send = std::function<void(WorkloadRequest &&)>;

    DelayedDispatcher(Clock::time_point runT0, Send send);
    ~DelayedDispatcher();
    DelayedDispatcher(const DelayedDispatcher &) = delete;
    DelayedDispatcher &operator=(const DelayedDispatcher &) = delete;

    void schedule(WorkloadRequest r); // at r.notBeforeNs (run clock)
    void stop();                      // drops what is still queued; joins
    std::size_t pending() const;

private:
    void run();
    Clock::time_point m_t0;
    Send m_send;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::multimap<std::int64_t, WorkloadRequest> m_queue;
    bool m_stop = false;
    std::thread m_thread;
};

} // namespace Throughline
