#include "core/sim/virtualclosedloop.h"

#include "core/sim/batchstepper.h"

#include <cmath>
#include <memory>
#include <random>

namespace Throughline {

std::vector<VirtualRequest> runVirtualClosedLoop(const PerformanceModel &model, const SchedulerConfig &config,
                                                 const VirtualClosedLoopSpec &spec)
{
    std::vector<VirtualRequest> out;
    if (spec.requests <= 0 || spec.concurrency <= 0)
        return out;
    out.reserve(std::size_t(spec.requests));
    BatchStepper pool(model, PoolMode::Aggregated, config, config.seed);
    double nowS = 0;
    auto toNs = [](double s) { return std::int64_t(std::llround(s * 1e9)); };
    std::mt19937_64 lengths(config.seed ^ 0x6c656e6774687321ULL); // own stream: jitter draws stay as they are
    const int lo = std::max(1, spec.outputTokens);
    const int span = std::max(0, spec.outputTokensMax - lo);
    auto send = [&] {
        auto r = std::make_shared<SimRequest>();
        r->tag = out.size();
        r->promptTokens = std::max(1, spec.promptTokens);
        r->outputTokens = lo + (span > 0 ? int(lengths() % std::uint64_t(span + 1)) : 0);
        out.push_back(VirtualRequest{toNs(nowS), {}, -1, 0});
        out.back().tokenNs.reserve(std::size_t(r->outputTokens));
        pool.enqueue(std::move(r));
    };
    for (int i = 0; i < std::min(spec.concurrency, spec.requests); ++i)
        send();
    std::vector<StepEvent> events;
    std::vector<std::shared_ptr<SimRequest>> handOffs; // none: aggregated
    while (true) {
        pool.admit(events);
        events.clear(); // admissions carry no time the study needs
        if (!pool.hasRunning())
            break;                   // an empty pool admits any request, so nothing is waiting either
        nowS += pool.planStep(nowS); // the virtual run starts at t = 0 with the pool
        const std::int64_t endNs = toNs(nowS);
        pool.applyStep(endNs, events, handOffs);
        for (const StepEvent &e : events) {
            VirtualRequest &v = out[std::size_t(e.r->tag)];
            v.tokenNs.push_back(endNs); // one token per step per request (the first from the prefill step)
            if (e.kind == StepEvent::Finished) {
                v.doneNs = endNs;
                v.outputTokens = e.generated;
                if (int(out.size()) < spec.requests)
                    send(); // closed loop: the slot sends its next request now
            }
        }
        events.clear();
    }
    return out;
}

} // namespace Throughline
