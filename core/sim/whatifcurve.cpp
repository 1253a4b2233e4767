#include "core/sim/whatifcurve.h"

#include "core/sim/virtualclosedloop.h"

#include <algorithm>
#include <cmath>

namespace Throughline {

namespace {

// NumPy's "linear" percentile, the rule core/metrics uses for every distribution block.
double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    const double rank = p * double(v.size() - 1);
    const auto lo = std::size_t(std::floor(rank));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - double(lo));
}

void addPercentiles(std::map<std::string, double> &out, const std::string &key, const std::vector<double> &v)
{
    for (const auto &[name, p] : {std::pair{"p50", 0.50}, {"p90", 0.90}, {"p95", 0.95}, {"p99", 0.99}})
        if (!v.empty())
            out[key + "_" + name] = percentile(v, p);
}

WhatIfPoint summarise(const std::vector<VirtualRequest> &reqs, int concurrency)
{
    WhatIfPoint out;
    out.concurrency = concurrency;
    // Steady window: from the first send after the warm-up wave to the last send (after it the slots
    // drain and the batch shrinks).
    const std::size_t first = std::size_t(concurrency);
    if (reqs.size() <= first + 1)
        return out;
    const std::int64_t t0 = reqs[first].sendNs, t1 = reqs.back().sendNs;
    if (t1 <= t0)
        return out;
    std::int64_t tokens = 0;
    std::vector<double> ttft, tpot, e2e;
    for (std::size_t i = 0; i < reqs.size(); ++i) {
        const VirtualRequest &r = reqs[i];
        for (std::int64_t t : r.tokenNs)
            tokens += t > t0 && t <= t1;
        if (i < first || r.sendNs > t1 || r.doneNs < 0 || r.tokenNs.empty())
            continue;
        ttft.push_back(double(r.tokenNs.front() - r.sendNs) / 1e6);
        e2e.push_back(double(r.doneNs - r.sendNs) / 1e6);
        if (r.tokenNs.size() > 1)
            tpot.push_back(double(r.doneNs - r.tokenNs.front()) / 1e6 / double(r.tokenNs.size() - 1));
    }
    out.outputTps = double(tokens) / (double(t1 - t0) / 1e9);
    out.requests = int(ttft.size());
    addPercentiles(out.latency, "ttft", ttft);
    addPercentiles(out.latency, "tpot", tpot);
    addPercentiles(out.latency, "e2e", e2e);
    if (auto it = out.latency.find("tpot_p90"); it != out.latency.end() && it->second > 0)
        out.latency["tps_user"] = 1000.0 / it->second; // MLPerf Endpoints v1.0 interactivity
    return out;
}

} // namespace

std::vector<WhatIfPoint> whatIfCurve(const PerformanceModel &model, const WhatIfSpec &spec,
                                     const SchedulerConfig &config)
{
    std::vector<WhatIfPoint> out;
    SchedulerConfig perDeployment = config;
    perDeployment.tokenBudget = config.tokenBudget * std::max(1, model.gpus()); // as SimServer scales it
    for (int c : spec.concurrencies) {
        if (c <= 0)
            continue;
        VirtualClosedLoopSpec v;
        v.concurrency = c;
        v.requests = std::max(3, spec.wavesPerPoint) * c;
        v.promptTokens = spec.isl;
        v.outputTokens = spec.osl;
        out.push_back(summarise(runVirtualClosedLoop(model, perDeployment, v), c));
    }
    return out;
}

} // namespace Throughline
