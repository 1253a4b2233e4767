#pragma once
// The MLPerf-Endpoints-style curve: output tokens/s per GPU (x) against tokens/s per user
// (1000 / TPOT p90, y), one point per finished load point, one series per scenario, with target
// markers (vertical: a throughput target; horizontal: an interactivity floor from a TPOT SLO).
// Few points, so it is rebuilt on change; replots are queued. GUI thread only.

#include <QList>
#include <QWidget>

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
    };
    struct Marker {
        bool vertical = true; // vertical: x = value; horizontal: y = value
        double value = 0;
        QString label;
    };

    explicit CurvePlot(QWidget *parent = nullptr);

    void setSeriesNames(const QStringList &names);
    void setPoints(const QList<Point> &points);
    void setMarkers(const QList<Marker> &markers);
    void clear();

    int pointCount() const { return int(m_points.size()); }
    const QList<Point> &points() const { return m_points; }
    double lastReplotMs() const;
    QCustomPlot *plot() const { return m_plot; }

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
