#pragma once
// Vector XY charts drawn straight with QPainter: used by the PDF report (QPdfWriter keeps every
// line and glyph as vector graphics, no raster fallback) and by history exports to SVG/PDF.
// Pure painting, no widgets and no QCustomPlot, so it works headless. Any thread with its own painter.

#include <QColor>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>

class QPainter;

namespace Throughline {

class ReportChartRenderer
{
public:
    struct Series {
        QString name;
        QList<QPointF> points;  // data units, drawn in the given order
        bool step = false;      // MLPerf Endpoints step-function curve
        bool bars = false;      // histogram bars: each point is (bin centre, height)
        double barWidth = 0;    // data units (bars only)
        QList<int> highlighted; // indexes drawn with a larger ring (operating point)
        bool dots = true;       // false: line only (dense time series; a dot per sample would hide it)
        Qt::PenStyle pen = Qt::SolidLine;
    };
    struct Marker {
        bool vertical = true; // vertical: x = value; horizontal: y = value
        double value = 0;
        QString label;
    };
    struct Chart {
        QString title;
        QString xLabel;
        QString yLabel;
        QList<Series> series;
        QList<Marker> markers;
        bool legend = true;
        bool yFromZero = true;
        bool xFromZero = true;
        // Non-empty: a category axis (bar groups). Category i sits at x = i, ticks carry these labels and
        // the x range is [−0.5, n − 0.5].
        QStringList xCategories;
    };

    // Draws `chart` inside `rect` (device units of the painter). `pointSize` is the base font size;
    // everything else (pens, paddings) scales with the painter's device resolution.
    static void draw(QPainter &painter, const QRectF &rect, const Chart &chart, double pointSize = 8.0);

    // "Nice" tick positions (1-2-5 steps) covering [lo, hi]; returns at least two ticks.
    static QList<double> niceTicks(double lo, double hi, int maxTicks);
    static QColor seriesColor(int index);
};

} // namespace Throughline
