#include "ui/plots/qcp.h"

#include "ui/plots/chartplot.h"
#include "ui/plots/chartpainter.h"
#include "ui/plots/plotsetup.h"

#include <QEvent>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace Throughline {

namespace ChartQcp {

namespace {

constexpr double kMarkerPx = 7;
constexpr double kRingPx = 14;

QCPLayer *markerLayer(QCustomPlot *plot)
{
    if (QCPLayer *l = plot->layer(QStringLiteral("markers")))
        return l;
    return plot->layer(QStringLiteral("overlay"));
}

void setTitle(QCustomPlot *plot, const QString &title)
{
    auto *element = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0));
    if (!element && !title.isEmpty()) {
        plot->plotLayout()->insertRow(0);
        element = new QCPTextElement(plot, title, QFont());
        plot->plotLayout()->addElement(0, 0, element);
    }
    if (element)
        element->setText(title);
}

void setAxes(QCustomPlot *plot, const Chart &chart, const ChartScale &scale)
{
    plot->xAxis->setLabel(chart.xLabel);
    plot->yAxis->setLabel(chart.yLabel);
    if (scale.categories) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (int i = 0; i < chart.xCategories.size(); ++i)
            ticker->addTick(i, chart.xCategories[i]);
        plot->xAxis->setTicker(ticker);
        plot->xAxis->setScaleType(QCPAxis::stLinear);
    } else if (scale.logX) {
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setLogBase(2);
        ticker->setSubTickCount(0);
        plot->xAxis->setTicker(ticker);
        plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    } else {
        plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->xAxis->setScaleType(QCPAxis::stLinear);
    }
    plot->xAxis->setRange(scale.xMin, scale.xMax);
    plot->yAxis->setRange(scale.yMin, scale.yMax);
}

bool drawable(const ChartPoint &p, bool logX)
{
    return p.finite() && (!logX || p.x > 0);
}

bool sortedByX(const QList<ChartPoint> &points)
{
    return std::is_sorted(points.begin(), points.end(),
                          [](const ChartPoint &a, const ChartPoint &b) { return a.x < b.x; });
}

// A graph of the points that pass `keep`, drawn as markers only and kept out of the legend.
QCPGraph *markerGraph(QCustomPlot *plot, const ChartSeries &s, bool logX, const QCPScatterStyle &style,
                      const std::function<bool(const ChartPoint &)> &keep)
{
    QVector<double> x, y;
    for (const ChartPoint &p : s.points)
        if (drawable(p, logX) && keep(p))
            x << p.x, y << p.y;
    if (x.isEmpty())
        return nullptr;
    QCPGraph *g = plot->addGraph();
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(style);
    g->setData(x, y);
    g->removeFromLegend();
    return g;
}

// One QCPErrorBars over the points' error bars of one axis. `capped`: the bounded ends, with whiskers;
// otherwise the open ends, without: an open end reaches past the axis range, where the axis rect clips it
// (drawn to the edge). QCPErrorBars draws nothing for a NaN side.
void addErrorBarSet(QCustomPlot *plot, const ChartSeries &s, const QColor &c, const ChartScale &scale,
                    bool vertical, bool capped)
{
    const double beyond = 0.05 * (vertical ? scale.yMax - scale.yMin : scale.xMax - scale.xMin);
    const double rangeLow = (vertical ? scale.yMin : scale.xMin) - beyond;
    const double rangeHigh = (vertical ? scale.yMax : scale.xMax) + beyond;
    auto reach = [capped](double centre, double end, double rangeEnd) {
        if (std::isfinite(end) != capped)
            return std::numeric_limits<double>::quiet_NaN();
        return std::max(0.0, std::abs((capped ? end : rangeEnd) - centre));
    };
    QVector<double> x, y, minus, plus;
    for (const ChartPoint &p : s.points) {
        const auto &iv = vertical ? p.yInterval : p.xInterval;
        if (!iv || !drawable(p, scale.logX) || (!vertical && scale.logX && !(iv->low > 0)))
            continue;
        const double centre = vertical ? p.y : p.x;
        const double m = reach(centre, iv->low, rangeLow), q = reach(centre, iv->high, rangeHigh);
        if (std::isnan(m) && std::isnan(q))
            continue;
        x << p.x, y << p.y, minus << m, plus << q;
    }
    if (x.isEmpty())
        return;
    QCPGraph *anchor = plot->addGraph();
    anchor->setLineStyle(QCPGraph::lsNone);
    anchor->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    anchor->setData(x, y);
    anchor->removeFromLegend();
    auto *bars = new QCPErrorBars(plot->xAxis, plot->yAxis);
    bars->setDataPlottable(anchor);
    bars->setErrorType(vertical ? QCPErrorBars::etValueError : QCPErrorBars::etKeyError);
    bars->setPen(PlotSetup::cosmeticPen(c));
    bars->setWhiskerWidth(capped ? 5 : 0);
    bars->setData(minus, plus);
    bars->removeFromLegend();
}

void addErrorBars(QCustomPlot *plot, const ChartSeries &s, const QColor &c, const ChartScale &scale,
                  bool vertical)
{
    addErrorBarSet(plot, s, c, scale, vertical, true);
    addErrorBarSet(plot, s, c, scale, vertical, false);
}

void addLine(QCustomPlot *plot, const ChartSeries &s, const QColor &c, bool logX)
{
    QVector<double> x, y;
    for (const ChartPoint &p : s.points)
        if (drawable(p, logX))
            x << p.x, y << p.y;
    const QPen pen = PlotSetup::cosmeticPen(c, s.pen);
    // QCPGraph keeps its data sorted by x; a curve whose x runs back (throughput falling under
    // overload) is drawn in the given order by QCPCurve, like ChartPainter does.
    if (!s.step && !sortedByX(s.points)) {
        auto *curve = new QCPCurve(plot->xAxis, plot->yAxis);
        curve->setPen(pen);
        curve->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
        curve->setData(x, y);
        curve->setName(s.name);
        return;
    }
    QCPGraph *g = plot->addGraph();
    g->setPen(pen);
    g->setLineStyle(s.step ? QCPGraph::lsStepLeft : QCPGraph::lsLine);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    g->setData(x, y);
    g->setName(s.name);
}

void addBars(QCustomPlot *plot, const ChartSeries &s, const QColor &c, bool logX)
{
    auto *bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setWidth(s.barWidth);
    bars->setPen(PlotSetup::cosmeticPen(c.darker(130)));
    bars->setBrush(c.lighter(140));
    QVector<double> x, y;
    for (const ChartPoint &p : s.points)
        if (drawable(p, logX))
            x << p.x, y << p.y;
    bars->setData(x, y);
    bars->setName(s.name);
}

// Same marker rule as ChartPainter: filled disc when valid, a background-filled ring when hollow,
// an extra unfilled ring on the operating point.
void addMarkers(QCustomPlot *plot, const ChartSeries &s, const QColor &c, const QColor &background, bool logX,
                bool inLegend)
{
    QCPGraph *filled =
        markerGraph(plot, s, logX, QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(background), c, kMarkerPx),
                    [](const ChartPoint &p) { return !p.hollow(); });
    if (filled && inLegend) {
        filled->setName(s.name);
        filled->addToLegend();
    }
    markerGraph(plot, s, logX,
                QCPScatterStyle(QCPScatterStyle::ssCircle, PlotSetup::cosmeticPen(c), background, kMarkerPx),
                [](const ChartPoint &p) { return p.hollow(); });
    markerGraph(plot, s, logX,
                QCPScatterStyle(QCPScatterStyle::ssCircle, PlotSetup::cosmeticPen(c), Qt::NoBrush, kRingPx),
                [](const ChartPoint &p) { return p.highlighted; });
}

// The print colours of ChartPainter; on a dark background the same hue, translucent.
QColor regionColor(ChartRegion::Tone tone, const QPalette &palette)
{
    QColor c = ChartPainter::regionColor(tone);
    if (palette.color(QPalette::Window).lightness() < 128)
        c.setAlpha(70);
    return c;
}

void addRegions(QCustomPlot *plot, const Chart &chart, const ChartScale &scale, const QPalette &palette)
{
    for (const ChartRegion &r : chart.regions) {
        auto *rect = new QCPItemRect(plot);
        rect->setLayer(QStringLiteral("background"));
        rect->setClipToAxisRect(true);
        rect->setPen(Qt::NoPen);
        rect->setBrush(regionColor(r.tone, palette));
        rect->topLeft->setCoords(std::clamp(r.x0, scale.xMin, scale.xMax),
                                 std::clamp(r.y1, scale.yMin, scale.yMax));
        rect->bottomRight->setCoords(std::clamp(r.x1, scale.xMin, scale.xMax),
                                     std::clamp(r.y0, scale.yMin, scale.yMax));
        if (!r.label.isEmpty()) {
            auto *text = new QCPItemText(plot);
            text->setLayer(QStringLiteral("background"));
            text->setClipToAxisRect(true);
            text->setColor(QColor(110, 110, 110));
            text->setText(r.label);
            text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
            text->position->setParentAnchor(rect->top);
        }
    }
}

void addReferences(QCustomPlot *plot, const Chart &chart, const ChartScale &scale, const QColor &color)
{
    QCPLayer *layer = markerLayer(plot);
    int horizontal = 0; // labels of horizontal lines alternate left and right: close bounds stay readable
    for (const ChartReferenceLine &m : chart.references) {
        if (m.vertical && scale.logX && m.value <= 0)
            continue;
        auto *line = new QCPItemStraightLine(plot);
        line->setLayer(layer);
        line->setPen(PlotSetup::cosmeticPen(color, Qt::DashLine));
        auto *text = new QCPItemText(plot);
        text->setLayer(layer);
        text->setColor(color);
        text->setText(m.label);
        text->position->setType(QCPItemPosition::ptPlotCoords);
        if (m.vertical) {
            line->point1->setCoords(m.value, scale.yMin);
            line->point2->setCoords(m.value, scale.yMax);
            text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
            text->position->setCoords(m.value, scale.yMax);
        } else {
            line->point1->setCoords(scale.xMin, m.value);
            line->point2->setCoords(scale.xMax, m.value);
            const bool right = horizontal++ % 2 == 1;
            text->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
            text->position->setCoords(right ? scale.xMax : scale.xMin, m.value);
        }
    }
}

} // namespace

void apply(QCustomPlot *plot, const Chart &chart, const QPalette &palette)
{
    plot->clearPlottables();
    plot->clearItems();
    setTitle(plot, chart.title);
    const ChartScale scale = ChartAxes::scale(chart);
    setAxes(plot, chart, scale);
    addRegions(plot, chart, scale, palette);
    const QColor background = PlotStyle::background(palette);
    for (int i = 0; i < chart.series.size(); ++i) {
        const ChartSeries &s = chart.series[i];
        const QColor c = PlotStyle::series(chart.colorIndex(i), palette);
        if (s.bars) {
            addBars(plot, s, c, scale.logX);
            addErrorBars(plot, s, c.darker(150), scale, true);
            continue;
        }
        if (s.line)
            addLine(plot, s, c, scale.logX);
        addErrorBars(plot, s, c, scale, true);
        addErrorBars(plot, s, c, scale, false);
        if (s.dots)
            addMarkers(plot, s, c, background, scale.logX, !s.line);
    }
    addReferences(plot, chart, scale, PlotStyle::target(palette));
    plot->legend->setVisible(chart.legend && plot->legend->itemCount() > 0);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ChartQcp

ChartPlot::ChartPlot(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    PlotSetup::initLivePlot(m_plot);
    PlotSetup::applyPalette(m_plot, palette());
}

void ChartPlot::setChart(const Chart &chart)
{
    m_chart = chart;
    ChartQcp::apply(m_plot, m_chart, palette());
    PlotSetup::applyPalette(m_plot, palette());
}

bool ChartPlot::render(QPaintDevice &device, const QSize &size)
{
    m_plot->resize(size);
    QCPPainter painter;
    if (!painter.begin(&device))
        return false;
    m_plot->toPainter(&painter, size.width(), size.height());
    return painter.end();
}

void ChartPlot::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        PlotSetup::applyPalette(m_plot, palette());
        ChartQcp::apply(m_plot, m_chart, palette());
    }
    QWidget::changeEvent(event);
}

} // namespace Throughline
