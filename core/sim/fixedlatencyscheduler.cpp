#include "core/sim/fixedlatencyscheduler.h"

#include "core/sim/batchscheduler.h"

#include <pthread.h>

#include <chrono>
#include <cmath>

namespace Throughline {

namespace {

std::int64_t wallNs(double modelMs, double timeScale)
{
    return std::llround(modelMs * 1e6 / (timeScale > 0 ? timeScale : 1.0));
}

} // namespace

FixedLatencyScheduler::FixedLatencyScheduler(const SchedulerConfig &config)
    : m_ttftNs(wallNs(config.fixedTtftMs, config.timeScale))
    , m_itlNs(wallNs(config.fixedItlMs, config.timeScale))
    , m_maxInFlight(config.maxWaiting)
{
}

FixedLatencyScheduler::~FixedLatencyScheduler()
{
    stop();
}

void FixedLatencyScheduler::start()
{
    m_thread = std::thread([this] {
        pthread_setname_np(pthread_self(), "tl-sim-step"); // the server's, not the client's (simserver.cpp)
        run();
    });
}

void FixedLatencyScheduler::stop()
{
    {
        std::lock_guard lk(m_mu);
        m_stop = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

bool FixedLatencyScheduler::submit(std::shared_ptr<SimRequest> request)
{
    {
        std::lock_guard lk(m_mu);
        if (m_stop || m_inFlight.load(std::memory_order_relaxed) >= m_maxInFlight)
            return false;
        const std::int64_t at = request->arrivalNs > 0 ? request->arrivalNs : BatchScheduler::nowNs();
        request->arrivalNs = at;
        m_due.push({at, m_order++, std::move(request)});
        m_inFlight.fetch_add(1, std::memory_order_relaxed);
    }
    m_cv.notify_all();
    return true;
}

SchedulerGauges FixedLatencyScheduler::gauges() const
{
    SchedulerGauges g;
    g.running = m_inFlight.load(std::memory_order_relaxed);
    g.steps = m_steps.load(std::memory_order_relaxed);
    return g;
}

void FixedLatencyScheduler::run()
{
    enum class What { Admitted, Tokens, Finished };
    struct Event {
        What what;
        std::shared_ptr<SimRequest> r;
        int generated;
        std::int64_t atNs;
    };
    std::vector<Event> events;
    std::unique_lock lk(m_mu);
    while (!m_stop) {
        if (m_due.empty()) {
            m_cv.wait(lk, [this] { return m_stop || !m_due.empty(); });
            continue;
        }
        const std::int64_t next = m_due.top().atNs;
        if (next > BatchScheduler::nowNs()) {
            m_cv.wait_until(lk, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(next)));
            continue; // a new arrival may be due earlier (TTFT 0), or a spurious wake-up
        }
        // Everything due by now, in due order; each request's next event goes back on the heap.
        const std::int64_t now = BatchScheduler::nowNs();
        while (!m_due.empty() && m_due.top().atNs <= now) {
            Due d = m_due.top();
            m_due.pop();
            SimRequest &r = *d.r;
            if (r.cancelled.load(std::memory_order_relaxed)) {
                events.push_back({What::Finished, d.r, r.generated, d.atNs});
                continue;
            }
            if (!r.progressed) { // arrival: admitted at once, the first token TTFT later
                r.progressed = true;
                events.push_back({What::Admitted, d.r, 0, d.atNs});
                m_due.push({d.atNs + m_ttftNs, m_order++, std::move(d.r)});
                continue;
            }
            ++r.generated;
            const bool done = r.generated >= r.outputTokens;
            events.push_back({done ? What::Finished : What::Tokens, d.r, r.generated, d.atNs});
            if (!done)
                m_due.push({d.atNs + m_itlNs, m_order++, std::move(d.r)});
        }
        // Delivered outside the lock (sinks post to their own executors).
        lk.unlock();
        for (Event &e : events) {
            if (e.what == What::Finished)
                m_inFlight.fetch_sub(1, std::memory_order_relaxed);
            auto &sink = e.r->sink;
            if (!sink)
                continue;
            switch (e.what) {
            case What::Admitted:
                sink->onAdmitted(e.r->tag, e.atNs);
                break;
            case What::Tokens:
                sink->onTokens(e.r->tag, e.generated, e.atNs);
                break;
            case What::Finished:
                sink->onFinished(e.r->tag, e.generated, e.atNs);
                sink.reset(); // breaks the session ↔ request cycle (simrequest.h)
                break;
            }
        }
        events.clear();
        m_steps.fetch_add(1, std::memory_order_relaxed);
        lk.lock();
    }
    while (!m_due.empty()) {
        m_due.top().r->sink.reset();
        m_due.pop();
    }
}

} // namespace Throughline
