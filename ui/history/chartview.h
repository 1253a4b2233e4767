#pragma once
// A widget showing one ReportChartRenderer chart (history detail, compare) and exporting it:
// PNG (raster at 2× the widget size), SVG and PDF (vector, same renderer as the report). GUI thread.

#include "ui/plots/reportchartrenderer.h"

#include <QWidget>

namespace Throughline {

class ChartView : public QWidget
{
    Q_OBJECT
public:
    explicit ChartView(QWidget *parent = nullptr);

    void setChart(const ReportChartRenderer::Chart &chart);
    const ReportChartRenderer::Chart &chart() const { return m_chart; }
    // Format from the suffix: .png, .svg or .pdf. False with a message when the file cannot be written.
    bool exportTo(const QString &path, QString *error = nullptr) const;

    QSize sizeHint() const override { return {480, 320}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    ReportChartRenderer::Chart m_chart;
};

} // namespace Throughline
