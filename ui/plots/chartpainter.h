#pragma once
// The QPainter renderer of the chart model (chart.h): the PDF report (QPdfWriter keeps every line
// and glyph as vector graphics), PNG/SVG/PDF exports and the history charts. Pure painting, no
// widgets and no QCustomPlot, so it works headless. Print palette (white background, Okabe–Ito
// series colours). Any thread with its own painter (fonts need a QGuiApplication).

#include "ui/plots/chart.h"

#include <QColor>
#include <QRectF>

class QPainter;

namespace Throughline {

class ChartPainter
{
public:
    // Draws `chart` inside `rect` (device units of the painter). `pointSize` is the base font size;
    // everything else (pens, paddings, marker sizes) scales with the painter's device resolution.
    static void draw(QPainter &painter, const QRectF &rect, const Chart &chart, double pointSize = 8.0);

    static QColor seriesColor(int index); // print palette
    static QColor referenceColor();
    static QColor regionColor(ChartRegion::Tone tone);
};

} // namespace Throughline
