#include "core/mlperf/steadystate.h"

#include "core/metrics/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace Throughline::Mlperf {

namespace {

// The project's percentile (core/metrics/stats.h) of the finite values.
double percentileOf(std::vector<double> v, double q)
{
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
    std::sort(v.begin(), v.end());
    return percentileSorted(v, q);
}

double median(std::vector<double> v)
{
    return percentileOf(std::move(v), 0.5);
}

// Mann–Kendall S and its tie-corrected variance.
void mannKendall(const std::vector<double> &x, double *s, double *var)
{
    const std::size_t n = x.size();
    double sum = 0;
    for (std::size_t i = 0; i + 1 < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            sum += (x[j] > x[i]) - (x[j] < x[i]);
    std::map<double, int> ties;
    for (double v : x)
        ++ties[v];
    double tieTerm = 0;
    for (const auto &[value, t] : ties)
        tieTerm += static_cast<double>(t) * (t - 1) * (2 * t + 5);
    const double nn = static_cast<double>(n);
    *s = sum;
    *var = (nn * (nn - 1) * (2 * nn + 5) - tieTerm) / 18.0;
}

double olsSlope(const std::vector<double> &y)
{
    const double n = static_cast<double>(y.size());
    const double mx = (n - 1) / 2;
    double my = 0;
    for (double v : y)
        my += v;
    my /= n;
    double num = 0, den = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        num += (static_cast<double>(i) - mx) * (y[i] - my);
        den += (static_cast<double>(i) - mx) * (static_cast<double>(i) - mx);
    }
    return den > 0 ? num / den : 0;
}

double metricOf(const std::vector<SteadyStateSample> &pass, const std::string &key)
{
    const bool ttft = key.rfind("ttft_p", 0) == 0;
    const bool tpot = key.rfind("tpot_p", 0) == 0;
    if (!ttft && !tpot)
        return NAN;
    const double q = std::atof(key.c_str() + 6) / 100.0;
    if (!(q > 0 && q < 1))
        return NAN;
    std::vector<double> v;
    v.reserve(pass.size());
    for (const SteadyStateSample &s : pass)
        v.push_back(ttft ? s.ttftMs : s.tpotMs);
    return percentileOf(std::move(v), q);
}

std::string percentText(double f)
{
    char b[32];
    std::snprintf(b, sizeof b, "%+.1f %%", 100.0 * f);
    return b;
}

std::string describe(const MetricTrend &t, int superPasses)
{
    if (t.state == TrendState::NotEnoughData)
        return t.metric + " not enough super-passes";
    char p[16];
    std::snprintf(p, sizeof p, "%.4f", t.pValue);
    return t.metric + (t.state == TrendState::DriftingUp ? " drifting up (" : " drifting down (") +
           percentText(t.relativeDrift) + " over " + std::to_string(superPasses) + " super-passes, p " + p +
           ")";
}

} // namespace

const char *trendStateKey(TrendState s)
{
    switch (s) {
    case TrendState::Plateau:
        return "plateau";
    case TrendState::DriftingUp:
        return "drifting_up";
    case TrendState::DriftingDown:
        return "drifting_down";
    case TrendState::NotEnoughData:
        break;
    }
    return "not_enough_data";
}

MetricTrend trendOf(std::string metric, std::vector<double> series)
{
    MetricTrend t;
    t.metric = std::move(metric);
    t.perSuperPass = series;
    series.erase(std::remove_if(series.begin(), series.end(), [](double x) { return !std::isfinite(x); }),
                 series.end());
    if (series.size() < 3) // the test has no power below; the super-pass floor is the rules' own check
        return t;
    double s = 0, var = 0;
    mannKendall(series, &s, &var);
    t.mannKendallZ = var > 0 ? (s > 0 ? (s - 1) : s < 0 ? (s + 1) : 0) / std::sqrt(var) : 0;
    t.pValue = std::erfc(std::fabs(t.mannKendallZ) / std::sqrt(2.0));
    const double m = median(series);
    t.relativeDrift = m != 0 ? olsSlope(series) * static_cast<double>(series.size() - 1) / m : 0;
    const bool trend = t.pValue < kTrendAlpha && std::fabs(t.relativeDrift) >= kMinRelativeDrift;
    t.state = !trend                ? TrendState::Plateau
              : t.relativeDrift > 0 ? TrendState::DriftingUp
                                    : TrendState::DriftingDown;
    return t;
}

SteadyStateAssessment assessSteadyState(const std::vector<SteadyStateSample> &samples,
                                        long long superPassSize,
                                        const std::vector<std::string> &gatingMetrics, int minSuperPasses,
                                        const std::vector<std::string> &diagnosticMetrics)
{
    SteadyStateAssessment a;
    if (superPassSize <= 0) {
        a.verdict = "not found: no dataset size";
        return a;
    }
    const std::size_t size = static_cast<std::size_t>(superPassSize);
    a.superPasses = static_cast<int>(samples.size() / size);
    std::vector<std::vector<SteadyStateSample>> passes;
    for (int k = 0; k < a.superPasses; ++k)
        passes.emplace_back(samples.begin() + static_cast<std::ptrdiff_t>(k * size),
                            samples.begin() + static_cast<std::ptrdiff_t>((k + 1) * size));
    const auto trendsOf = [&](const std::vector<std::string> &keys) {
        std::vector<MetricTrend> out;
        for (const std::string &key : keys) {
            std::vector<double> series;
            for (const auto &pass : passes)
                series.push_back(metricOf(pass, key));
            out.push_back(trendOf(key, std::move(series)));
        }
        return out;
    };
    a.metrics = trendsOf(gatingMetrics);
    a.diagnostics = trendsOf(diagnosticMetrics);
    std::string broken;
    for (const MetricTrend &t : a.metrics)
        if (t.state != TrendState::Plateau && broken.empty())
            broken = describe(t, a.superPasses);
    for (const MetricTrend &t : a.diagnostics)
        if (t.state == TrendState::DriftingUp || t.state == TrendState::DriftingDown)
            a.warnings += (a.warnings.empty() ? "" : "; ") + describe(t, a.superPasses);
    if (a.superPasses < minSuperPasses)
        a.verdict = "insufficient_passes: " + std::to_string(a.superPasses) + " super-passes, at least " +
                    std::to_string(minSuperPasses) + " needed";
    else if (!broken.empty())
        a.verdict = "not found: " + broken;
    else
        a.verdict = "STEADY STATE";
    a.steady = a.verdict == "STEADY STATE";
    return a;
}

} // namespace Throughline::Mlperf
