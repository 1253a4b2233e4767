#include "ui/plots/qcp.h"

#include "ui/plots/curveplot.h"
#include "ui/plots/chartplot.h"
#include "ui/plots/curverule.h"
#include "ui/plots/plotsetup.h"

#include <QEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace Throughline {

CurvePlot::CurvePlot(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    setObjectName(QStringLiteral("curvePlot"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    PlotSetup::initLivePlot(m_plot);
    // Bottom-left is dominated by the frontier but holds the labels of horizontal target lines; the legend
    // goes under the axes.
    PlotSetup::legendBelow(m_plot, 2);
    setToolTip(
        tr("One point per finished load point: x = output_tps_per_gpu (output tokens/s over all GPUs), "
           "y = interactivity = 1000 / TPOT p90. Hollow points are live estimates or invalid points."));
    rebuild();
    PlotSetup::applyPalette(m_plot, palette());
    // The reason of a hollow point (and every point's values) on hover.
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        const QString tip = toolTipAt(event->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), tip, m_plot);
    });
}

QPoint CurvePlot::pixelOf(double x, double y) const
{
    return QPoint(int(m_plot->xAxis->coordToPixel(x)), int(m_plot->yAxis->coordToPixel(y)));
}

QString CurvePlot::toolTipAt(const QPoint &pos) const
{
    const Point *nearest = nullptr;
    double best = 10 * 10; // within 10 px
    for (const Point &p : m_points) {
        const double dx = m_plot->xAxis->coordToPixel(p.x) - pos.x();
        const double dy = m_plot->yAxis->coordToPixel(p.y) - pos.y();
        if (dx * dx + dy * dy <= best) {
            best = dx * dx + dy * dy;
            nearest = &p;
        }
    }
    if (!nearest)
        return {};
    QString text = tr("%1: %2 tok/s per GPU, %3 tok/s per user")
                       .arg(m_names.value(nearest->series, tr("scenario %1").arg(nearest->series + 1)))
                       .arg(nearest->x, 0, 'f', 1)
                       .arg(nearest->y, 0, 'f', 1);
    if (nearest->xInterval || nearest->yInterval)
        text += u"\n"_qs + tr("tok/s per GPU: %1; tok/s per user: %2")
                               .arg(CurveRule::intervalText(nearest->xInterval, nearest->level, 1),
                                    CurveRule::intervalText(nearest->yInterval, nearest->level, 1));
    if (nearest->estimate)
        text += u"\n"_qs + tr("live estimate");
    else if (!nearest->valid)
        text += u"\n"_qs + tr("not valid for a verdict: %1").arg(nearest->reason);
    return text;
}

std::optional<CurvePlot::Point> CurvePlot::pointOf(int series, const PointResult &point)
{
    const auto cp = CurveRule::point(point);
    if (!cp)
        return std::nullopt;
    return Point{series,        cp->x,         cp->y,
                 false,         cp->valid,     cp->reason,
                 cp->xInterval, cp->yInterval, point.intervals.level};
}

void CurvePlot::setSeriesNames(const QStringList &names)
{
    m_names = names;
    rebuild();
}

void CurvePlot::setPoints(const QList<Point> &points)
{
    m_points = points;
    rebuild();
}

void CurvePlot::setMarkers(const QList<Marker> &markers)
{
    m_markers = markers;
    rebuild();
}

void CurvePlot::clear()
{
    m_points.clear();
    m_markers.clear();
    rebuild();
}

double CurvePlot::lastReplotMs() const
{
    return m_plot->replotTime();
}

Chart CurvePlot::chart() const
{
    Chart chart;
    chart.title = tr("Throughput vs interactivity");
    chart.xLabel = tr("output tokens/s per GPU");
    chart.yLabel = tr("tokens/s per user (1000 / TPOT p90)");
    int maxSeries = int(m_names.size());
    for (const Point &p : m_points)
        maxSeries = std::max(maxSeries, p.series + 1);
    for (int s = 0; s < maxSeries; ++s) {
        ChartSeries series;
        series.name = m_names.value(s, tr("scenario %1").arg(s + 1));
        series.colorIndex = s;
        for (const Point &p : m_points) {
            if (p.series != s)
                continue;
            ChartPoint cp(p.x, p.y);
            cp.valid = p.valid && !p.estimate;
            cp.reason = p.estimate ? tr("live estimate") : p.reason;
            cp.xInterval = p.xInterval;
            cp.yInterval = p.yInterval;
            series.points << cp;
        }
        if (series.points.isEmpty())
            continue;
        const bool invalid = std::any_of(m_points.begin(), m_points.end(), [s](const Point &p) {
            return p.series == s && !p.estimate && !p.valid;
        });
        if (invalid)
            series.name += u" ("_qs + CurveRule::hollowLegendNote() + u')';
        std::sort(series.points.begin(), series.points.end(),
                  [](const ChartPoint &a, const ChartPoint &b) { return a.x < b.x; });
        chart.series << series;
    }
    for (const Marker &m : m_markers)
        chart.references << ChartReferenceLine{m.vertical, m.value, m.label};
    return chart;
}

void CurvePlot::rebuild()
{
    ChartQcp::apply(m_plot, chart(), palette());
}

void CurvePlot::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        PlotSetup::applyPalette(m_plot, palette());
        rebuild();
    }
    QWidget::changeEvent(event);
}

} // namespace Throughline
