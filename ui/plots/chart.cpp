#include "ui/plots/chart.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Throughline {

ChartPoint ChartPoint::measured(double x, double y, bool valid, const std::vector<std::string> &flags)
{
    ChartPoint p(x, y);
    p.valid = valid;
    QStringList names;
    for (const std::string &f : flags)
        names << QString::fromStdString(f);
    if (!valid)
        p.reason = names.join(u", "_qs);
    return p;
}

bool ChartPoint::finite() const
{
    return std::isfinite(x) && std::isfinite(y);
}

QList<QPointF> ChartSeries::positions() const
{
    QList<QPointF> out;
    out.reserve(points.size());
    for (const ChartPoint &p : points)
        out.append(QPointF(p.x, p.y));
    return out;
}

int ChartSeries::markerCount() const
{
    if (!dots || bars)
        return 0;
    return int(std::count_if(points.begin(), points.end(), [](const ChartPoint &p) { return p.finite(); }));
}

int ChartSeries::hollowMarkerCount() const
{
    if (!dots || bars)
        return 0;
    return int(std::count_if(points.begin(), points.end(),
                             [](const ChartPoint &p) { return p.finite() && p.hollow(); }));
}

int Chart::colorIndex(int s) const
{
    const int own = s >= 0 && s < series.size() ? series[s].colorIndex : -1;
    return own >= 0 ? own : s;
}

bool Chart::anyHollow() const
{
    return std::any_of(series.begin(), series.end(),
                       [](const ChartSeries &s) { return s.hollowMarkerCount() > 0; });
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Data extent of everything drawn (points, intervals, bars, finite region edges, reference lines).
struct Extent {
    double xMin = kInf, xMax = -kInf, yMin = kInf, yMax = -kInf;

    void addX(double x, bool logX)
    {
        if (!std::isfinite(x) || (logX && x <= 0))
            return;
        xMin = std::min(xMin, x);
        xMax = std::max(xMax, x);
    }
    void addY(double y)
    {
        if (!std::isfinite(y))
            return;
        yMin = std::min(yMin, y);
        yMax = std::max(yMax, y);
    }
};

Extent dataExtent(const Chart &chart, bool logX)
{
    Extent e;
    for (const ChartSeries &s : chart.series)
        for (const ChartPoint &pt : s.points) {
            if (!pt.finite() || (logX && pt.x <= 0))
                continue;
            const double half = s.bars ? s.barWidth / 2 : 0;
            e.addX(pt.x - half, logX);
            e.addX(pt.x + half, logX);
            e.addY(pt.y);
            if (pt.yInterval) {
                e.addY(pt.yInterval->low);
                e.addY(pt.yInterval->high);
            }
            if (pt.xInterval) {
                e.addX(pt.xInterval->low, logX);
                e.addX(pt.xInterval->high, logX);
            }
        }
    for (const ChartReferenceLine &m : chart.references)
        m.vertical ? e.addX(m.value, logX) : e.addY(m.value);
    for (const ChartRegion &r : chart.regions) {
        e.addX(r.x0, logX);
        e.addX(r.x1, logX);
        e.addY(r.y0);
        e.addY(r.y1);
    }
    return e;
}

} // namespace

namespace ChartAxes {

ChartScale scale(const Chart &chart)
{
    ChartScale f;
    f.logX = chart.logX && chart.xCategories.isEmpty();
    f.categories = !chart.xCategories.isEmpty();
    Extent e = dataExtent(chart, f.logX);
    if (!std::isfinite(e.xMin))
        e.xMin = f.logX ? 1 : 0, e.xMax = f.logX ? 2 : 1;
    if (!std::isfinite(e.yMin))
        e.yMin = 0, e.yMax = 1;
    if (chart.xFromZero && !f.logX)
        e.xMin = std::min(0.0, e.xMin);
    if (chart.yFromZero)
        e.yMin = std::min(0.0, e.yMin);
    if (e.xMax <= e.xMin)
        e.xMax = f.logX ? e.xMin * 2 : e.xMin + 1;
    if (e.yMax <= e.yMin)
        e.yMax = e.yMin + 1;
    e.yMax += (e.yMax - e.yMin) * 0.05;
    if (!f.logX)
        e.xMax += (e.xMax - e.xMin) * 0.03;
    if (f.categories) {
        for (int i = 0; i < chart.xCategories.size(); ++i)
            f.xTicks.append(i);
        f.xMin = -0.5, f.xMax = chart.xCategories.size() - 0.5;
    } else {
        f.xTicks = f.logX ? log2Ticks(e.xMin, e.xMax, 8) : niceTicks(e.xMin, e.xMax, 6);
        f.xMin = f.xTicks.first(), f.xMax = f.xTicks.last();
    }
    f.yTicks = niceTicks(e.yMin, e.yMax, 6);
    f.yMin = f.yTicks.first(), f.yMax = f.yTicks.last();
    f.xStep = f.logX ? 1 : (f.xTicks.size() > 1 ? f.xTicks[1] - f.xTicks[0] : 1);
    f.yStep = f.yTicks.size() > 1 ? f.yTicks[1] - f.yTicks[0] : 1;
    return f;
}

QList<double> niceTicks(double lo, double hi, int maxTicks)
{
    if (!(hi > lo))
        hi = lo + 1;
    const double raw = (hi - lo) / std::max(1, maxTicks);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * mag;
        if (step >= raw)
            break;
    }
    QList<double> ticks;
    // First tick at or below lo, last tick at or above hi: the axis range always covers the data.
    const double first = std::floor(lo / step) * step;
    for (int i = 0; i < 1000; ++i) {
        const double t = first + i * step;
        ticks.append(std::abs(t) < step * 1e-9 ? 0.0 : t);
        if (t >= hi - step * 1e-9)
            break;
    }
    if (ticks.size() < 2)
        ticks.append(ticks.isEmpty() ? lo : ticks.last() + step);
    return ticks;
}

QList<double> log2Ticks(double lo, double hi, int maxTicks)
{
    lo = std::max(lo, 1e-9);
    hi = std::max(hi, lo * 2);
    const int e0 = int(std::floor(std::log2(lo) + 1e-9));
    const int e1 = int(std::ceil(std::log2(hi) - 1e-9));
    const int span = std::max(1, e1 - e0);
    const int every = std::max(1, (span + std::max(1, maxTicks) - 1) / std::max(1, maxTicks));
    QList<double> ticks;
    for (int e = e0; e <= e1 + every - 1; e += every) {
        ticks.append(std::ldexp(1.0, e));
        if (e >= e1)
            break;
    }
    if (ticks.size() < 2)
        ticks.append(ticks.last() * 2);
    return ticks;
}

QString tickText(double v, double step)
{
    const int decimals = step >= 1 ? 0 : std::min(4, int(std::ceil(-std::log10(step))));
    if (std::abs(v) >= 10000 && step >= 1)
        return QString::number(v / 1000.0, 'f', step >= 1000 && std::fmod(v, 1000.0) == 0 ? 0 : 1) + u'k';
    return QString::number(v, 'f', decimals);
}

} // namespace ChartAxes

} // namespace Throughline
