#pragma once
// The one chart model of the application: a plain description of an XY chart (series of points
// that carry their validity and the reason, optional intervals for error bars, step-function
// curves, bars, shaded regions, reference lines for targets and SLOs). It is drawn two ways from
// the same value: ChartPainter (QPainter: PDF report, PNG/SVG/PDF exports, history charts) and
// ChartPlot (QCustomPlot: the app's interactive plots). Both follow the rules stated here, so a
// description looks the same wherever it is shown. No painting, no QCustomPlot: any thread.

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace Throughline {

// A range in data units (absolute values, not ± deltas): an error bar's ends. A side the sample cannot
// bound (a confidence bound that is open, core/stats/interval.h) is infinite: both renderers draw it to the
// plot's edge without a cap, so an open bar never reads as a tight one.
struct ChartInterval {
    double low = 0;
    double high = 0;
};

struct ChartPoint {
    double x = 0;
    double y = 0;
    // False: the point is shown hollow — an invalid load point (a validity flag is raised) or a live
    // estimate not yet replaced by the engine's aggregate. Such points are never hidden.
    bool valid = true;
    QString reason;                         // why not valid ("window_short, low_sample"); empty when valid
    std::optional<ChartInterval> yInterval; // vertical error bar (e.g. a confidence interval)
    std::optional<ChartInterval> xInterval; // horizontal error bar
    bool highlighted = false;               // ringed: the scenario's operating point

    ChartPoint() = default;
    ChartPoint(double px, double py)
        : x(px)
        , y(py)
    {
    }
    // Implicit on purpose: most callers build points from QPointF positions.
    ChartPoint(const QPointF &p) // NOLINT(google-explicit-constructor)
        : x(p.x())
        , y(p.y())
    {
    }

    // The validity rule in one place: a point of a load point with these flags is hollow when it is
    // not valid, and the reason lists its flags.
    static ChartPoint measured(double x, double y, bool valid, const std::vector<std::string> &flags);
    // Drawn hollow (both renderers ask this, never `valid` directly).
    bool hollow() const { return !valid; }
    bool finite() const;
};

struct ChartSeries {
    QString name;
    QList<ChartPoint> points; // data units, drawn in the given order
    bool step = false;        // step function: horizontal at a point's y up to the next point's x (MLPerf)
    bool bars = false;        // bars: each point is (bar centre, height)
    double barWidth = 0;      // data units (bars only)
    bool line = true;         // connect the points (false: markers only)
    bool dots = true;         // markers (false: line only, e.g. dense time series)
    Qt::PenStyle pen = Qt::SolidLine;
    int colorIndex = -1; // palette index; −1 = the series' position in the chart

    QList<QPointF> positions() const; // the points' (x, y), in order
    int markerCount() const;          // markers drawn: points with finite coordinates when dots, else 0
    int hollowMarkerCount() const;    // of those, the hollow ones
};

// A shaded band in data units; infinite bounds extend to the plot edge (a vertical band spans all y).
struct ChartRegion {
    enum class Tone { Neutral, Good, Bad };
    double x0 = -std::numeric_limits<double>::infinity();
    double x1 = std::numeric_limits<double>::infinity();
    double y0 = -std::numeric_limits<double>::infinity();
    double y1 = std::numeric_limits<double>::infinity();
    QString label;
    Tone tone = Tone::Neutral;
};

// A target or SLO drawn as a dashed line across the plot (vertical: x = value; horizontal: y = value).
struct ChartReferenceLine {
    bool vertical = true;
    double value = 0;
    QString label;
};

struct Chart {
    QString title;
    QString xLabel;
    QString yLabel;
    QList<ChartSeries> series;
    QList<ChartReferenceLine> references;
    QList<ChartRegion> regions;
    bool legend = true;
    bool yFromZero = true;
    bool xFromZero = true;
    // Logarithmic x axis, base 2 (concurrency 1 … 16,384); points with x ≤ 0 are not drawn.
    bool logX = false;
    // Non-empty: a category axis (bar groups). Category i sits at x = i, ticks carry these labels and
    // the x range is [−0.5, n − 0.5].
    QStringList xCategories;

    int colorIndex(int series) const;
    bool anyHollow() const;
};

// Axis ranges and ticks of a chart, shared by both renderers: the data extent (points, intervals,
// bar widths, finite region bounds, reference lines), extended to zero where asked, padded and
// rounded out to "nice" ticks.
struct ChartScale {
    double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
    QList<double> xTicks, yTicks;
    double xStep = 1, yStep = 1; // tick spacing (1 on a log axis: tick labels are integers)
    bool logX = false;
    bool categories = false;
};

namespace ChartAxes {
ChartScale scale(const Chart &chart);
// "Nice" tick positions (1-2-5 steps) covering [lo, hi]; at least two ticks.
QList<double> niceTicks(double lo, double hi, int maxTicks);
// Powers of two covering [lo, hi] (lo > 0), thinned to at most maxTicks.
QList<double> log2Ticks(double lo, double hi, int maxTicks);
QString tickText(double value, double step);
} // namespace ChartAxes

} // namespace Throughline
