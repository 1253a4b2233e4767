#pragma once
// A live time-series plot (PlotJuggler style): the run page appends batches from its ~10 Hz timer
// with addData, points older than the live window are trimmed with removeBefore, and the replot is
// queued (rpQueuedReplot) — never one signal or replot per sample. Thin cosmetic pens, adaptive
// sampling on, no fills. The full data lives in the database. GUI thread only.

#include <QWidget>

#include <utility>
#include <vector>

class QCustomPlot;

namespace Throughline {

class TimeSeriesPlot : public QWidget
{
    Q_OBJECT
public:
    explicit TimeSeriesPlot(const QString &title, const QString &yLabel, QWidget *parent = nullptr);

    int addSeries(const QString &name, bool dashed = false);
    // A series on the right-hand value axis (its own unit, e.g. % beside request counts); the
    // axis appears with the first such series and is rescaled on its own.
    int addRightSeries(const QString &name, const QString &rightLabel, bool dashed = false);
    // Appends points (t in run-clock seconds, ascending); negative values are skipped (no sample).
    void append(int series, const std::vector<double> &t, const std::vector<double> &v);
    // Fixed upper bound of the right-hand axis (e.g. 100 for a percentage); <= 0 = scale to the data.
    void setRightAxisMax(double max) { m_rightMax = max; }
    void setWindowS(double seconds) { m_windowS = seconds; }
    double windowS() const { return m_windowS; }
    void setLogY(bool log);
    // Trims to the live window, rescales and queues a replot.
    void refresh();
    void clear();

    int pointCount(int series) const;
    // {lowest, highest} value of a series inside the live window; {0, 0} when empty.
    std::pair<double, double> valueRange(int series) const;
    int seriesCount() const;
    double lastReplotMs() const;
    QCustomPlot *plot() const { return m_plot; }

signals:
    // After every replot, with its duration (QCustomPlot::replotTime, ms): benchmarks and logs.
    void replotted(double ms);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyColours();

    QCustomPlot *m_plot;
    double m_windowS = 600;
    double m_latestT = 0;
    double m_rightMax = 0;
    std::vector<bool> m_dashed;
    std::vector<bool> m_right; // series on yAxis2
};

} // namespace Throughline
