#include "ui/plots/reportchartrenderer.h"

#include "ui/plots/plotstyle.h"

#include <QFontMetricsF>
#include <QPaintDevice>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>

#include <algorithm>
#include <cmath>
#include <limits>

namespace Throughline {

namespace {

QString tickText(double v, double step)
{
    const int decimals = step >= 1 ? 0 : std::min(4, int(std::ceil(-std::log10(step))));
    if (std::abs(v) >= 10000 && step >= 1)
        return QString::number(v / 1000.0, 'f', step >= 1000 ? 0 : 1) + u'k';
    return QString::number(v, 'f', decimals);
}

} // namespace

QColor ReportChartRenderer::seriesColor(int index)
{
    return PlotStyle::series(index, QPalette(Qt::white));
}

QList<double> ReportChartRenderer::niceTicks(double lo, double hi, int maxTicks)
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

void ReportChartRenderer::draw(QPainter &p, const QRectF &rect, const Chart &chart, double pointSize)
{
    p.save();
    const double dpi = p.device() ? p.device()->logicalDpiX() : 96.0;
    const double u = dpi / 72.0; // device units per typographic point
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(pointSize);
    QFont titleFont = font;
    titleFont.setBold(true);
    titleFont.setPointSizeF(pointSize * 1.15);
    const QFontMetricsF fm(font, p.device());
    const QFontMetricsF tfm(titleFont, p.device());

    // Data range.
    double xMin = std::numeric_limits<double>::infinity(), xMax = -xMin, yMin = xMin, yMax = -xMin;
    for (const Series &s : chart.series)
        for (const QPointF &pt : s.points) {
            if (!std::isfinite(pt.x()) || !std::isfinite(pt.y()))
                continue;
            xMin = std::min(xMin, pt.x() - (s.bars ? s.barWidth / 2 : 0));
            xMax = std::max(xMax, pt.x() + (s.bars ? s.barWidth / 2 : 0));
            yMin = std::min(yMin, pt.y());
            yMax = std::max(yMax, pt.y());
        }
    for (const Marker &m : chart.markers) {
        if (m.vertical) {
            xMin = std::min(xMin, m.value);
            xMax = std::max(xMax, m.value);
        } else {
            yMin = std::min(yMin, m.value);
            yMax = std::max(yMax, m.value);
        }
    }
    if (!std::isfinite(xMin)) {
        xMin = 0, xMax = 1, yMin = 0, yMax = 1;
    }
    if (chart.xFromZero)
        xMin = std::min(0.0, xMin);
    if (chart.yFromZero)
        yMin = std::min(0.0, yMin);
    if (xMax <= xMin)
        xMax = xMin + 1;
    if (yMax <= yMin)
        yMax = yMin + 1;
    yMax += (yMax - yMin) * 0.05;
    xMax += (xMax - xMin) * 0.03;
    const bool categories = !chart.xCategories.isEmpty();
    QList<double> xt;
    if (categories) {
        for (int i = 0; i < chart.xCategories.size(); ++i)
            xt.append(i);
    } else {
        xt = niceTicks(xMin, xMax, 6);
    }
    const QList<double> yt = niceTicks(yMin, yMax, 6);
    if (categories)
        xMin = -0.5, xMax = chart.xCategories.size() - 0.5;
    else
        xMin = xt.first(), xMax = xt.last();
    yMin = yt.first(), yMax = yt.last();
    const double xStep = xt.size() > 1 ? xt[1] - xt[0] : 1, yStep = yt.size() > 1 ? yt[1] - yt[0] : 1;

    // Layout: title on top, y tick labels + y label on the left, x ticks + label below, legend right.
    double yTickW = 0;
    for (double t : yt)
        yTickW = std::max(yTickW, fm.horizontalAdvance(tickText(t, yStep)));
    double legendW = 0;
    if (chart.legend)
        for (const Series &s : chart.series)
            legendW = std::max(legendW, fm.horizontalAdvance(s.name) + 16 * u);
    legendW = std::min(legendW, rect.width() * 0.35);
    const double top = rect.top() + (chart.title.isEmpty() ? 4 * u : tfm.height() + 6 * u);
    const double left = rect.left() + fm.height() + 4 * u + yTickW + 4 * u;
    const double bottom = rect.bottom() - (fm.height() * 2 + 8 * u);
    const double right = rect.right() - (legendW > 0 ? legendW + 8 * u : 6 * u);
    const QRectF area(QPointF(left, top), QPointF(right, bottom));
    auto mapX = [&](double x) { return area.left() + (x - xMin) / (xMax - xMin) * area.width(); };
    auto mapY = [&](double y) { return area.bottom() - (y - yMin) / (yMax - yMin) * area.height(); };

    const QColor fg(30, 30, 30), gridColor(215, 215, 215);
    p.setRenderHint(QPainter::Antialiasing, true);
    if (!chart.title.isEmpty()) {
        p.setFont(titleFont);
        p.setPen(fg);
        p.drawText(QRectF(rect.left(), rect.top(), rect.width(), tfm.height() + 2 * u),
                   Qt::AlignHCenter | Qt::AlignTop, chart.title);
    }
    p.setFont(font);
    // Grid + ticks.
    QPen gridPen(gridColor, 0.5 * u, Qt::DotLine);
    for (double t : xt) {
        const double x = mapX(t);
        if (!categories) {
            p.setPen(gridPen);
            p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        }
        p.setPen(fg);
        const QString s = categories ? chart.xCategories.value(int(t)) : tickText(t, xStep);
        const double w = fm.horizontalAdvance(s);
        p.drawText(QRectF(x - w / 2 - 2 * u, area.bottom() + 2 * u, w + 4 * u, fm.height()), Qt::AlignCenter,
                   s);
    }
    for (double t : yt) {
        const double y = mapY(t);
        p.setPen(gridPen);
        p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
        p.setPen(fg);
        p.drawText(QRectF(area.left() - yTickW - 4 * u, y - fm.height() / 2, yTickW + 1 * u, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, tickText(t, yStep));
    }
    p.setPen(QPen(fg, 0.8 * u));
    p.setBrush(Qt::NoBrush);
    p.drawRect(area);
    // Axis labels.
    p.drawText(QRectF(area.left(), area.bottom() + fm.height() + 4 * u, area.width(), fm.height() + 2 * u),
               Qt::AlignHCenter | Qt::AlignTop, chart.xLabel);
    p.save();
    p.translate(rect.left() + 1 * u, area.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-area.height() / 2, 0, area.height(), fm.height() + 2 * u),
               Qt::AlignHCenter | Qt::AlignTop, chart.yLabel);
    p.restore();

    // Series (clipped to the plot area: data never spills over labels).
    p.save();
    p.setClipRect(area.adjusted(-3 * u, -3 * u, 3 * u, 3 * u));
    for (int i = 0; i < chart.series.size(); ++i) {
        const Series &s = chart.series[i];
        const QColor c = seriesColor(i);
        if (s.bars) {
            p.setPen(QPen(c.darker(130), 0.4 * u));
            QColor fill = c;
            fill.setAlpha(255);
            p.setBrush(fill.lighter(140));
            for (const QPointF &pt : s.points) {
                const double x0 = mapX(pt.x() - s.barWidth / 2), x1 = mapX(pt.x() + s.barWidth / 2);
                p.drawRect(QRectF(QPointF(x0, mapY(pt.y())), QPointF(x1, mapY(std::max(yMin, 0.0)))));
            }
            continue;
        }
        QPainterPath path;
        bool first = true;
        QPointF prev;
        for (const QPointF &pt : s.points) {
            if (!std::isfinite(pt.x()) || !std::isfinite(pt.y()))
                continue;
            const QPointF d(mapX(pt.x()), mapY(pt.y()));
            if (first)
                path.moveTo(d);
            else if (s.step) {
                path.lineTo(QPointF(d.x(), prev.y()));
                path.lineTo(d);
            } else
                path.lineTo(d);
            prev = d;
            first = false;
        }
        p.setPen(QPen(c, 1.2 * u, s.pen));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        if (!s.dots)
            continue;
        p.setBrush(c);
        p.setPen(QPen(Qt::white, 0.4 * u));
        for (int k = 0; k < s.points.size(); ++k) {
            const QPointF &pt = s.points[k];
            if (!std::isfinite(pt.x()) || !std::isfinite(pt.y()))
                continue;
            p.drawEllipse(QPointF(mapX(pt.x()), mapY(pt.y())), 2.2 * u, 2.2 * u);
            if (s.highlighted.contains(k)) {
                p.save();
                p.setBrush(Qt::NoBrush);
                p.setPen(QPen(c, 0.9 * u));
                p.drawEllipse(QPointF(mapX(pt.x()), mapY(pt.y())), 4.5 * u, 4.5 * u);
                p.restore();
            }
        }
    }
    const QColor targetColor = PlotStyle::target(QPalette(Qt::white));
    for (const Marker &m : chart.markers) {
        p.setPen(QPen(targetColor, 0.8 * u, Qt::DashLine));
        if (m.vertical) {
            const double x = mapX(m.value);
            p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
            p.drawText(QPointF(x + 2 * u, area.top() + fm.ascent() + 1 * u), m.label);
        } else {
            const double y = mapY(m.value);
            p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
            p.drawText(QPointF(area.left() + 2 * u, y - 2 * u), m.label);
        }
    }
    p.restore();

    // Legend to the right of the plot area; long names wrap instead of being clipped.
    if (legendW > 0) {
        double y = area.top();
        for (int i = 0; i < chart.series.size(); ++i) {
            const QColor c = seriesColor(i);
            if (chart.series[i].bars) {
                p.setPen(QPen(c.darker(130), 0.4 * u));
                p.setBrush(c.lighter(140));
                p.drawRect(QRectF(area.right() + 7 * u, y + fm.height() / 2 - 3 * u, 6 * u, 6 * u));
                p.setBrush(Qt::NoBrush);
            } else {
                p.setPen(QPen(c, 1.2 * u, chart.series[i].pen));
                p.drawLine(QPointF(area.right() + 6 * u, y + fm.height() / 2),
                           QPointF(area.right() + 14 * u, y + fm.height() / 2));
            }
            p.setPen(fg);
            const QRectF textRect(area.right() + 16 * u, y, legendW - 8 * u, rect.bottom() - y);
            const QRectF used = p.boundingRect(textRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWrapAnywhere,
                                               chart.series[i].name);
            p.drawText(textRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWrapAnywhere, chart.series[i].name);
            y += used.height() + 2 * u;
        }
    }
    p.restore();
}

} // namespace Throughline
