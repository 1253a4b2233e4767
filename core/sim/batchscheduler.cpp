#include "core/sim/batchscheduler.h"

#include "core/sim/prefixcache.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <random>

namespace Throughline {

namespace {
using Clock = std::chrono::steady_clock;
enum class PoolMode { Aggregated, Prefill, Decode };
} // namespace

std::int64_t BatchScheduler::nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

class BatchScheduler::Pool
{
public:
    Pool(PerformanceModel model, PoolMode mode, const SchedulerConfig &config, std::uint64_t seed)
        : m_model(std::move(model))
        , m_mode(mode)
        , m_config(config)
        , m_rng(seed)
    {
        m_kvCapacity = std::int64_t(m_model.kvCapacityTokens());
        m_maxSeqs = m_model.maxSeqs();
        if (config.prefixBlockTokens > 0 && mode != PoolMode::Decode)
            m_prefix = std::make_unique<PrefixCache>(m_kvCapacity / config.prefixBlockTokens,
                                                     config.prefixBlockTokens);
    }
    ~Pool() { stop(); }

    void setNext(Pool *next) { m_next = next; }
    void start()
    {
        m_thread = std::thread([this] { run(); });
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
            if (!force && int(m_incoming.size() + m_waiting.size()) >= m_config.maxWaiting)
                return false;
            m_incoming.push_back(std::move(r));
            m_waitingGauge.store(int(m_incoming.size() + m_waiting.size()), std::memory_order_relaxed);
        }
        m_cv.notify_all();
        return true;
    }
    int running() const { return m_runningGauge.load(std::memory_order_relaxed); }
    int waiting() const { return m_waitingGauge.load(std::memory_order_relaxed); }
    double kvUsage() const
    {
        return m_kvCapacity > 0 ? double(m_kvUsedGauge.load(std::memory_order_relaxed)) / double(m_kvCapacity)
                                : 0.0;
    }
    std::int64_t steps() const { return m_steps.load(std::memory_order_relaxed); }

private:
    struct Event {
        enum Kind { Admitted, Tokens, Finished } kind;
        std::shared_ptr<SimRequest> r;
        int generated;
    };

    std::int64_t kvNeed(const SimRequest &r) const
    {
        // Reserve the whole sequence at admission (no preemption), as TensorRT-LLM's guaranteed-no-evict.
        return m_mode == PoolMode::Prefill ? r.promptTokens : std::int64_t(r.promptTokens) + r.outputTokens;
    }

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

    void publishGauges()
    {
        m_runningGauge.store(int(m_running.size()), std::memory_order_relaxed);
        m_waitingGauge.store(int(m_incoming.size() + m_waiting.size()), std::memory_order_relaxed);
        m_kvUsedGauge.store(m_kvUsed, std::memory_order_relaxed);
    }

    void run()
    {
        m_epoch = Clock::now();
        double simT = 0;
        std::vector<Event> events;
        std::unique_lock lk(m_mu);
        while (!m_stop) {
            const auto now = Clock::now();
            const std::int64_t nowN = ns(now);
            // Arrivals whose KV transfer is complete join the waiting queue in arrival order.
            std::int64_t nextReady = 0;
            for (auto it = m_incoming.begin(); it != m_incoming.end();) {
                if ((*it)->readyNs <= nowN) {
                    m_waiting.push_back(std::move(*it));
                    it = m_incoming.erase(it);
                } else {
                    nextReady = nextReady == 0 ? (*it)->readyNs : std::min(nextReady, (*it)->readyNs);
                    ++it;
                }
            }
            // Admission: FIFO while sequences and KV allow (one request always fits into an empty pool).
            while (!m_waiting.empty()) {
                auto &r = m_waiting.front();
                if (r->cancelled.load(std::memory_order_relaxed)) {
                    events.push_back({Event::Finished, r, r->generated});
                    m_waiting.pop_front();
                    continue;
                }
                const std::int64_t need = kvNeed(*r);
                if (!m_running.empty() &&
                    (int(m_running.size()) >= m_maxSeqs || m_kvUsed + need > m_kvCapacity))
                    break;
                r->kvReserved = need;
                m_kvUsed += need;
                if (m_prefix && !r->prefixHashes.empty() && r->prefilled == 0) {
                    // Cached leading blocks skip prefill; at least the last prompt token is computed (as
                    // vLLM: a full hit still recomputes the last token to sample the first output token).
                    const int b = m_prefix->blockTokens();
                    const int hit = m_prefix->lookup(r->prefixHashes);
                    const int cached = std::min(hit * b, (r->promptTokens - 1) / b * b);
                    r->prefilled = std::max(cached, 0);
                    r->cachedTokens.store(r->prefilled, std::memory_order_relaxed);
                }
                if (m_mode != PoolMode::Decode)
                    events.push_back({Event::Admitted, r, 0});
                m_running.push_back(std::move(r));
                m_waiting.pop_front();
            }
            publishGauges();
            if (m_running.empty()) {
                flush(events, lk);
                if (m_stop)
                    break;
                if (nextReady)
                    m_cv.wait_until(lk, Clock::time_point(std::chrono::nanoseconds(nextReady)));
                else
                    m_cv.wait(lk, [this] { return m_stop || !m_incoming.empty(); });
                simT = simOf(Clock::now()); // idle: the next step starts now
                continue;
            }

            // Plan the step: decodes of the sequences past prefill, prefill chunks within the token budget.
            m_decoding.clear();
            m_chunks.clear();
            double ctxSum = 0;
            for (auto &r : m_running) {
                if (r->prefilled >= r->promptTokens && r->generated >= 1) {
                    m_decoding.push_back(r.get());
                    ctxSum += r->promptTokens + r->generated;
                }
            }
            int budget = m_config.tokenBudget - (m_mode == PoolMode::Aggregated ? int(m_decoding.size()) : 0);
            double stepS = 0;
            for (auto &r : m_running) {
                if (budget <= 0)
                    break;
                if (r->prefilled < r->promptTokens) {
                    const int chunk = std::min(budget, r->promptTokens - r->prefilled);
                    stepS += m_model.prefillChunkS(r->prefilled, chunk);
                    m_chunks.emplace_back(r.get(), chunk);
                    budget -= chunk;
                }
            }
            if (!m_decoding.empty())
                stepS += m_model.decodeStepS(double(m_decoding.size()), ctxSum / double(m_decoding.size()));
            if (m_config.jitter > 0) {
                std::normal_distribution<double> nd(0.0, m_config.jitter);
                stepS *= std::max(0.05, 1.0 + nd(m_rng));
            }
            const double stepEndSim = simT + stepS;
            const auto stepEndWall = wallOf(stepEndSim);
            flush(events, lk); // admissions of this step go out before the step runs
            m_cv.wait_until(lk, stepEndWall, [this] { return m_stop; });
            if (m_stop)
                break;
            const std::int64_t endNs = ns(stepEndWall);

            // Apply the step.
            for (auto &[r, chunk] : m_chunks) {
                r->prefilled += chunk;
                if (r->prefilled >= r->promptTokens && r->generated == 0) {
                    r->generated = 1; // the step that completes the prefill samples the first token
                    r->progressed = true;
                    if (m_prefix && !r->prefixHashes.empty())
                        m_prefix->insert(r->prefixHashes); // its KV blocks are computed now: reusable
                }
            }
            for (auto *r : m_decoding) {
                r->generated += 1;
                r->progressed = true;
            }
            for (auto it = m_running.begin(); it != m_running.end();) {
                auto &r = *it;
                const bool cancelled = r->cancelled.load(std::memory_order_relaxed);
                const bool done = r->generated >= r->outputTokens;
                const bool handOff = m_mode == PoolMode::Prefill && r->generated >= 1;
                if (cancelled)
                    events.push_back({Event::Finished, r, r->generated});
                else if (r->progressed)
                    events.push_back({done ? Event::Finished : Event::Tokens, r, r->generated});
                r->progressed = false;
                if (cancelled || done || handOff) {
                    m_kvUsed -= r->kvReserved;
                    r->kvReserved = 0;
                    if (handOff && !done && !cancelled && m_next) {
                        // KV transfer to the decode pool over NVLink.
                        r->readyNs = endNs + std::int64_t(m_model.kvTransferS(r->promptTokens) /
                                                          m_config.timeScale * 1e9);
                        m_handOffs.push_back(r); // submitted after this step's events went out
                    }
                    it = m_running.erase(it);
                } else {
                    ++it;
                }
            }
            m_steps.fetch_add(1, std::memory_order_relaxed);
            publishGauges();
            m_lastStepEndNs = endNs;
            flush(events, lk);
            for (auto &r : m_handOffs)
                m_next->submit(std::move(r), true);
            m_handOffs.clear();
            simT = stepEndSim;
            // Far behind real time (machine overloaded): re-anchor instead of bursting to catch up.
            if (Clock::now() - wallOf(simT) > std::chrono::milliseconds(200))
                simT = simOf(Clock::now());
        }
        for (auto *q : {&m_waiting, &m_incoming})
            for (auto &r : *q)
                r->sink.reset();
        for (auto &r : m_running)
            r->sink.reset();
        m_running.clear();
        m_waiting.clear();
        m_incoming.clear();
    }

    // Delivers events outside the lock (sinks post to their own executors).
    void flush(std::vector<Event> &events, std::unique_lock<std::mutex> &lk)
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
            case Event::Admitted:
                sink->onAdmitted(e.r->tag, nowNs());
                break;
            case Event::Tokens:
                sink->onTokens(e.r->tag, e.generated, at);
                break;
            case Event::Finished:
                sink->onFinished(e.r->tag, e.generated, at);
                sink.reset();
                break;
            }
        }
        events.clear();
        lk.lock();
    }

    PerformanceModel m_model;
    PoolMode m_mode;
    SchedulerConfig m_config;
    std::mt19937_64 m_rng;
    Pool *m_next = nullptr;
    std::int64_t m_kvCapacity = 0;
    int m_maxSeqs = 1;
    std::unique_ptr<PrefixCache> m_prefix; // pool thread only; null = prefix caching off

    std::mutex m_mu;
    std::condition_variable m_cv;
    bool m_stop = false;
    std::thread m_thread;
    Clock::time_point m_epoch;
    std::deque<std::shared_ptr<SimRequest>> m_incoming; // guarded by m_mu
    std::deque<std::shared_ptr<SimRequest>> m_waiting;  // pool thread
    std::vector<std::shared_ptr<SimRequest>> m_running; // pool thread, admission order
    std::vector<SimRequest *> m_decoding;
    std::vector<std::pair<SimRequest *, int>> m_chunks;
    std::vector<std::shared_ptr<SimRequest>> m_handOffs;
    std::int64_t m_kvUsed = 0;
    std::int64_t m_lastStepEndNs = 0;

    std::atomic<int> m_runningGauge{0};
    std::atomic<int> m_waitingGauge{0};
    std::atomic<std::int64_t> m_kvUsedGauge{0};
    std::atomic<std::int64_t> m_steps{0};
};

BatchScheduler::BatchScheduler(PerformanceModel model, SchedulerConfig config)
    : m_config(config)
{
    m_first = std::make_unique<Pool>(std::move(model), PoolMode::Aggregated, config, config.seed);
}

BatchScheduler::BatchScheduler(PerformanceModel prefillModel, PerformanceModel decodeModel,
                               SchedulerConfig config)
    : m_config(config)
{
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
    if (m_second)
        m_second->start();
    m_first->start();
}

void BatchScheduler::stop()
{
    if (m_first)
        m_first->stop();
    if (m_second)
        m_second->stop();
}

bool BatchScheduler::submit(std::shared_ptr<SimRequest> request)
{
    return m_first->submit(std::move(request), false);
}

SchedulerGauges BatchScheduler::gauges() const
{
    SchedulerGauges g;
    g.running = m_first->running() + (m_second ? m_second->running() : 0);
    g.waiting = m_first->waiting() + (m_second ? m_second->waiting() : 0);
    g.kvUsage = m_second ? m_second->kvUsage() : m_first->kvUsage();
    g.steps = m_first->steps() + (m_second ? m_second->steps() : 0);
    return g;
}

} // namespace Throughline
