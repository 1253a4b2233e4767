#include "ui/plots/qcp.h"

#include "ui/plots/curveplot.h"
#include "ui/plots/plotsetup.h"

#include <QEvent>
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
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0,
                                     new QCPTextElement(m_plot, tr("Throughput vs interactivity"), QFont()));
    m_plot->xAxis->setLabel(tr("output tokens/s per GPU"));
    m_plot->yAxis->setLabel(tr("tokens/s per user (1000 / TPOT p90)"));
    // The frontier runs from top-left (interactive) to bottom-right (throughput); bottom-left is
    // dominated and stays empty, so the legend goes there.
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);
    setToolTip(
        tr("One point per finished load point: x = output_tps_per_gpu (output tokens/s over all GPUs), "
           "y = interactivity = 1000 / TPOT p90. Hollow points are live estimates."));
    PlotSetup::applyPalette(m_plot, palette());
    rebuild();
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

void CurvePlot::rebuild()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    const QPalette pal = palette();
    int maxSeries = int(m_names.size());
    for (const Point &p : m_points)
        maxSeries = std::max(maxSeries, p.series + 1);
    double xMax = 1, yMax = 1;
    for (int s = 0; s < maxSeries; ++s) {
        QList<Point> pts;
        for (const Point &p : m_points)
            if (p.series == s)
                pts << p;
        if (pts.isEmpty())
            continue;
        std::sort(pts.begin(), pts.end(), [](const Point &a, const Point &b) { return a.x < b.x; });
        const QColor c = PlotStyle::series(s, pal);
        for (const bool estimate : {false, true}) {
            QCPGraph *g = m_plot->addGraph();
            g->setPen(PlotSetup::cosmeticPen(c, estimate ? Qt::DotLine : Qt::SolidLine));
            g->setScatterStyle(
                QCPScatterStyle(estimate ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssDisc, c, c, 7));
            if (estimate)
                g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c, 7));
            g->setLineStyle(estimate ? QCPGraph::lsNone : QCPGraph::lsLine);
            g->setName(estimate ? tr("%1 (live estimate)").arg(m_names.value(s, tr("scenario %1").arg(s + 1)))
                                : m_names.value(s, tr("scenario %1").arg(s + 1)));
            QVector<double> x, y;
            for (const Point &p : pts) {
                if (p.estimate != estimate)
                    continue;
                x << p.x;
                y << p.y;
                xMax = std::max(xMax, p.x);
                yMax = std::max(yMax, p.y);
            }
            g->setData(x, y, true);
            if (x.isEmpty())
                g->removeFromLegend();
        }
    }
    const QColor tc = PlotStyle::target(pal);
    for (const Marker &m : m_markers) {
        auto *line = new QCPItemStraightLine(m_plot);
        line->setLayer(QStringLiteral("markers"));
        line->setPen(PlotSetup::cosmeticPen(tc, Qt::DashLine));
        if (m.vertical) {
            line->point1->setCoords(m.value, 0);
            line->point2->setCoords(m.value, 1);
            xMax = std::max(xMax, m.value);
        } else {
            line->point1->setCoords(0, m.value);
            line->point2->setCoords(1, m.value);
            yMax = std::max(yMax, m.value);
        }
        auto *text = new QCPItemText(m_plot);
        text->setLayer(QStringLiteral("markers"));
        text->setColor(tc);
        text->setText(m.label);
        text->setPositionAlignment(m.vertical ? (Qt::AlignLeft | Qt::AlignTop)
                                              : (Qt::AlignRight | Qt::AlignBottom));
        text->position->setType(QCPItemPosition::ptPlotCoords);
        if (m.vertical)
            text->position->setCoords(m.value, yMax * 1.08);
        else
            text->position->setCoords(xMax * 1.1, m.value);
    }
    m_plot->xAxis->setRange(0, xMax * 1.15);
    m_plot->yAxis->setRange(0, yMax * 1.15);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
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
