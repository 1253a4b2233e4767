#include "ui/plots/curverule.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace Throughline::CurveRule {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Throughline::CurveRule", text);
}

bool positive(double v)
{
    return std::isfinite(v) && v > 0;
}

} // namespace

std::optional<ChartPoint> point(const PointResult &p)
{
    QStringList notes;
    double x = p.metrics.outputTpsPerGpu;
    if (!positive(x)) {
        x = p.metrics.outputTps;
        notes << tr("total tokens/s (GPU count unknown)");
    }
    auto tpot = p.metricValue("tpot_ms", "p90");
    bool atMean = false;
    if (!tpot) {
        tpot = p.metricValue("tpot_ms", "mean");
        atMean = tpot.has_value();
        if (atMean)
            notes << tr("TPOT p90 not reportable (n=%1), drawn at TPOT mean").arg(p.metrics.tpotMs.n);
    }
    if (!positive(x) || !tpot || !positive(*tpot))
        return std::nullopt;
    ChartPoint cp = ChartPoint::measured(x, 1000.0 / *tpot, p.validity.valid && !atMean, p.validity.flags);
    if (!notes.isEmpty()) {
        if (!cp.reason.isEmpty())
            notes.prepend(cp.reason);
        cp.reason = notes.join(u"; "_qs);
    }
    return cp;
}

QString hollowLegendNote()
{
    return tr("hollow: not valid for a verdict");
}

QString legendName(const QString &name, const QList<ChartPoint> &points)
{
    const bool hollow =
        std::any_of(points.begin(), points.end(), [](const ChartPoint &p) { return p.hollow(); });
    return hollow ? name + u" ("_qs + hollowLegendNote() + u')' : name;
}

} // namespace Throughline::CurveRule
