#include "core/engine/loadschedule.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

namespace Throughline {

std::vector<std::int64_t> arrivalOffsetsNs(LoadPlan::Arrival arrival, double rate, double burstiness,
                                           double durationS, std::uint64_t seed)
{
    std::vector<std::int64_t> out;
    if (rate <= 0 || durationS <= 0)
        return out;
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> expo(rate);
    const double shape = burstiness > 0 ? burstiness : 1.0;
    std::gamma_distribution<double> gamma(shape, 1.0 / (rate * shape));
    double t = 0;
    out.reserve(static_cast<std::size_t>(rate * durationS * 1.2) + 4);
    for (;;) {
        double gap = 0;
        switch (arrival) {
        case LoadPlan::Arrival::Constant:
            gap = 1.0 / rate;
            break;
        case LoadPlan::Arrival::Poisson:
            gap = expo(rng);
            break;
        case LoadPlan::Arrival::Gamma:
            gap = gamma(rng);
            break;
        }
        // The first request goes out at t = 0; later ones after their gaps.
        if (!out.empty())
            t += gap;
        if (t >= durationS)
            break;
        out.push_back(static_cast<std::int64_t>(t * 1e9));
    }
    return out;
}

ClosedBudget closedBudget(const LoadPlan &plan, int concurrency)
{
    ClosedBudget b;
    b.measured = plan.requestCount > 0
                     ? plan.requestCount
                     : std::max(1, static_cast<int>(std::lround(plan.requestMultiplier * concurrency)));
    b.warmup = plan.warmupRequests >= 0 ? plan.warmupRequests
                                        : static_cast<int>(std::lround(plan.warmupMultiplier * concurrency));
    return b;
}

namespace {

bool closedByDuration(const LoadPlan &plan)
{
    return plan.mode != LoadPlan::Mode::Open && plan.pointDurationS > 0;
}

} // namespace

double plannedIssueSeconds(const LoadPlan &plan)
{
    return closedByDuration(plan) ? plannedPointCount(plan) * plan.pointDurationS : 0;
}

std::uint64_t plannedRequests(const LoadPlan &plan)
{
    if (closedByDuration(plan))
        return 0;
    std::uint64_t planned = 0;
    switch (plan.mode) {
    case LoadPlan::Mode::Closed:
        for (int c : plan.concurrencies)
            planned += static_cast<std::uint64_t>(closedBudget(plan, c).total());
        break;
    case LoadPlan::Mode::Curve:
        for (int c : curveConcurrencies(plan))
            planned += static_cast<std::uint64_t>(closedBudget(plan, c).total());
        break;
    case LoadPlan::Mode::Search:
        planned += static_cast<std::uint64_t>(closedBudget(plan, plan.cMax).total()) *
                   static_cast<std::uint64_t>(std::max(1, plan.searchMaxPoints)) / 2;
        break;
    case LoadPlan::Mode::Open:
        for (double r : plan.rates)
            planned += static_cast<std::uint64_t>(openLoopBudget(plan, r).total());
        break;
    }
    return planned * static_cast<std::uint64_t>(std::max(1, plan.repeats));
}

double openLoopMeasuredS(const LoadPlan &plan, double rate)
{
    if (plan.pointDurationS > 0)
        return plan.pointDurationS;
    return plan.requestCount > 0 ? plan.requestCount / rate : plan.requestMultiplier;
}

ClosedBudget openLoopBudget(const LoadPlan &plan, double rate)
{
    ClosedBudget b;
    b.measured = static_cast<int>(std::lround(rate * openLoopMeasuredS(plan, rate)));
    b.warmup = static_cast<int>(std::lround(rate * plan.warmupS));
    return b;
}

namespace {
int plannedLoadCount(const LoadPlan &plan)
{
    switch (plan.mode) {
    case LoadPlan::Mode::Closed:
        return static_cast<int>(plan.concurrencies.size());
    case LoadPlan::Mode::Open:
        return static_cast<int>(plan.rates.size());
    case LoadPlan::Mode::Search:
        return plan.searchMaxPoints;
    case LoadPlan::Mode::Curve:
        return static_cast<int>(curveConcurrencies(plan).size());
    }
    return 0;
}
} // namespace

int plannedPointCount(const LoadPlan &plan)
{
    return plannedLoadCount(plan) * std::max(1, plan.repeats);
}

std::vector<int> curveConcurrencies(const LoadPlan &plan)
{
    const int lo = std::max(1, plan.cMin);
    const int hi = std::max(lo, plan.cMax);
    std::set<int> pts;
    if (plan.spacing == LoadPlan::CurveSpacing::Log2) {
        pts.insert(lo);
        for (long c = 1; c <= hi; c *= 2)
            if (c >= lo)
                pts.insert(static_cast<int>(c));
        pts.insert(hi);
        return {pts.begin(), pts.end()};
    }
    // MLPerf Endpoints v1.0: ultra-low region 1–32 in powers of two.
    for (int c = 1; c <= 32; c *= 2)
        if (c >= lo && c <= hi)
            pts.insert(c);
    const int start = std::max(lo, 32);
    if (hi > start) {
        const double span = std::log2(static_cast<double>(hi - lo));
        const double third = span / 3.0;
        // Regions [2^(k·I), 2^((k+1)·I)] offset from cMin; 3 points per region spaced geometrically.
        for (int region = 0; region < 3; ++region) {
            for (int j = 1; j <= 3; ++j) {
                const double e = third * (region + j / 3.0);
                const int c = lo + static_cast<int>(std::lround(std::pow(2.0, e)));
                if (c > start && c <= hi)
                    pts.insert(c);
            }
        }
        pts.insert(hi);
    }
    return {pts.begin(), pts.end()};
}

bool curveShouldStop(double prevTps, double tps, double firstTtftP90Ms, double ttftP90Ms)
{
    if (!(prevTps > 0) || !(firstTtftP90Ms > 0))
        return false;
    const bool flat = tps < prevTps * 1.03;
    const bool ttftDoubled = ttftP90Ms >= 2.0 * firstTtftP90Ms;
    return flat && ttftDoubled;
}

SearchBisection::SearchBisection(int lo, int hi, int maxPoints)
    : m_lo(std::max(1, lo))
    , m_hi(std::max(std::max(1, lo), hi))
    , m_maxPoints(std::max(1, maxPoints))
{
}

std::optional<int> SearchBisection::next() const
{
    if (m_measured >= m_maxPoints || m_lo > m_hi)
        return std::nullopt;
    if (m_measured == 0)
        return m_hi; // try the top first: if it meets the SLOs the search is over
    return m_lo + (m_hi - m_lo + 1) / 2;
}

void SearchBisection::report(int concurrency, bool meetsSlo)
{
    ++m_measured;
    if (meetsSlo) {
        m_best = std::max(m_best, concurrency);
        m_lo = concurrency + 1;
    } else {
        m_hi = concurrency - 1;
    }
}

} // namespace Throughline
