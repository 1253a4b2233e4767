#pragma once
// Shared QCustomPlot setup for ui/plots (include qcp.h before this). Live-plot defaults: no
// antialiasing on graphs, adaptive sampling, thin cosmetic pens, palette-derived colours.

#include "ui/plots/plotstyle.h"

namespace Throughline::PlotSetup {

inline QPen cosmeticPen(const QColor &c, Qt::PenStyle style = Qt::SolidLine)
{
    QPen pen(c, 1, style);
    pen.setCosmetic(true);
    return pen;
}

inline void styleAxis(QCPAxis *axis, const QPalette &p)
{
    const QColor fg = PlotStyle::foreground(p);
    axis->setBasePen(cosmeticPen(fg));
    axis->setTickPen(cosmeticPen(fg));
    axis->setSubTickPen(cosmeticPen(fg));
    axis->setTickLabelColor(fg);
    axis->setLabelColor(fg);
    axis->grid()->setPen(cosmeticPen(PlotStyle::grid(p), Qt::DotLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

inline void applyPalette(QCustomPlot *plot, const QPalette &p)
{
    plot->setBackground(PlotStyle::background(p));
    for (QCPAxis *a : {plot->xAxis, plot->yAxis, plot->xAxis2, plot->yAxis2})
        styleAxis(a, p);
    plot->legend->setBrush(PlotStyle::background(p));
    plot->legend->setTextColor(PlotStyle::foreground(p));
    plot->legend->setBorderPen(cosmeticPen(PlotStyle::grid(p)));
    if (auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0)))
        title->setTextColor(PlotStyle::foreground(p));
}

inline void initLivePlot(QCustomPlot *plot)
{
    plot->setNotAntialiasedElements(QCP::aeAll);
    plot->setAntialiasedElements(QCP::aeLegend | QCP::aeLegendItems | QCP::aeOther);
    plot->setNoAntialiasingOnDrag(true);
    plot->setPlottingHint(QCP::phCacheLabels, true);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->legend->setVisible(true);
    QFont small = plot->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot->legend->setFont(small);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    // Overlays (target markers) get their own layer above the graphs.
    plot->addLayer(QStringLiteral("markers"), plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
}

// Moves the legend out of the axis rect into a row of its own under it, `columns` entries per line: for plots
// where no corner stays empty (the curve's target labels sit at the left edge, the frontier can reach any
// other corner), so the legend never covers points or labels. A title inserted later as row 0 stays above.
inline void legendBelow(QCustomPlot *plot, int columns)
{
    QCPLayoutGrid *layout = plot->plotLayout();
    auto *row = new QCPLayoutGrid;
    const int index = layout->rowCount();
    layout->addElement(index, 0, row);
    row->setMargins(QMargins(6, 0, 6, 6));
    row->addElement(0, 0, plot->legend); // takes it out of the axis rect's inset layout
    layout->setRowStretchFactor(index, 0.001);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(columns);
}

} // namespace Throughline::PlotSetup
