#pragma once
// The MLPerf-Endpoints-style curve: output tokens/s per GPU (x) against tokens/s per user
// (1000 / TPOT p90, y), one point per finished load point, one series per scenario, with target
// markers (vertical: a throughput target; horizontal: an interactivity floor from a TPOT SLO) and each
// finished point's confidence intervals as error bars on both axes.
// Drawn through the chart model (chart.h), so live estimates and invalid points are hollow.
// Few points, so it is rebuilt on change; replots are queued. GUI thread only.

#include "core/metrics/pointresult.h"
#include "ui/plots/chart.h"

#include <QList>
#include <QWidget>

#include <optional>

class QCustomPlot;

namespace Throughline {

class CurvePlot : public QWidget
{
    Q_OBJECT
public:
    struct Point {
        int series = 0;        // scenario index
        double x = 0;          // output tokens/s per GPU
        double y = 0;          // tokens/s per user
        bool estimate = false; // from live samples; replaced by the engine's aggregate later
        bool valid = true;     // false: a validity flag is raised (drawn hollow, like estimates)
        QString reason;        // the flags, when not valid
        // Error bars: the point's stored intervals at `level` (none for live estimates).
        std::optional<ChartInterval> xInterval, yInterval;
        double level = 0;
    };
    struct Marker {
        bool vertical = true; // vertical: x = value; horizontal: y = value
        double value = 0;
        QString label;
    };

    explicit CurvePlot(QWidget *parent = nullptr);

    // The curve point of a measured load point by the shared rule (curverule.h): hollow when not valid
    // for a verdict, at TPOT mean when TPOT p90 is not reportable; nullopt only without any TPOT.
    static std::optional<Point> pointOf(int series, const PointResult &point);

    void setSeriesNames(const QStringList &names);
    void setPoints(const QList<Point> &points);
    void setMarkers(const QList<Marker> &markers);
    void clear();

    int pointCount() const { return int(m_points.size()); }
    const QList<Point> &points() const { return m_points; }
    // The chart model this plot shows (ChartQcp maps it; ChartPainter would draw the same).
    Chart chart() const;
    double lastReplotMs() const;
    QCustomPlot *plot() const { return m_plot; }
    // Hover text at a widget position of the plot: scenario, values, and why a hollow point is hollow.
    QString toolTipAt(const QPoint &pos) const;
    // Widget position of a data point (after the plot was laid out).
    QPoint pixelOf(double x, double y) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuild();

    QCustomPlot *m_plot;
    QStringList m_names;
    QList<Point> m_points;
    QList<Marker> m_markers;
};

} // namespace Throughline
