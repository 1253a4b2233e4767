#include "core/sim/batchscheduler.h"

#include "core/sim/batchstepper.h"
#include "core/sim/fixedlatencyscheduler.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>

namespace Throughline {

namespace {
using Clock = std::chrono::steady_clock;
} // namespace

std::int64_t BatchScheduler::nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

class BatchScheduler::Pool
{
public:
    Pool(PerformanceModel model, PoolMode mode, const SchedulerConfig &config, std::uint64_t seed)
        : m_stepper(std::move(model), mode, config, seed)
        , m_config(config)
    {
    }
    ~Pool() { stop(); }

    void setNext(Pool *next) { m_next = next; }
    // epoch: the scheduler's start, shared by both pools of a disaggregated deployment, so model time
    // (simT, the argument of planStep) counts from the same moment in each.
    void start(Clock::time_point epoch)
    {
        m_epoch = epoch;
        m_thread = std::thread([this] {
            pthread_setname_np(pthread_self(),
                               "tl-sim-step"); // the server's, not the client's (simserver.cpp)
            run();
        });
    }
    void stop()
    {
        {
            std::lock_guard lk(m_mu);
            m_stop = true;
        }
        m_cv.notify_all();
        if (m_thread.joinable())
            m_thread.join();
    }
    bool submit(std::shared_ptr<SimRequest> r, bool force)
    {
        {
            std::lock_guard lk(m_mu);
            if (m_stop)
                return false;
            if (!force && int(m_incoming.size()) + m_stepper.waiting() >= m_config.maxWaiting)
                return false;
            m_incoming.push_back(std::move(r));
            m_waitingGauge.store(int(m_incoming.size()) + m_stepper.waiting(), std::memory_order_relaxed);
        }
        m_cv.notify_all();
        return true;
    }
    int running() const { return m_runningGauge.load(std::memory_order_relaxed); }
    int waiting() const { return m_waitingGauge.load(std::memory_order_relaxed); }
    double kvUsage() const
    {
        const auto cap = m_stepper.kvCapacity();
        return cap > 0 ? double(m_kvUsedGauge.load(std::memory_order_relaxed)) / double(cap) : 0.0;
    }
    std::int64_t steps() const { return m_steps.load(std::memory_order_relaxed); }

private:
    Clock::time_point wallOf(double simS) const
    {
        return m_epoch + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(simS / m_config.timeScale));
    }
    double simOf(Clock::time_point t) const
    {
        return std::chrono::duration<double>(t - m_epoch).count() * m_config.timeScale;
    }
    static std::int64_t ns(Clock::time_point t)
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
    }

    // Under m_mu (the incoming list is shared with submit()).
    void publishGauges()
    {
        m_runningGauge.store(m_stepper.running(), std::memory_order_relaxed);
        m_waitingGauge.store(int(m_incoming.size()) + m_stepper.waiting(), std::memory_order_relaxed);
        m_kvUsedGauge.store(m_stepper.kvUsed(), std::memory_order_relaxed);
    }

    void run()
    {
        double simT = simOf(Clock::now()); // model seconds since the scheduler started
        std::vector<StepEvent> events;
        std::vector<std::shared_ptr<SimRequest>> handOffs;
        std::unique_lock lk(m_mu);
        while (!m_stop) {
            const auto now = Clock::now();
            const std::int64_t nowN = ns(now);
            // Arrivals whose KV transfer is complete join the waiting queue in arrival order.
            std::int64_t nextReady = 0;
            for (auto it = m_incoming.begin(); it != m_incoming.end();) {
                if ((*it)->readyNs <= nowN) {
                    m_stepper.enqueue(std::move(*it));
                    it = m_incoming.erase(it);
                } else {
                    nextReady = nextReady == 0 ? (*it)->readyNs : std::min(nextReady, (*it)->readyNs);
                    ++it;
                }
            }
            m_stepper.admit(events);
            publishGauges();
            if (!m_stepper.hasRunning()) {
                flush(events, lk, nowNs());
                if (m_stop)
                    break;
                if (nextReady)
                    m_cv.wait_until(lk, Clock::time_point(std::chrono::nanoseconds(nextReady)));
                else
                    m_cv.wait(lk, [this] { return m_stop || !m_incoming.empty(); });
                simT = simOf(Clock::now()); // idle: the next step starts now
                continue;
            }

            const double stepEndSim = simT + m_stepper.planStep(simT);
            const auto stepEndWall = wallOf(stepEndSim);
            // Admissions of this step go out before the step runs, at its planned start: the first token's
            // time is the step's planned end, so the two stay ordered when the loop runs behind.
            flush(events, lk, ns(wallOf(simT)));
            m_cv.wait_until(lk, stepEndWall, [this] { return m_stop; });
            if (m_stop)
                break;
            const std::int64_t endNs = ns(stepEndWall);
            m_stepper.applyStep(endNs, events, handOffs);
            m_steps.fetch_add(1, std::memory_order_relaxed);
            publishGauges();
            m_lastStepEndNs = endNs;
            flush(events, lk, endNs);
            for (auto &r : handOffs)
                if (m_next)
                    m_next->submit(std::move(r), true);
            handOffs.clear();
            simT = stepEndSim;
            // Far behind real time (machine overloaded): re-anchor instead of bursting to catch up.
            if (Clock::now() - wallOf(simT) > std::chrono::milliseconds(200))
                simT = simOf(Clock::now());
        }
        for (auto &r : m_incoming)
            r->sink.reset();
        m_incoming.clear();
        m_stepper.clear();
    }

    // Delivers events outside the lock (sinks post to their own executors).
    void flush(std::vector<StepEvent> &events, std::unique_lock<std::mutex> &lk, std::int64_t admittedNs)
    {
        if (events.empty())
            return;
        const std::int64_t at = m_lastStepEndNs ? m_lastStepEndNs : nowNs();
        lk.unlock();
        for (auto &e : events) {
            auto &sink = e.r->sink;
            if (!sink)
                continue;
            switch (e.kind) {
            case StepEvent::Admitted:
                sink->onAdmitted(e.r->tag, admittedNs);
                break;
            case StepEvent::Tokens:
                sink->onTokens(e.r->tag, e.generated, at);
                break;
            case StepEvent::Finished:
                sink->onFinished(e.r->tag, e.generated, at);
                sink.reset();
                break;
            }
        }
        events.clear();
        lk.lock();
    }

    BatchStepper m_stepper; // pool thread only (waiting/running queues, KV, prefix cache)
    SchedulerConfig m_config;
    Pool *m_next = nullptr;

    std::mutex m_mu;
    std::condition_variable m_cv;
    bool m_stop = false;
    std::thread m_thread;
    Clock::time_point m_epoch;
    std::deque<std::shared_ptr<SimRequest>> m_incoming; // guarded by m_mu
    std::int64_t m_lastStepEndNs = 0;

    std::atomic<int> m_runningGauge{0};
    std::atomic<int> m_waitingGauge{0};
    std::atomic<std::int64_t> m_kvUsedGauge{0};
    std::atomic<std::int64_t> m_steps{0};
};

BatchScheduler::BatchScheduler(PerformanceModel model, SchedulerConfig config)
    : m_config(config)
{
    if (config.fixedLatency()) {
        m_fixed = std::make_unique<FixedLatencyScheduler>(config);
        return;
    }
    m_first = std::make_unique<Pool>(std::move(model), PoolMode::Aggregated, config, config.seed);
}

BatchScheduler::BatchScheduler(PerformanceModel prefillModel, PerformanceModel decodeModel,
                               SchedulerConfig config)
    : m_config(config)
{
    if (config.fixedLatency()) { // no pools: the disaggregation does not matter either
        m_fixed = std::make_unique<FixedLatencyScheduler>(config);
        return;
    }
    m_first = std::make_unique<Pool>(std::move(prefillModel), PoolMode::Prefill, config, config.seed);
    m_second = std::make_unique<Pool>(std::move(decodeModel), PoolMode::Decode, config, config.seed + 1);
    m_first->setNext(m_second.get());
}

BatchScheduler::~BatchScheduler()
{
    stop();
}

void BatchScheduler::start()
{
    if (m_fixed)
        return m_fixed->start();
    const auto epoch = Clock::now();
    if (m_second)
        m_second->start(epoch);
    m_first->start(epoch);
}

void BatchScheduler::stop()
{
    if (m_fixed)
        m_fixed->stop();
    if (m_first)
        m_first->stop();
    if (m_second)
        m_second->stop();
}

bool BatchScheduler::submit(std::shared_ptr<SimRequest> request)
{
    if (m_fixed)
        return m_fixed->submit(std::move(request));
    return m_first->submit(std::move(request), false);
}

SchedulerGauges BatchScheduler::gauges() const
{
    if (m_fixed)
        return m_fixed->gauges();
    SchedulerGauges g;
    g.running = m_first->running() + (m_second ? m_second->running() : 0);
    g.waiting = m_first->waiting() + (m_second ? m_second->waiting() : 0);
    g.kvUsage = m_second ? m_second->kvUsage() : m_first->kvUsage();
    g.steps = m_first->steps() + (m_second ? m_second->steps() : 0);
    return g;
}

} // namespace Throughline
