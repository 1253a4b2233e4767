#pragma once
// The simulated endpoint's fixed-latency mode (SchedulerConfig::fixedTtftMs / fixedItlMs), the mock server
// of the vllm-bench overhead protocol: a request is admitted as it arrives (SimRequest::arrivalNs), its first
// token is due TTFT after the arrival and every next one ITL after the previous one's due time — whatever
// the load, the prompt or the performance model. Due times are model time divided by the time scale, and
// follow the schedule, not the writes: a late write does not delay the next token. One thread delivers the
// due events to the requests' sinks; the session writes them and the ground-truth log records when.
// Thread safety: submit() and gauges() from any thread; start() and stop() from the owner.

#include "core/sim/simrequest.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace Throughline {

struct SchedulerConfig;
struct SchedulerGauges;

class FixedLatencyScheduler
{
public:
    explicit FixedLatencyScheduler(const SchedulerConfig &config);
    ~FixedLatencyScheduler();
    FixedLatencyScheduler(const FixedLatencyScheduler &) = delete;
    FixedLatencyScheduler &operator=(const FixedLatencyScheduler &) = delete;

    void start();
    void stop();
    // false when maxWaiting requests are in flight already (HTTP 429), as the batch scheduler's queue bound.
    bool submit(std::shared_ptr<SimRequest> request);
    // running = requests in flight; waiting and KV usage are always 0; steps = wake-ups that delivered.
    SchedulerGauges gauges() const;

private:
    // The next event of one request: admission at its arrival (generated == 0 and not yet progressed),
    // then token generated + 1 at atNs.
    struct Due {
        std::int64_t atNs;
        std::uint64_t order; // FIFO among equal times
        std::shared_ptr<SimRequest> r;
        bool operator>(const Due &o) const { return atNs != o.atNs ? atNs > o.atNs : order > o.order; }
    };
    void run();

    std::int64_t m_ttftNs; // wall ns (model ms / time scale)
    std::int64_t m_itlNs;
    int m_maxInFlight;

    std::mutex m_mu;
    std::condition_variable m_cv;
    bool m_stop = false;
    std::priority_queue<Due, std::vector<Due>, std::greater<>> m_due; // guarded by m_mu
    std::uint64_t m_order = 0;                                        // guarded by m_mu
    std::thread m_thread;

    std::atomic<int> m_inFlight{0};
    std::atomic<std::int64_t> m_steps{0};
};

} // namespace Throughline
