// Benchmark of core/metrics: aggregatePoint on large synthetic points and LiveSummary snapshots.
// Prints medians of 5 runs; never timed in CI.
#include "tests/common/livesummary.h"
#include "core/metrics/pointaggregate.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace Throughline;

namespace {

std::vector<RequestRecord> makePoint(int requests, int eventsPerRequest)
{
    std::vector<RequestRecord> v;
    v.reserve(static_cast<std::size_t>(requests));
    for (int i = 0; i < requests; ++i) {
        RequestRecord r;
        r.seq = static_cast<std::uint64_t>(i);
        r.warmup = i < requests / 10;
        r.tSched = r.tSend = static_cast<std::int64_t>(i) * 500'000; // one request every 0.5 ms
        r.events.reserve(static_cast<std::size_t>(eventsPerRequest) + 2);
        r.events.push_back({r.tSend + 1'000'000, StreamEvent::Kind::RoleOnly, -1});
        for (int k = 0; k < eventsPerRequest; ++k)
            r.events.push_back(
                {r.tSend + 20'000'000 + k * 5'000'000 + (i % 7) * 100'000, StreamEvent::Kind::Content, -1});
        r.events.push_back({r.events.back().tNs + 1000, StreamEvent::Kind::Usage, -1});
        r.tEnd = r.events.back().tNs;
        r.usage.completionTokens = eventsPerRequest;
        r.usage.promptTokens = 128;
        v.push_back(std::move(r));
    }
    return v;
}

template <typename F>
double medianMs(F &&f)
{
    std::vector<double> t;
    for (int i = 0; i < 5; ++i) {
        const auto a = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[2];
}

} // namespace

int main()
{
    for (auto [requests, events] : {std::pair{10'000, 128}, {100'000, 128}, {100'000, 16}, {10'000, 1000}}) {
        const auto recs = makePoint(requests, events);
        PointInput in;
        in.load.concurrency = 64;
        in.records = recs;
        double tps = 0;
        const double ms = medianMs([&] { tps = aggregatePoint(in).metrics.outputTps; });
        std::printf(
            "aggregatePoint %7d requests x %4d events: median %8.1f ms (%.0f ns/event) output_tps %.0f\n",
            requests, events, ms, ms * 1e6 / (static_cast<double>(requests) * events), tps);
    }
    const auto recs = makePoint(100'000, 128);
    LiveSummary live(std::chrono::seconds(10));
    std::size_t fed = 0;
    std::vector<double> snapUs;
    // Feed in t_end order and take a snapshot every 100 ms of run time (10 Hz).
    std::int64_t nextSnap = 0;
    const auto a = std::chrono::steady_clock::now();
    for (const auto &r : recs) {
        live.add(r);
        ++fed;
        if (r.tEnd >= nextSnap) {
            const auto s0 = std::chrono::steady_clock::now();
            (void)live.snapshot(r.tEnd);
            snapUs.push_back(
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s0).count());
            nextSnap = r.tEnd + 100'000'000;
        }
    }
    const double addMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
    std::sort(snapUs.begin(), snapUs.end());
    std::printf("LiveSummary: %zu records x 128 events fed in %.1f ms (incl. snapshots); snapshot median "
                "%.1f us, max %.1f us (%zu snapshots, ~20k requests in a 10 s window)\n",
                fed, addMs, snapUs[snapUs.size() / 2], snapUs.back(), snapUs.size());
    return 0;
}
