#include "ui/plots/curverule.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

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

constexpr double kInf = std::numeric_limits<double>::infinity();

} // namespace

std::optional<ChartInterval> errorBar(const PointResult &p, std::string_view metric, std::string_view stat)
{
    const auto iv = p.metricInterval(metric, stat);
    if (!iv)
        return std::nullopt;
    return ChartInterval{iv->hasLower() ? iv->lower : -kInf, iv->hasUpper() ? iv->upper : kInf};
}

std::optional<ChartInterval> perUserErrorBar(const PointResult &p, std::string_view stat)
{
    return reciprocalErrorBar(p, "tpot_ms", stat);
}

std::optional<ChartInterval> reciprocalErrorBar(const PointResult &p, std::string_view metric,
                                                std::string_view stat)
{
    const auto tpot = errorBar(p, metric, stat);
    if (!tpot)
        return std::nullopt;
    const double low = std::isfinite(tpot->high) && tpot->high > 0 ? 1000.0 / tpot->high : -kInf;
    const double high = std::isfinite(tpot->low) && tpot->low > 0 ? 1000.0 / tpot->low : kInf;
    return ChartInterval{low, high};
}

QString intervalText(const std::optional<ChartInterval> &interval, double level, int decimals)
{
    if (!interval)
        return tr("no interval");
    auto end = [decimals](double v) {
        return std::isfinite(v) ? QString::number(v, 'f', decimals) : tr("open");
    };
    return tr("%1 % interval %2–%3")
        .arg(QString::number(100 * level, 'g', 3), end(interval->low), end(interval->high));
}

std::optional<ChartPoint> point(const PointResult &p)
{
    QStringList notes;
    double x = p.metrics.outputTpsPerGpu;
    const char *xMetric = "output_tps_per_gpu";
    if (!positive(x)) {
        x = p.metrics.outputTps;
        xMetric = "output_tps";
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
    cp.xInterval = errorBar(p, xMetric, "value");
    cp.yInterval = perUserErrorBar(p, atMean ? "mean" : "p90");
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
