#include "core/stats/noisecomparison.h"

#include "core/stats/distributions.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace Throughline {

namespace {
struct LogEstimate {
    double log = 0;
    double se = 0;
};

// ln(estimate) and its standard error from a bounded, positive interval.
std::optional<LogEstimate> logEstimate(const Interval &iv)
{
    if (!iv.bounded() || !(iv.lower > 0) || !(iv.estimate > 0) || !(iv.level > 0 && iv.level < 1))
        return std::nullopt;
    const double z = normalQuantile(1 - (1 - iv.level) / 2);
    return LogEstimate{std::log(iv.estimate), (std::log(iv.upper) - std::log(iv.lower)) / (2 * z)};
}
} // namespace

std::string_view comparisonOutcomeName(ComparisonOutcome o)
{
    switch (o) {
    case ComparisonOutcome::Regressed:
        return "regressed";
    case ComparisonOutcome::Improved:
        return "improved";
    case ComparisonOutcome::WithinNoise:
        return "within_noise";
    case ComparisonOutcome::NotEnoughData:
        return "not_enough_data";
    }
    return "not_enough_data";
}

std::vector<bool> holmRejections(std::span<const double> p, double alpha)
{
    const std::size_t m = p.size();
    std::vector<std::size_t> order(m);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    std::vector<bool> rejected(m, false);
    for (std::size_t k = 0; k < m; ++k) {
        if (!(p[order[k]] <= alpha / double(m - k)))
            break; // step-down: the first non-rejection stops the procedure
        rejected[order[k]] = true;
    }
    return rejected;
}

std::vector<ComparisonResult> compareRuns(std::span<const ComparisonInput> inputs,
                                          const ComparisonOptions &options)
{
    std::vector<ComparisonResult> out(inputs.size());
    const double alpha = 1 - options.level;
    const double z = normalQuantile(1 - alpha / 2);
    std::vector<std::size_t> tested;
    std::vector<double> pValues;
    std::vector<double> logRatio(inputs.size(), 0);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const ComparisonInput &in = inputs[i];
        ComparisonResult &r = out[i];
        r.metric = in.metric;
        r.point = in.point;
        r.effectInterval.level = options.level;
        const auto b = logEstimate(in.baseline);
        const auto c = logEstimate(in.candidate);
        if (!b || !c)
            continue; // not enough data
        const double l = c->log - b->log;
        const double floor2 = options.noiseFloor * options.noiseFloor;
        const double se = std::sqrt(b->se * b->se + c->se * c->se + 2 * floor2);
        logRatio[i] = l;
        r.effect = std::expm1(l);
        r.effectInterval.estimate = r.effect;
        r.effectInterval.lower = std::expm1(l - z * se);
        r.effectInterval.upper = std::expm1(l + z * se);
        r.pValue = se > 0 ? 2 * (1 - normalCdf(std::fabs(l) / se)) : (l == 0 ? 1.0 : 0.0);
        r.outcome = ComparisonOutcome::WithinNoise;
        tested.push_back(i);
        pValues.push_back(r.pValue);
    }
    const std::vector<bool> rejected = holmRejections(pValues, alpha);
    // Holm thresholds by rank, for the report.
    std::vector<std::size_t> order(tested.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return pValues[a] < pValues[b]; });
    for (std::size_t k = 0; k < order.size(); ++k)
        out[tested[order[k]]].holmThreshold = alpha / double(order.size() - k);
    for (std::size_t j = 0; j < tested.size(); ++j) {
        if (!rejected[j])
            continue;
        const std::size_t i = tested[j];
        const bool higher = logRatio[i] > 0;
        const bool good = higher == (inputs[i].better == BetterDirection::Higher);
        out[i].outcome = good ? ComparisonOutcome::Improved : ComparisonOutcome::Regressed;
    }
    return out;
}

ComparisonOutcome overallOutcome(std::span<const ComparisonResult> results)
{
    bool improved = false, tested = false;
    for (const auto &r : results) {
        if (r.outcome == ComparisonOutcome::Regressed)
            return ComparisonOutcome::Regressed;
        improved |= r.outcome == ComparisonOutcome::Improved;
        tested |= r.outcome != ComparisonOutcome::NotEnoughData;
    }
    if (improved)
        return ComparisonOutcome::Improved;
    return tested ? ComparisonOutcome::WithinNoise : ComparisonOutcome::NotEnoughData;
}

} // namespace Throughline
