#include "ui/plots/chartpainter.h"

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

// The data → device mapping of one chart on its scale.
struct Frame {
    QRectF area;
    double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
    QList<double> xt, yt;
    double xStep = 1, yStep = 1;
    bool logX = false;
    bool categories = false;

    explicit Frame(const ChartScale &s)
        : xMin(s.xMin)
        , xMax(s.xMax)
        , yMin(s.yMin)
        , yMax(s.yMax)
        , xt(s.xTicks)
        , yt(s.yTicks)
        , xStep(s.xStep)
        , yStep(s.yStep)
        , logX(s.logX)
        , categories(s.categories)
    {
    }
    double mapX(double x) const
    {
        if (logX)
            return area.left() +
                   (std::log2(x) - std::log2(xMin)) / (std::log2(xMax) - std::log2(xMin)) * area.width();
        return area.left() + (x - xMin) / (xMax - xMin) * area.width();
    }
    double mapY(double y) const { return area.bottom() - (y - yMin) / (yMax - yMin) * area.height(); }
    QPointF map(const ChartPoint &p) const { return {mapX(p.x), mapY(p.y)}; }
    bool drawable(const ChartPoint &p) const { return p.finite() && (!logX || p.x > 0); }
    // Clamps infinite region bounds to the visible range.
    double clampX(double x) const { return mapX(std::clamp(x, xMin, xMax)); }
    double clampY(double y) const { return mapY(std::clamp(y, yMin, yMax)); }
};

struct Fonts {
    QFont text, title;
    QFontMetricsF fm, tfm;
    Fonts(QPaintDevice *device, double pointSize)
        : text(QStringLiteral("DejaVu Sans"))
        , title(text)
        , fm(text, device)
        , tfm(text, device)
    {
        text.setPointSizeF(pointSize);
        title.setBold(true);
        title.setPointSizeF(pointSize * 1.15);
        fm = QFontMetricsF(text, device);
        tfm = QFontMetricsF(title, device);
    }
};

const QColor kFg(30, 30, 30);

void drawAxes(QPainter &p, const QRectF &rect, const Chart &chart, const Frame &f, const Fonts &fonts,
              double u)
{
    const QFontMetricsF &fm = fonts.fm;
    if (!chart.title.isEmpty()) {
        // A title wider than the chart shrinks (to 75 %) and is then elided, never clipped at both ends.
        QFont titleFont = fonts.title;
        const double w = fonts.tfm.horizontalAdvance(chart.title);
        if (w > rect.width())
            titleFont.setPointSizeF(titleFont.pointSizeF() * std::max(0.75, rect.width() / w));
        const QFontMetricsF tfm(titleFont, p.device());
        p.setFont(titleFont);
        p.setPen(kFg);
        p.drawText(QRectF(rect.left(), rect.top(), rect.width(), fonts.tfm.height() + 2 * u),
                   Qt::AlignHCenter | Qt::AlignTop,
                   tfm.elidedText(chart.title, Qt::ElideRight, rect.width()));
    }
    p.setFont(fonts.text);
    const QPen gridPen(QColor(215, 215, 215), 0.5 * u, Qt::DotLine);
    for (double t : f.xt) {
        const double x = f.mapX(t);
        if (!f.categories) {
            p.setPen(gridPen);
            p.drawLine(QPointF(x, f.area.top()), QPointF(x, f.area.bottom()));
        }
        p.setPen(kFg);
        const QString s = f.categories ? chart.xCategories.value(int(t)) : ChartAxes::tickText(t, f.xStep);
        const double w = fm.horizontalAdvance(s);
        p.drawText(QRectF(x - w / 2 - 2 * u, f.area.bottom() + 2 * u, w + 4 * u, fm.height()),
                   Qt::AlignCenter, s);
    }
    double yTickW = 0;
    for (double t : f.yt)
        yTickW = std::max(yTickW, fm.horizontalAdvance(ChartAxes::tickText(t, f.yStep)));
    for (double t : f.yt) {
        const double y = f.mapY(t);
        p.setPen(gridPen);
        p.drawLine(QPointF(f.area.left(), y), QPointF(f.area.right(), y));
        p.setPen(kFg);
        p.drawText(QRectF(f.area.left() - yTickW - 4 * u, y - fm.height() / 2, yTickW + 1 * u, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, ChartAxes::tickText(t, f.yStep));
    }
    p.setPen(QPen(kFg, 0.8 * u));
    p.setBrush(Qt::NoBrush);
    p.drawRect(f.area);
    p.drawText(
        QRectF(f.area.left(), f.area.bottom() + fm.height() + 4 * u, f.area.width(), fm.height() + 2 * u),
        Qt::AlignHCenter | Qt::AlignTop, chart.xLabel);
    // The y label runs along the plot's height: in a small chart its font shrinks (to 70 %) before
    // it is elided, so the unit stays readable.
    QFont yFont = fonts.text;
    const double yWidth = QFontMetricsF(yFont, p.device()).horizontalAdvance(chart.yLabel);
    if (yWidth > f.area.height())
        yFont.setPointSizeF(yFont.pointSizeF() * std::max(0.7, f.area.height() / yWidth));
    const QFontMetricsF yfm(yFont, p.device());
    p.save();
    p.setFont(yFont);
    p.translate(rect.left() + 1 * u, f.area.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-f.area.height() / 2, 0, f.area.height(), fm.height() + 2 * u),
               Qt::AlignHCenter | Qt::AlignTop,
               yfm.elidedText(chart.yLabel, Qt::ElideRight, f.area.height()));
    p.restore();
}

void drawRegions(QPainter &p, const Chart &chart, const Frame &f, const Fonts &fonts, double u)
{
    auto bandOf = [&f](const ChartRegion &r) {
        return QRectF(QPointF(f.clampX(r.x0), f.clampY(r.y1)), QPointF(f.clampX(r.x1), f.clampY(r.y0)));
    };
    // Every band first, then the labels: a narrow band's label overhangs its neighbour, whose fill would
    // otherwise cover it.
    for (const ChartRegion &r : chart.regions)
        p.fillRect(bandOf(r), ChartPainter::regionColor(r.tone));
    QList<double>
        rowEnds; // right edge of the last label on each line: a label that would overlap drops a line
    for (const ChartRegion &r : chart.regions) {
        const QRectF band = bandOf(r);
        if (r.label.isEmpty())
            continue;
        // Centred over the band; a narrow band's label may overhang it but never leaves the plot.
        const double w = std::max(band.width() - 4 * u, fonts.fm.horizontalAdvance(r.label) + 2 * u);
        const double x = std::clamp(band.center().x() - w / 2, f.area.left(), f.area.right() - w);
        int row = 0;
        while (row < rowEnds.size() && rowEnds[row] > x)
            ++row;
        if (row == rowEnds.size())
            rowEnds.append(0);
        rowEnds[row] = x + w;
        p.setFont(fonts.text);
        p.setPen(QColor(110, 110, 110));
        p.drawText(QRectF(x, band.top() + 1 * u + row * fonts.fm.height(), w, fonts.fm.height()),
                   Qt::AlignHCenter | Qt::AlignTop, r.label);
    }
}

void drawBars(QPainter &p, const ChartSeries &s, const QColor &c, const Frame &f, double u)
{
    p.setPen(QPen(c.darker(130), 0.4 * u));
    p.setBrush(c.lighter(140));
    for (const ChartPoint &pt : s.points) {
        if (!f.drawable(pt))
            continue;
        const double x0 = f.mapX(pt.x - s.barWidth / 2), x1 = f.mapX(pt.x + s.barWidth / 2);
        p.drawRect(QRectF(QPointF(x0, f.mapY(pt.y)), QPointF(x1, f.mapY(std::max(f.yMin, 0.0)))));
    }
}

void drawLine(QPainter &p, const ChartSeries &s, const QColor &c, const Frame &f, double u)
{
    QPainterPath path;
    bool first = true;
    QPointF prev;
    for (const ChartPoint &pt : s.points) {
        if (!f.drawable(pt))
            continue;
        const QPointF d = f.map(pt);
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
}

// One error bar from `from` to `to` (pixels) with a cap at each finite end; an open end (infinite in data)
// was clamped to the plot's edge and gets no cap.
void drawBar(QPainter &p, QPointF from, QPointF to, bool capFrom, bool capTo, bool vertical, double cap)
{
    p.drawLine(from, to);
    const QPointF across = vertical ? QPointF(cap, 0) : QPointF(0, cap);
    if (capFrom)
        p.drawLine(from - across, from + across);
    if (capTo)
        p.drawLine(to - across, to + across);
}

void drawErrorBars(QPainter &p, const ChartSeries &s, const QColor &c, const Frame &f, double u)
{
    p.setPen(QPen(c, 0.7 * u));
    const double cap = 2.5 * u;
    for (const ChartPoint &pt : s.points) {
        if (!f.drawable(pt))
            continue;
        const QPointF d = f.map(pt);
        if (const auto &iv = pt.yInterval) {
            const double y0 = f.clampY(iv->low), y1 = f.clampY(iv->high);
            drawBar(p, {d.x(), y0}, {d.x(), y1}, std::isfinite(iv->low), std::isfinite(iv->high), true, cap);
        }
        if (const auto &iv = pt.xInterval; iv && (!f.logX || iv->low > 0)) {
            const double x0 = f.clampX(iv->low), x1 = f.clampX(iv->high);
            drawBar(p, {x0, d.y()}, {x1, d.y()}, std::isfinite(iv->low), std::isfinite(iv->high), false, cap);
        }
    }
}

// Filled disc for a valid point, a white-filled ring for a hollow one (it hides the line below,
// so the hollowness reads); the operating point gets an extra unfilled ring.
void drawMarkers(QPainter &p, const ChartSeries &s, const QColor &c, const Frame &f, double u)
{
    const double r = 2.2 * u;
    for (const ChartPoint &pt : s.points) {
        if (!f.drawable(pt))
            continue;
        const QPointF d = f.map(pt);
        if (pt.hollow()) {
            p.setPen(QPen(c, 0.9 * u));
            p.setBrush(Qt::white);
        } else {
            p.setPen(QPen(Qt::white, 0.4 * u));
            p.setBrush(c);
        }
        p.drawEllipse(d, r, r);
        if (pt.highlighted) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(c, 0.9 * u));
            p.drawEllipse(d, 4.5 * u, 4.5 * u);
        }
    }
}

void drawReferences(QPainter &p, const Chart &chart, const Frame &f, const Fonts &fonts, double u)
{
    p.setFont(fonts.text);
    for (const ChartReferenceLine &m : chart.references) {
        p.setPen(QPen(ChartPainter::referenceColor(), 0.8 * u, Qt::DashLine));
        if (m.vertical) {
            if (f.logX && m.value <= 0)
                continue;
            const double x = f.mapX(m.value);
            p.drawLine(QPointF(x, f.area.top()), QPointF(x, f.area.bottom()));
            p.drawText(QPointF(x + 2 * u, f.area.top() + fonts.fm.ascent() + 1 * u), m.label);
        } else {
            const double y = f.mapY(m.value);
            p.drawLine(QPointF(f.area.left(), y), QPointF(f.area.right(), y));
            p.drawText(QPointF(f.area.left() + 2 * u, y - 2 * u), m.label);
        }
    }
}

// A series' legend sample, 8 pt wide, starting at x on the text line centred at mid.
void drawLegendKey(QPainter &p, const ChartSeries &s, const QColor &c, double x, double mid, double u)
{
    if (s.bars) {
        p.setPen(QPen(c.darker(130), 0.4 * u));
        p.setBrush(c.lighter(140));
        p.drawRect(QRectF(x + 1 * u, mid - 3 * u, 6 * u, 6 * u));
        p.setBrush(Qt::NoBrush);
    } else if (s.line) {
        p.setPen(QPen(c, 1.2 * u, s.pen));
        p.drawLine(QPointF(x, mid), QPointF(x + 8 * u, mid));
    } else { // markers only: the legend shows the marker (as QCustomPlot's legend icon does)
        p.setPen(QPen(Qt::white, 0.4 * u));
        p.setBrush(c);
        p.drawEllipse(QPointF(x + 4 * u, mid), 2.2 * u, 2.2 * u);
        p.setBrush(Qt::NoBrush);
    }
}

// Legend to the right of the plot area; long names wrap instead of being clipped.
void drawLegendRight(QPainter &p, const QRectF &rect, const Chart &chart, const Frame &f, const Fonts &fonts,
                     double legendW, double u)
{
    double y = f.area.top();
    p.setFont(fonts.text);
    for (int i = 0; i < chart.series.size(); ++i) {
        const ChartSeries &s = chart.series[i];
        drawLegendKey(p, s, ChartPainter::seriesColor(chart.colorIndex(i)), f.area.right() + 6 * u,
                      y + fonts.fm.height() / 2, u);
        p.setPen(kFg);
        const QRectF textRect(f.area.right() + 16 * u, y, legendW - 8 * u, rect.bottom() - y);
        const int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWrapAnywhere;
        const QRectF used = p.boundingRect(textRect, flags, s.name);
        p.drawText(textRect, flags, s.name);
        y += used.height() + 2 * u;
    }
}

// Legend rows under the chart (narrow charts): items flow left to right and wrap. Returns the height;
// draws only when `top` is finite.
double legendBelow(QPainter &p, const QRectF &rect, const Chart &chart, const Fonts &fonts, double top,
                   double u)
{
    const double lineH = fonts.fm.height() + 1 * u;
    double x = rect.left(), y = 0;
    p.setFont(fonts.text);
    for (int i = 0; i < chart.series.size(); ++i) {
        const ChartSeries &s = chart.series[i];
        const QString name = fonts.fm.elidedText(s.name, Qt::ElideMiddle, rect.width() - 12 * u);
        const double w = 10 * u + fonts.fm.horizontalAdvance(name) + 8 * u;
        if (x > rect.left() && x + w > rect.right()) {
            x = rect.left();
            y += lineH;
        }
        if (std::isfinite(top)) {
            drawLegendKey(p, s, ChartPainter::seriesColor(chart.colorIndex(i)), x, top + y + lineH / 2, u);
            p.setPen(kFg);
            p.drawText(QRectF(x + 10 * u, top + y, w, lineH), Qt::AlignLeft | Qt::AlignVCenter, name);
        }
        x += w;
    }
    return y + lineH + 2 * u;
}

} // namespace

QColor ChartPainter::seriesColor(int index)
{
    return PlotStyle::series(index, QPalette(Qt::white));
}

QColor ChartPainter::referenceColor()
{
    return PlotStyle::target(QPalette(Qt::white));
}

QColor ChartPainter::regionColor(ChartRegion::Tone tone)
{
    switch (tone) {
    case ChartRegion::Tone::Good:
        return QColor(228, 242, 228);
    case ChartRegion::Tone::Bad:
        return QColor(250, 230, 230);
    case ChartRegion::Tone::Neutral:
        break;
    }
    return QColor(240, 240, 244);
}

void ChartPainter::draw(QPainter &p, const QRectF &rect, const Chart &chart, double pointSize)
{
    p.save();
    const double dpi = p.device() ? p.device()->logicalDpiX() : 96.0;
    const double u = dpi / 72.0; // device units per typographic point
    const Fonts fonts(p.device(), pointSize);
    Frame f(ChartAxes::scale(chart));

    // Layout: title on top, y tick labels + y label on the left, x ticks + label below, legend right.
    double yTickW = 0;
    for (double t : f.yt)
        yTickW = std::max(yTickW, fonts.fm.horizontalAdvance(ChartAxes::tickText(t, f.yStep)));
    double legendW = 0;
    if (chart.legend)
        for (const ChartSeries &s : chart.series)
            legendW = std::max(legendW, fonts.fm.horizontalAdvance(s.name) + 16 * u);
    // A legend wider than a quarter of the chart goes below it instead of squeezing the plot.
    const bool below = legendW > rect.width() * 0.25;
    const double belowH =
        below ? legendBelow(p, rect, chart, fonts, std::numeric_limits<double>::quiet_NaN(), u) : 0;
    if (below)
        legendW = 0;
    const double top = rect.top() + (chart.title.isEmpty() ? 4 * u : fonts.tfm.height() + 6 * u);
    const double left = rect.left() + fonts.fm.height() + 4 * u + yTickW + 4 * u;
    const double bottom = rect.bottom() - belowH - (fonts.fm.height() * 2 + 8 * u);
    // Without a legend the last x tick label is centred on the right edge: keep half of it inside.
    const double lastTickHalf =
        f.categories || f.xt.isEmpty()
            ? 0
            : fonts.fm.horizontalAdvance(ChartAxes::tickText(f.xt.last(), f.xStep)) / 2;
    const double right =
        rect.right() - (legendW > 0 ? legendW + 8 * u : std::max(6 * u, lastTickHalf + 3 * u));
    f.area = QRectF(QPointF(left, top), QPointF(right, bottom));

    p.setRenderHint(QPainter::Antialiasing, true);
    drawRegions(p, chart, f, fonts, u);
    drawAxes(p, rect, chart, f, fonts, u);

    // Data is clipped to the plot area: it never spills over labels.
    p.save();
    p.setClipRect(f.area.adjusted(-3 * u, -3 * u, 3 * u, 3 * u));
    for (int i = 0; i < chart.series.size(); ++i) {
        const ChartSeries &s = chart.series[i];
        const QColor c = seriesColor(chart.colorIndex(i));
        if (s.bars) {
            drawBars(p, s, c, f, u);
            drawErrorBars(p, s, c.darker(150), f, u);
            continue;
        }
        if (s.line)
            drawLine(p, s, c, f, u);
        drawErrorBars(p, s, c, f, u);
        if (s.dots)
            drawMarkers(p, s, c, f, u);
    }
    drawReferences(p, chart, f, fonts, u);
    p.restore();

    if (legendW > 0)
        drawLegendRight(p, rect, chart, f, fonts, legendW, u);
    if (below)
        legendBelow(p, rect, chart, fonts, rect.bottom() - belowH + 2 * u, u);
    p.restore();
}

} // namespace Throughline
