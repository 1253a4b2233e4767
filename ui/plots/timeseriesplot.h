#pragma once
// A live time-series plot (PlotJuggler style): the run page appends batches from its ~10 Hz timer
// with addData, points older than the live window are trimmed with removeBefore, and the replot is
// queued (rpQueuedReplot) — never one signal or replot per sample. Thin cosmetic pens, adaptive
// sampling on, no fills. The full data lives in the database. GUI thread only.

#include <QWidget>

#include <vector>

class QCustomPlot;

namespace Throughline {

class TimeSeriesPlot : public QWidget
{
    Q_OBJECT
public:
    explicit TimeSeriesPlot(const QString &title, const QString &yLabel, QWidget *parent = nullptr);

    int addSeries(const QString &name, bool dashed = false);
    // Appends points (t in run-clock seconds, ascending); negative values are skipped (no sample).
    void append(int series, const std::vector<double> &t, const std::vector<double> &v);
    void setWindowS(double seconds) { m_windowS = seconds; }
    double windowS() const { return m_windowS; }
    void setLogY(bool log);
    // Trims to the live window, rescales and queues a replot.
    void refresh();
    void clear();

    int pointCount(int series) const;
    int seriesCount() const;
    double lastReplotMs() const;
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyColours();

    QCustomPlot *m_plot;
    double m_windowS = 600;
    double m_latestT = 0;
    std::vector<bool> m_dashed;
};

} // namespace Throughline
