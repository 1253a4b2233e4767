#include "core/mlperf/adaptiveplacement.h"

#include <algorithm>
#include <cmath>

namespace Throughline::Mlperf {

namespace {

// Candidates per interval the plan considers: every interior concurrency up to this many, else this many
// spread half geometrically, half linearly (the curve bends at low concurrency, the area sits at high).
constexpr int kCandidates = 128;
// Points planned ahead (the rules allow fewer than this per curve).
constexpr int kHorizon = 16;

// TPOT (1 / x) and the per-user time per token (c / y) through the measured points, each a monotone cubic
// (PCHIP, Fritsch–Carlson) in c: linear with two points, and with more the neighbours' slopes carry the
// curvature (a MoE model's TPOT rises steeply while more experts wake up, then linearly) without overshoot.
class Model
{
public:
    explicit Model(const std::vector<CurvePoint> &sorted)
    {
        for (const CurvePoint &p : sorted) {
            m_c.push_back(p.concurrency);
            m_u.push_back(1 / p.tpsPerUser);
            m_v.push_back(p.concurrency / p.systemTps);
        }
        m_du = slopes(m_u);
        m_dv = slopes(m_v);
    }
    CurvePoint at(int c) const
    {
        const std::size_t i = std::min<std::size_t>(
            std::upper_bound(m_c.begin(), m_c.end(), static_cast<double>(c)) - m_c.begin(), m_c.size() - 1);
        const std::size_t k = i == 0 ? 0 : i - 1;
        const double u = hermite(m_u, m_du, k, c), v = hermite(m_v, m_dv, k, c);
        return {c, c / v, 1 / u};
    }

private:
    std::vector<double> slopes(const std::vector<double> &f) const
    {
        const std::size_t n = f.size();
        std::vector<double> d(n, 0), delta(n - 1), h(n - 1);
        for (std::size_t i = 0; i + 1 < n; ++i) {
            h[i] = m_c[i + 1] - m_c[i];
            delta[i] = (f[i + 1] - f[i]) / h[i];
        }
        if (n == 2) {
            d[0] = d[1] = delta[0];
            return d;
        }
        for (std::size_t i = 1; i + 1 < n; ++i) {
            if (delta[i - 1] * delta[i] <= 0)
                continue; // a local extremum: flat there, no overshoot
            const double w1 = 2 * h[i] + h[i - 1], w2 = h[i] + 2 * h[i - 1];
            d[i] = (w1 + w2) / (w1 / delta[i - 1] + w2 / delta[i]);
        }
        // The ends: the three-point formula, limited as Fritsch and Carlson do.
        auto end = [](double h0, double h1, double d0, double d1) {
            double e = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
            if (e * d0 <= 0)
                e = 0;
            else if (d0 * d1 <= 0 && std::fabs(e) > 3 * std::fabs(d0))
                e = 3 * d0;
            return e;
        };
        d[0] = end(h[0], h[1], delta[0], delta[1]);
        d[n - 1] = end(h[n - 2], h[n - 3], delta[n - 2], delta[n - 3]);
        return d;
    }
    double hermite(const std::vector<double> &f, const std::vector<double> &d, std::size_t k, double c) const
    {
        const double h = m_c[k + 1] - m_c[k], t = (c - m_c[k]) / h;
        const double t2 = t * t, t3 = t2 * t;
        return (2 * t3 - 3 * t2 + 1) * f[k] + (t3 - 2 * t2 + t) * h * d[k] + (-2 * t3 + 3 * t2) * f[k + 1] +
               (t3 - t2) * h * d[k + 1];
    }
    std::vector<double> m_c, m_u, m_v, m_du, m_dv;
};

// One interval between adjacent measured points and the best staircase the model predicts inside it.
struct Interval {
    CurvePoint a, b;
    double gap = 0;
    std::vector<CurvePoint> cand; // a, the predicted candidates ascending, b
    // best[k][j]: the largest area over (x_b, x_j] of a staircase from cand[j] down to b with k more points
    // after j; pick[k][j] the next point's index (cand.size() − 1 = b: none).
    std::vector<std::vector<double>> best;
    std::vector<std::vector<int>> pick;
    double gain(int m) const { return best[m][0] - best[0][0]; }
};

bool inFrontierOrder(const CurvePoint &a, const CurvePoint &b)
{
    return a.tpsPerUser > b.tpsPerUser && b.systemTps > a.systemTps && a.systemTps > 0 && b.tpsPerUser > 0;
}

// The predicted point, held inside the rectangle of its ends (outside it would be dominated, or dominate a
// measured point, neither of which the model foresees).
CurvePoint predicted(const Model &model, const CurvePoint &a, const CurvePoint &b, int c)
{
    CurvePoint p = model.at(c);
    p.tpsPerUser = std::clamp(p.tpsPerUser, b.tpsPerUser, a.tpsPerUser);
    p.systemTps = std::clamp(p.systemTps, a.systemTps, b.systemTps);
    return p;
}

std::vector<int> candidates(int lo, int hi)
{
    std::vector<int> cs;
    const int n = hi - lo - 1; // interior concurrencies
    if (n <= kCandidates) {
        for (int c = lo + 1; c < hi; ++c)
            cs.push_back(c);
        return cs;
    }
    const int half = kCandidates / 2;
    for (int j = 1; j <= half; ++j) {
        const double t = static_cast<double>(j) / (half + 1);
        cs.push_back(static_cast<int>(std::lround(lo * std::pow(static_cast<double>(hi) / lo, t))));
        cs.push_back(static_cast<int>(std::lround(lo + t * (hi - lo))));
    }
    for (int &c : cs)
        c = std::clamp(c, lo + 1, hi - 1);
    std::sort(cs.begin(), cs.end());
    cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
    return cs;
}

void plan(Interval &iv, const Model &model, int horizon)
{
    iv.cand.push_back(iv.a);
    for (int c : candidates(iv.a.concurrency, iv.b.concurrency))
        iv.cand.push_back(predicted(model, iv.a, iv.b, c));
    iv.cand.push_back(iv.b);
    const int n = static_cast<int>(iv.cand.size());
    const int m = std::min(horizon, n - 2);
    const double xb = iv.b.tpsPerUser;
    iv.best.assign(m + 1, std::vector<double>(n, 0));
    iv.pick.assign(m + 1, std::vector<int>(n, n - 1));
    for (int j = 0; j < n - 1; ++j)
        iv.best[0][j] = iv.cand[j].systemTps * (iv.cand[j].tpsPerUser - xb);
    for (int k = 1; k <= m; ++k)
        for (int j = 0; j < n - 1; ++j) {
            iv.best[k][j] = iv.best[k - 1][j]; // fewer points is allowed
            iv.pick[k][j] = iv.pick[k - 1][j];
            for (int d = j + 1; d < n - 1; ++d) {
                const double area = iv.cand[j].systemTps * (iv.cand[j].tpsPerUser - iv.cand[d].tpsPerUser) +
                                    iv.best[k - 1][d];
                if (area > iv.best[k][j]) {
                    iv.best[k][j] = area;
                    iv.pick[k][j] = d;
                }
            }
        }
}

} // namespace

CurvePoint predictAt(const std::vector<CurvePoint> &measured, int c)
{
    std::vector<CurvePoint> pts = measured;
    std::sort(pts.begin(), pts.end(),
              [](const CurvePoint &a, const CurvePoint &b) { return a.concurrency < b.concurrency; });
    return Model(pts).at(c);
}

double insertionGain(const CurvePoint &a, const CurvePoint &b, const CurvePoint &p)
{
    // a's step (x_b, x_a] at y_a becomes (x_b, x_p] at y_p plus (x_p, x_a] at y_a. Outside the rectangle p
    // is dominated by a or b (or dominates one of them, which the model does not predict): clamp.
    const double x = std::clamp(p.tpsPerUser, b.tpsPerUser, a.tpsPerUser);
    const double y = std::clamp(p.systemTps, a.systemTps, b.systemTps);
    return (y - a.systemTps) * (x - b.tpsPerUser);
}

std::optional<AdaptiveChoice> nextAdaptivePoint(const std::vector<CurvePoint> &measured, int cLo, int cHi,
                                                int pointsLeft)
{
    if (pointsLeft <= 0)
        return std::nullopt;
    std::vector<CurvePoint> pts;
    for (const CurvePoint &p : measured)
        if (p.concurrency >= cLo && p.concurrency <= cHi && std::isfinite(p.systemTps) &&
            std::isfinite(p.tpsPerUser))
            pts.push_back(p);
    std::stable_sort(pts.begin(), pts.end(),
                     [](const CurvePoint &a, const CurvePoint &b) { return a.concurrency < b.concurrency; });
    pts.erase(
        std::unique(pts.begin(), pts.end(),
                    [](const CurvePoint &a, const CurvePoint &b) { return a.concurrency == b.concurrency; }),
        pts.end());
    const int horizon = std::min(pointsLeft, kHorizon);
    // The model needs positive coordinates; any other point only bounds the intervals it ends.
    std::vector<CurvePoint> usable;
    for (const CurvePoint &p : pts)
        if (p.systemTps > 0 && p.tpsPerUser > 0)
            usable.push_back(p);
    const Model model(usable.size() >= 2 ? usable : std::vector<CurvePoint>{{1, 1, 1}, {2, 1, 1}});
    std::optional<AdaptiveChoice> widest; // the largest rectangle (fallback)
    std::vector<Interval> ivs;
    for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
        const CurvePoint &a = pts[i];
        const CurvePoint &b = pts[i + 1];
        if (b.concurrency - a.concurrency < 2)
            continue; // no concurrency left between them
        const double gap = std::fabs(a.tpsPerUser - b.tpsPerUser) * std::fabs(b.systemTps - a.systemTps);
        if (!widest || gap > widest->gapArea) { // ties keep the lower interval
            const double mid = std::sqrt(static_cast<double>(a.concurrency) * b.concurrency);
            const int c =
                std::clamp(static_cast<int>(std::lround(mid)), a.concurrency + 1, b.concurrency - 1);
            widest = AdaptiveChoice{c, 0, gap, a.concurrency, b.concurrency};
        }
        // Any other pair expects nothing from a point between them.
        if (inFrontierOrder(a, b)) {
            ivs.push_back({a, b, gap, {}, {}, {}});
            plan(ivs.back(), model, horizon);
        }
    }

    // Share the remaining points among the intervals (knapsack over the per-interval plans): share[i][m] is
    // the most area intervals i… gain with m points.
    const int ni = static_cast<int>(ivs.size());
    std::vector<std::vector<double>> share(ni + 1, std::vector<double>(horizon + 1, 0));
    std::vector<std::vector<int>> take(ni + 1, std::vector<int>(horizon + 1, 0));
    for (int i = ni - 1; i >= 0; --i) {
        const int cap = static_cast<int>(ivs[i].best.size()) - 1;
        for (int m = 0; m <= horizon; ++m) {
            share[i][m] =
                share[i + 1][m]; // none here (strict below: a tie leaves the points to the intervals above)
            for (int t = 1; t <= std::min(m, cap); ++t) {
                const double v = ivs[i].gain(t) + share[i + 1][m - t];
                if (v > share[i][m]) {
                    share[i][m] = v;
                    take[i][m] = t;
                }
            }
        }
    }
    if (!(ni > 0 && share[0][horizon] > 0))
        return widest;

    // Of the planned points, measure the one that alone would add the most (it tells the most about the area
    // still at stake), refined to the best integer between its neighbours in the plan.
    std::optional<AdaptiveChoice> best;
    for (int i = 0, m = horizon; i < ni; m -= take[i][m], ++i) {
        const Interval &iv = ivs[i];
        const int n = static_cast<int>(iv.cand.size());
        for (int k = take[i][m], j = 0, prev = 0; k > 0 && iv.pick[k][j] < n - 1; --k) {
            prev = j;
            j = iv.pick[k][j];
            const int next = k > 1 ? iv.pick[k - 1][j] : n - 1;
            const double alone = insertionGain(iv.a, iv.b, iv.cand[j]);
            if (best && !(alone > best->expectedGain))
                continue;
            // Refine: every integer between the plan's neighbours (a few flops each).
            const CurvePoint &lo = iv.cand[prev], &hi = iv.cand[next];
            int c = iv.cand[j].concurrency;
            double bestArea = -1;
            for (int d = lo.concurrency + 1; d < hi.concurrency; ++d) {
                const CurvePoint p = predicted(model, iv.a, iv.b, d);
                const double area = p.systemTps * (p.tpsPerUser - hi.tpsPerUser) +
                                    lo.systemTps * (lo.tpsPerUser - p.tpsPerUser);
                if (area > bestArea) {
                    bestArea = area;
                    c = d;
                }
            }
            best = AdaptiveChoice{c, insertionGain(iv.a, iv.b, predicted(model, iv.a, iv.b, c)), iv.gap,
                                  iv.a.concurrency, iv.b.concurrency};
        }
    }
    return best ? best : widest;
}

} // namespace Throughline::Mlperf
