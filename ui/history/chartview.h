#pragma once
// A widget showing one chart of the chart model (history detail, compare) and exporting it: PNG (raster at
// 2× the widget size), SVG and PDF (vector, same painter as the report). A chart without a single drawable
// point shows its title and the empty text (what to do instead), never bare axes. GUI thread.

#include "ui/plots/chartpainter.h"

#include <QWidget>

namespace Throughline {

class ChartView : public QWidget
{
    Q_OBJECT
public:
    explicit ChartView(QWidget *parent = nullptr);

    void setChart(const Chart &chart);
    const Chart &chart() const { return m_chart; }
    // Shown instead of empty axes while the chart has no drawable point.
    void setEmptyText(const QString &text);
    QString emptyText() const { return m_emptyText; }
    bool showsEmptyText() const; // true when the chart has nothing to draw
    static bool hasData(const Chart &chart);
    // Format from the suffix: .png, .svg or .pdf. False with a message when the file cannot be written.
    bool exportTo(const QString &path, QString *error = nullptr) const;

    QSize sizeHint() const override { return {480, 320}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    Chart m_chart;
    QString m_emptyText;
};

} // namespace Throughline
