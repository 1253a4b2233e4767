#include "ui/plots/qcp.h"

#include "ui/plots/plotsetup.h"
#include "ui/plots/timeseriesplot.h"

#include <QEvent>
#include <QVBoxLayout>

namespace Throughline {

TimeSeriesPlot::TimeSeriesPlot(const QString &title, const QString &yLabel, QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    PlotSetup::initLivePlot(m_plot);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, new QCPTextElement(m_plot, title, QFont()));
    m_plot->xAxis->setLabel(tr("run time (s)"));
    m_plot->yAxis->setLabel(yLabel);
    applyColours();
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] { emit replotted(m_plot->replotTime()); });
}

int TimeSeriesPlot::addSeries(const QString &name, bool dashed)
{
    QCPGraph *g = m_plot->addGraph();
    g->setName(name);
    g->setAdaptiveSampling(true);
    g->setLineStyle(QCPGraph::lsLine);
    m_dashed.push_back(dashed);
    m_right.push_back(false);
    applyColours();
    return m_plot->graphCount() - 1;
}

int TimeSeriesPlot::addRightSeries(const QString &name, const QString &rightLabel, bool dashed)
{
    QCPGraph *g = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    g->setName(name);
    g->setAdaptiveSampling(true);
    g->setLineStyle(QCPGraph::lsLine);
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setLabel(rightLabel);
    m_dashed.push_back(dashed);
    m_right.push_back(true);
    applyColours();
    return m_plot->graphCount() - 1;
}

void TimeSeriesPlot::append(int series, const std::vector<double> &t, const std::vector<double> &v)
{
    QCPGraph *g = m_plot->graph(series);
    if (!g)
        return;
    QVector<double> keys, values;
    keys.reserve(qsizetype(t.size()));
    values.reserve(qsizetype(t.size()));
    for (size_t i = 0; i < t.size() && i < v.size(); ++i) {
        if (v[i] < 0)
            continue;
        keys << t[i];
        values << v[i];
        m_latestT = std::max(m_latestT, t[i]);
    }
    g->addData(keys, values, true);
}

void TimeSeriesPlot::setLogY(bool log)
{
    m_plot->yAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log)
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
}

void TimeSeriesPlot::refresh()
{
    const double from = m_latestT - m_windowS;
    double yMax = 0, y2Max = 0;
    bool any = false, any2 = false;
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph *g = m_plot->graph(i);
        if (from > 0)
            g->data()->removeBefore(from); // bounded live window
        bool found = false;
        const QCPRange r = g->data()->valueRange(found);
        if (!found)
            continue;
        if (m_right[size_t(i)]) {
            y2Max = any2 ? std::max(y2Max, r.upper) : r.upper;
            any2 = true;
        } else {
            yMax = any ? std::max(yMax, r.upper) : r.upper;
            any = true;
        }
    }
    if (m_plot->yAxis2->visible())
        m_plot->yAxis2->setRange(0, m_rightMax > 0 ? m_rightMax : any2 && y2Max > 0 ? y2Max * 1.15 : 1);
    m_plot->xAxis->setRange(std::max(0.0, from), std::max(m_latestT, 1.0) + 0.5);
    if (m_plot->yAxis->scaleType() == QCPAxis::stLogarithmic)
        m_plot->yAxis->rescale();
    else
        m_plot->yAxis->setRange(0, any && yMax > 0 ? yMax * 1.15 : 1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimeSeriesPlot::clear()
{
    for (int i = 0; i < m_plot->graphCount(); ++i)
        m_plot->graph(i)->data()->clear();
    m_latestT = 0;
    refresh();
}

int TimeSeriesPlot::pointCount(int series) const
{
    QCPGraph *g = m_plot->graph(series);
    return g ? g->dataCount() : 0;
}

std::pair<double, double> TimeSeriesPlot::valueRange(int series) const
{
    QCPGraph *g = m_plot->graph(series);
    bool found = false;
    const QCPRange r = g ? g->data()->valueRange(found) : QCPRange();
    return found ? std::make_pair(r.lower, r.upper) : std::make_pair(0.0, 0.0);
}

int TimeSeriesPlot::seriesCount() const
{
    return m_plot->graphCount();
}

double TimeSeriesPlot::lastReplotMs() const
{
    return m_plot->replotTime();
}

void TimeSeriesPlot::applyColours()
{
    const QPalette pal = palette();
    PlotSetup::applyPalette(m_plot, pal);
    for (int i = 0; i < m_plot->graphCount(); ++i)
        m_plot->graph(i)->setPen(PlotSetup::cosmeticPen(PlotStyle::series(i, pal),
                                                        m_dashed[size_t(i)] ? Qt::DashLine : Qt::SolidLine));
}

void TimeSeriesPlot::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyColours();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    QWidget::changeEvent(event);
}

} // namespace Throughline
