// Benchmark (never run in CI): adaptive MLPerf point placement (core/mlperf/adaptiveplacement.h) against the
// simulator's analytic frontier. Issue 23's goal: with ≤ 12 points the area under the step-function frontier
// is within 2 % of the analytic frontier's area.
//   analytic frontier  PerformanceModel::operatingPoint at every integer concurrency C_min … C_max
//                      (x = 1 / decode step, y = output tokens/s of the deployment), one step per point;
//   placements         the planner's mandatory points (C_min, one per Low/Medium/High), then either
//                      adaptive points up to the budget, or the planner's static log-spaced choice points
//                      (same budget), or the dense 32-point static grid;
//   "measure"          analytic: the model at that concurrency (deterministic); virtual: the simulator's
//                      scheduler on a virtual clock (core/sim/virtualclosedloop.h, the HTTP simulator's
//                      rules, no client noise), output lengths drawn per seed, p90 of per-request TPOT (first
//                      token to completion ÷ tokens after the first), tokens ÷ window — seeds give the
//                      spread.
// Usage: bench_mlperf_adaptive [--budget 12] [--seeds 3] [--requests-per-slot 4]
#include "core/mlperf/adaptiveplacement.h"
#include "core/mlperf/frontier.h"
#include "core/mlperf/pointplanner.h"
#include "core/mlperf/rulespreset.h"
#include "core/sim/simserver.h"
#include "core/sim/virtualclosedloop.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace Throughline;
using Mlperf::CurvePoint;

namespace {

struct Case {
    const char *model;
    const char *gpu;
    int gpus;
    const char *precision;
    int isl, osl;
    int cMax;
};

using Measure = std::function<CurvePoint(int concurrency)>;

double areaOf(const std::vector<CurvePoint> &pts)
{
    return Mlperf::Frontier(pts).area();
}

std::vector<int> plannedConcurrencies(int cMin, int cMax, int points, bool mandatoryOnly,
                                      const Mlperf::RulesPreset &preset)
{
    Mlperf::PointPlanRequest req{cMin, cMax, points, Mlperf::OfflineMode::Elected, 0};
    auto plan = Mlperf::planPoints(req, preset);
    if (!plan) {
        std::fprintf(stderr, "plan: %s\n", plan.error().message.c_str());
        std::exit(2);
    }
    std::vector<int> out;
    for (const auto &pp : plan->points)
        if (!mandatoryOnly || pp.role == Mlperf::PlannedPoint::Role::UltraLow ||
            pp.role == Mlperf::PlannedPoint::Role::Mandatory)
            out.push_back(pp.concurrency);
    return out;
}

std::vector<CurvePoint> measureAll(const std::vector<int> &cs, const Measure &m)
{
    std::vector<CurvePoint> out;
    for (int c : cs)
        out.push_back(m(c));
    return out;
}

std::vector<CurvePoint> adaptive(int cMin, int cMax, int budget, const Mlperf::RulesPreset &preset,
                                 const Measure &m, std::string *order)
{
    std::vector<CurvePoint> pts = measureAll(plannedConcurrencies(cMin, cMax, 7, true, preset), m);
    while (auto next = Mlperf::nextAdaptivePoint(pts, cMin, cMax, budget - static_cast<int>(pts.size()))) {
        pts.push_back(m(next->concurrency));
        *order += (order->empty() ? "" : " ") + std::to_string(next->concurrency);
    }
    return pts;
}

// One closed-loop run of the simulator's scheduler on a virtual clock at concurrency c.
CurvePoint virtualPoint(const PerformanceModel &model, const Case &k, int c, std::uint64_t seed,
                        int requestsPerSlot)
{
    SchedulerConfig cfg;
    cfg.seed = seed;
    VirtualClosedLoopSpec spec;
    spec.concurrency = c;
    spec.requests = c * (requestsPerSlot + 1); // the first round is warm-up
    spec.promptTokens = k.isl;
    spec.outputTokens = k.osl / 2;
    spec.outputTokensMax = k.osl + k.osl / 2; // natural lengths, mean = osl
    const auto run = runVirtualClosedLoop(model, cfg, spec);
    std::vector<double> tpot;
    double tokens = 0;
    std::int64_t w0 = -1, w1 = 0;
    for (std::size_t i = static_cast<std::size_t>(c); i < run.size(); ++i) {
        const VirtualRequest &r = run[i];
        if (r.doneNs < 0 || r.tokenNs.empty())
            continue;
        w0 = w0 < 0 ? r.sendNs : std::min(w0, r.sendNs);
        w1 = std::max(w1, r.doneNs);
        tokens += r.outputTokens;
        if (r.outputTokens > 1)
            tpot.push_back(double(r.doneNs - r.tokenNs.front()) / 1e6 / (r.outputTokens - 1));
    }
    std::sort(tpot.begin(), tpot.end());
    const double p90 = tpot.empty() ? NAN : tpot[std::min(tpot.size() - 1, std::size_t(0.9 * tpot.size()))];
    return {c, tokens / (double(w1 - w0) / 1e9), 1000.0 / p90};
}

int argInt(int argc, char **argv, const char *name, int def)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return std::atoi(argv[i + 1]);
    return def;
}

} // namespace

int main(int argc, char **argv)
{
    const int budget = argInt(argc, argv, "--budget", 12);
    const int seeds = argInt(argc, argv, "--seeds", 3);
    const int perSlot = argInt(argc, argv, "--requests-per-slot", 4);
    auto preset = Mlperf::loadRulesPreset("mlperf-endpoints-1.0");
    if (!preset) {
        std::fprintf(stderr, "%s\n", preset.error().message.c_str());
        return 2;
    }
    const std::vector<Case> cases = {
        {"gpt-oss-20b", "H200", 1, "FP8", 1024, 1024, 1024},
        {"Llama-3.3-70B-Instruct", "H100", 2, "FP8", 1024, 1024, 512},
        {"gpt-oss-120b", "B200", 1, "FP4", 2048, 512, 2048},
    };
    bool allWithin = true;
    for (const Case &k : cases) {
        auto o = SimServer::optionsFromCatalog(k.model, k.gpu, k.gpus, k.precision);
        if (!o) {
            std::fprintf(stderr, "%s: %s\n", k.model, o.error().message.c_str());
            return 2;
        }
        const PerformanceModel model(o->model, o->gpu, o->gpus, o->precision, o->constants);
        const Measure analytic = [&](int c) {
            const OperatingPoint op = model.operatingPoint(k.isl, k.osl, c);
            return CurvePoint{c, op.outputTokPerS, 1.0 / op.decodeStepS};
        };
        const int cMin = 1;
        std::vector<int> all;
        for (int c = cMin; c <= k.cMax; ++c)
            all.push_back(c);
        const double exact = areaOf(measureAll(all, analytic));
        std::string order;
        const auto adaptivePts = adaptive(cMin, k.cMax, budget, *preset, analytic, &order);
        const double aArea = areaOf(adaptivePts);
        const double sArea =
            areaOf(measureAll(plannedConcurrencies(cMin, k.cMax, budget, false, *preset), analytic));
        const double dArea =
            areaOf(measureAll(plannedConcurrencies(cMin, k.cMax, 32, false, *preset), analytic));
        const double aErr = 100.0 * (aArea - exact) / exact;
        allWithin = allWithin && std::fabs(aErr) <= 2.0 && static_cast<int>(adaptivePts.size()) <= budget;
        std::printf("%s %s×%d %s ISL %d OSL %d, C %d…%d (analytic, %zu concurrencies): area %.4g\n", k.model,
                    k.gpu, k.gpus, k.precision, k.isl, k.osl, cMin, k.cMax, all.size(), exact);
        std::printf("  adaptive  %2zu points: %+.2f %%  (added in order: %s)\n", adaptivePts.size(), aErr,
                    order.c_str());
        std::printf("  static    %2d points: %+.2f %%\n", budget, 100.0 * (sArea - exact) / exact);
        std::printf("  static    32 points: %+.2f %%\n", 100.0 * (dArea - exact) / exact);
        // The simulator's scheduler (virtual clock): the frontier a noise-free client would measure.
        for (int s = 1; s <= seeds; ++s) {
            const auto t0 = std::chrono::steady_clock::now();
            const Measure virt = [&](int c) {
                return virtualPoint(model, k, c, static_cast<std::uint64_t>(s), perSlot);
            };
            std::string vOrder;
            const double va = areaOf(adaptive(cMin, k.cMax, budget, *preset, virt, &vOrder));
            const double vd =
                areaOf(measureAll(plannedConcurrencies(cMin, k.cMax, 32, false, *preset), virt));
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::printf(
                "  virtual seed %d: adaptive %d pts %+.2f %% of analytic, dense 32 %+.2f %%, adaptive vs "
                "dense 32 %+.2f %%  (%.1f s; added %s)\n",
                s, budget, 100.0 * (va - exact) / exact, 100.0 * (vd - exact) / exact, 100.0 * (va - vd) / vd,
                wall, vOrder.c_str());
        }
    }
    std::printf("%s\n", allWithin ? "PASS: adaptive within 2 % of the analytic area in every case"
                                  : "FAIL: some case beyond 2 %");
    return allWithin ? 0 : 1;
}
