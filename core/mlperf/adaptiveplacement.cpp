#include "core/mlperf/adaptiveplacement.h"

#include <algorithm>
#include <cmath>

namespace Throughline::Mlperf {

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
    std::optional<AdaptiveChoice> best;
    for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
        const CurvePoint &a = pts[i];
        const CurvePoint &b = pts[i + 1];
        if (b.concurrency - a.concurrency < 2)
            continue; // no concurrency left between them
        const double gap = std::fabs(a.tpsPerUser - b.tpsPerUser) * std::fabs(b.systemTps - a.systemTps);
        if (best && !(gap > best->gapArea))
            continue; // ties keep the lower interval
        const double mid = std::sqrt(static_cast<double>(a.concurrency) * b.concurrency);
        const int c = std::clamp(static_cast<int>(std::lround(mid)), a.concurrency + 1, b.concurrency - 1);
        best = AdaptiveChoice{c, gap, a.concurrency, b.concurrency};
    }
    return best;
}

} // namespace Throughline::Mlperf
