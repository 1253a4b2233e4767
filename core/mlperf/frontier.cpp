#include "core/mlperf/frontier.h"

#include "core/metrics/pointresult.h"

#include <algorithm>
#include <cmath>

namespace Throughline::Mlperf {

namespace {

static_assert(kPercentiles[1].permille == 900, "curvePointOf reads p90 at index 1");

bool usable(const CurvePoint &p)
{
    return std::isfinite(p.systemTps) && std::isfinite(p.tpsPerUser) && p.systemTps > 0 && p.tpsPerUser > 0;
}

} // namespace

Frontier::Frontier(std::vector<CurvePoint> points)
{
    std::vector<CurvePoint> candidates;
    for (const CurvePoint &p : points)
        (usable(p) ? candidates : m_rejected).push_back(p);
    // Most interactive first; among equal interactivity the highest throughput first. A point joins the
    // frontier only when it beats the throughput of every more interactive point seen so far.
    std::sort(candidates.begin(), candidates.end(), [](const CurvePoint &a, const CurvePoint &b) {
        if (a.tpsPerUser != b.tpsPerUser)
            return a.tpsPerUser > b.tpsPerUser;
        return a.systemTps > b.systemTps;
    });
    double best = 0;
    for (const CurvePoint &p : candidates) {
        if (p.systemTps > best) {
            m_frontier.push_back(p);
            best = p.systemTps;
        } else {
            m_dominated.push_back(p);
        }
    }
    std::reverse(m_frontier.begin(), m_frontier.end());
}

std::vector<FrontierStep> Frontier::steps() const
{
    std::vector<FrontierStep> out;
    out.reserve(m_frontier.size());
    double x = 0;
    for (const CurvePoint &p : m_frontier) {
        out.push_back({x, p.tpsPerUser, p.systemTps, p.concurrency});
        x = p.tpsPerUser;
    }
    return out;
}

std::optional<double> Frontier::throughputAt(double tpsPerUser) const
{
    if (!(tpsPerUser >= 0))
        return std::nullopt;
    // Frontier ascending in x: the first point at least as interactive as the level is the best one
    // (throughput falls as x rises).
    const auto it = std::lower_bound(m_frontier.begin(), m_frontier.end(), tpsPerUser,
                                     [](const CurvePoint &p, double level) { return p.tpsPerUser < level; });
    if (it == m_frontier.end())
        return std::nullopt;
    return it->systemTps;
}

double Frontier::area() const
{
    return area(0, maxTpsPerUser());
}

double Frontier::area(double xFrom, double xTo) const
{
    const double lo = std::max(0.0, xFrom);
    const double hi = std::min(xTo, maxTpsPerUser());
    if (!(hi > lo))
        return 0;
    double sum = 0;
    for (const FrontierStep &s : steps()) {
        const double a = std::max(lo, s.xFrom);
        const double b = std::min(hi, s.xTo);
        if (b > a)
            sum += (b - a) * s.systemTps;
    }
    return sum;
}

FrontierComparison compareFrontiers(const Frontier &run, const Frontier &baseline,
                                    const std::vector<double> &levels)
{
    FrontierComparison c;
    c.xTo = std::min(run.maxTpsPerUser(), baseline.maxTpsPerUser());
    c.runArea = run.area(0, c.xTo);
    c.baselineArea = baseline.area(0, c.xTo);
    if (c.baselineArea > 0)
        c.areaRatio = c.runArea / c.baselineArea;
    for (double level : levels) {
        LevelComparison l;
        l.tpsPerUser = level;
        l.run = run.throughputAt(level);
        l.baseline = baseline.throughputAt(level);
        if (l.run && l.baseline && *l.baseline > 0)
            l.ratio = *l.run / *l.baseline;
        c.levels.push_back(l);
    }
    return c;
}

std::optional<CurvePoint> curvePointOf(const PointResult &point)
{
    const StatSummary &tpot = point.metrics.tpotMlperfMs;
    const double tpotP90 = tpot.n > 0 ? tpot.p[1] : NAN; // kPercentiles[1] is p90
    if (!(tpotP90 > 0) || !std::isfinite(tpotP90))
        return std::nullopt;
    const double variant = point.metrics.outputTpsMlperf;
    const double tps = std::isfinite(variant) && variant > 0 ? variant : point.metrics.outputTps;
    return CurvePoint{point.load.concurrency, tps, 1000.0 / tpotP90};
}

} // namespace Throughline::Mlperf
