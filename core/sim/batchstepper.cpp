#include "core/sim/batchstepper.h"

#include "core/sim/batchscheduler.h"
#include "core/sim/prefixcache.h"

#include <algorithm>

namespace Throughline {

BatchStepper::BatchStepper(PerformanceModel model, PoolMode mode, const SchedulerConfig &config,
                           std::uint64_t seed)
    : m_model(std::move(model))
    , m_mode(mode)
    , m_tokenBudget(config.tokenBudget)
    , m_jitter(config.jitter)
    , m_timeScale(config.timeScale)
    , m_slowdown(1.0 + config.slowdownPct / 100.0)
    , m_shiftFactor(config.slowdownFactor)
    , m_shiftAfterS(config.slowdownAfterS)
    , m_driftPerHour(config.slowdownPerHour)
    , m_rng(seed)
{
    m_kvCapacity = std::int64_t(m_model.kvCapacityTokens());
    m_maxSeqs = m_model.maxSeqs();
    if (config.prefixBlockTokens > 0 && mode != PoolMode::Decode)
        m_prefix =
            std::make_unique<PrefixCache>(m_kvCapacity / config.prefixBlockTokens, config.prefixBlockTokens);
}

BatchStepper::~BatchStepper() = default;

std::int64_t BatchStepper::kvNeed(const SimRequest &r) const
{
    // Reserve the whole sequence at admission (no preemption), as TensorRT-LLM's guaranteed-no-evict.
    return m_mode == PoolMode::Prefill ? r.promptTokens : std::int64_t(r.promptTokens) + r.outputTokens;
}

void BatchStepper::admit(std::vector<StepEvent> &events)
{
    while (!m_waiting.empty()) {
        auto &r = m_waiting.front();
        if (r->cancelled.load(std::memory_order_relaxed)) {
            events.push_back({StepEvent::Finished, r, r->generated});
            m_waiting.pop_front();
            continue;
        }
        const std::int64_t need = kvNeed(*r);
        if (!m_running.empty() && (int(m_running.size()) >= m_maxSeqs || m_kvUsed + need > m_kvCapacity))
            break;
        r->kvReserved = need;
        m_kvUsed += need;
        if (m_prefix && !r->prefixHashes.empty() && r->prefilled == 0) {
            // Cached leading blocks skip prefill; at least the last prompt token is computed (as vLLM: a
            // full hit still recomputes the last token to sample the first output token).
            const int b = m_prefix->blockTokens();
            const int hit = m_prefix->lookup(r->prefixHashes);
            const int cached = std::min(hit * b, (r->promptTokens - 1) / b * b);
            r->prefilled = std::max(cached, 0);
            r->cachedTokens.store(r->prefilled, std::memory_order_relaxed);
        }
        if (m_mode != PoolMode::Decode)
            events.push_back({StepEvent::Admitted, r, 0});
        m_running.push_back(std::move(r));
        m_waiting.pop_front();
    }
}

double BatchStepper::stepShift(double startS) const
{
    double f = 1;
    if (m_shiftFactor != 1 && startS >= m_shiftAfterS)
        f *= m_shiftFactor;
    if (m_driftPerHour != 0)
        f *= 1.0 + m_driftPerHour * std::max(0.0, startS) / 3600.0;
    return f;
}

double BatchStepper::planStep(double startS)
{
    // Decodes of the sequences past prefill, prefill chunks within the token budget.
    m_decoding.clear();
    m_chunks.clear();
    double ctxSum = 0;
    for (auto &r : m_running) {
        if (r->prefilled >= r->promptTokens && r->generated >= 1) {
            m_decoding.push_back(r.get());
            ctxSum += r->promptTokens + r->generated;
        }
    }
    int budget = m_tokenBudget - (m_mode == PoolMode::Aggregated ? int(m_decoding.size()) : 0);
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
    if (m_jitter > 0) {
        std::normal_distribution<double> nd(0.0, m_jitter);
        stepS *= std::max(0.05, 1.0 + nd(m_rng));
    }
    m_plannedShift = stepShift(startS);
    // Off (1): the duration is bit for bit what it was without the option.
    return m_plannedShift == 1 ? stepS * m_slowdown : stepS * m_slowdown * m_plannedShift;
}

void BatchStepper::applyStep(std::int64_t endNs, std::vector<StepEvent> &events,
                             std::vector<std::shared_ptr<SimRequest>> &handOffs)
{
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
            events.push_back({StepEvent::Finished, r, r->generated});
        else if (r->progressed)
            events.push_back({done ? StepEvent::Finished : StepEvent::Tokens, r, r->generated});
        r->progressed = false;
        if (cancelled || done || handOff) {
            m_kvUsed -= r->kvReserved;
            r->kvReserved = 0;
            if (handOff && !done && !cancelled) {
                // KV transfer to the decode pool over NVLink.
                r->readyNs = endNs + std::int64_t(m_model.kvTransferS(r->promptTokens) * m_slowdown *
                                                  m_plannedShift / m_timeScale * 1e9);
                handOffs.push_back(r); // submitted after this step's events went out
            }
            it = m_running.erase(it);
        } else {
            ++it;
        }
    }
    m_decoding.clear();
    m_chunks.clear();
}

void BatchStepper::clear()
{
    for (auto &r : m_waiting)
        r->sink.reset();
    for (auto &r : m_running)
        r->sink.reset();
    m_running.clear();
    m_waiting.clear();
    m_decoding.clear();
    m_chunks.clear();
}

} // namespace Throughline
