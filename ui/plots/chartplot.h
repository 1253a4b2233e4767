#pragma once
// The QCustomPlot side of the chart model (chart.h): ChartQcp::apply maps a Chart onto a
// QCustomPlot (the run monitor's live curve, interactive history plots) following the same rules
// as ChartPainter — hollow markers for invalid points, error bars, step curves, shaded regions,
// dashed reference lines — and ChartPlot is a widget showing one Chart that way. GUI thread only.

#include "ui/plots/chart.h"

#include <QWidget>

class QCustomPlot;
class QPaintDevice;

namespace Throughline {

namespace ChartQcp {
// Replaces the plot's plottables and items with `chart`'s (axes, title element at row 0 when the
// chart has a title, ranges from ChartAxes::scale) and queues a replot. Reference lines go on a
// "markers" layer when the plot has one.
void apply(QCustomPlot *plot, const Chart &chart, const QPalette &palette);
} // namespace ChartQcp

class ChartPlot : public QWidget
{
    Q_OBJECT
public:
    explicit ChartPlot(QWidget *parent = nullptr);

    void setChart(const Chart &chart);
    const Chart &chart() const { return m_chart; }
    // Paints the plot as shown, at `size` (QCustomPlot::toPainter) onto `device`: exports and tests.
    bool render(QPaintDevice &device, const QSize &size);
    QCustomPlot *plot() const { return m_plot; }

    QSize sizeHint() const override { return {480, 320}; }

protected:
    void changeEvent(QEvent *event) override;

private:
    QCustomPlot *m_plot;
    Chart m_chart;
};

} // namespace Throughline
