#pragma once
// The two plots of History's "Where the time goes" tab (docs/server-timing.md): a horizontal stacked bar per
// load point (each part's mean over the point's measured requests) and one request's waterfall (each part
// from where the previous one ended). Measured parts are solid, derived ones (the remainder) hatched, parts
// that cross the two clocks carry the alignment's ± bound (tooltip; an error bar in the waterfall). The
// parts are named and coloured as everywhere else (breakdownparts.h). The values are given ready-made
// (ui/history/breakdownview.h builds them from the stored data); these widgets only draw them and report
// which bar was clicked. GUI thread only.

#include "core/servertiming/requestbreakdown.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QCustomPlot;
class QPaintDevice;

namespace Throughline {

struct BreakdownSegment {
    BreakdownPart part = BreakdownPart::Unattributed;
    double ms = kNoValue; // kNoValue: unknown (waterfall only; the stacked bars leave unknown parts out)
    PartStatus status = PartStatus::Unknown;
    bool aligned = false;
    double boundMs = kNoValue; // ± of an aligned part
    QString detail;            // more for the tooltip (percentiles, n)
};

struct StackedBar {
    QString label;
    std::int64_t pointId = -1;
    std::vector<BreakdownSegment> segments; // BreakdownPart order, only the parts drawn
};

class StackedBreakdownPlot : public QWidget
{
    Q_OBJECT
public:
    explicit StackedBreakdownPlot(QWidget *parent = nullptr);

    // One bar per entry, the first at the top; `valueLabel` names the statistic (the axis says what is
    // stacked).
    void setBars(std::vector<StackedBar> bars, const QString &valueLabel);
    const std::vector<StackedBar> &bars() const { return m_bars; }
    // Outlines bar `index` (the point the waterfall below shows); -1 = none.
    void setSelected(int index);
    int selected() const { return m_selected; }
    // The bar index at a widget position, -1 when none; the tooltip text there ("" when none).
    int barAt(const QPoint &pos) const;
    QString toolTipAt(const QPoint &pos) const;
    bool render(QPaintDevice &device, const QSize &size);
    QCustomPlot *plot() const { return m_plot; }

signals:
    void barClicked(int index);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override; // the plot's tooltips and clicks

private:
    void redraw();

    QCustomPlot *m_plot;
    std::vector<StackedBar> m_bars;
    QString m_valueLabel;
    int m_selected = -1;
};

struct WaterfallRow {
    BreakdownSegment segment;
    double startMs = 0; // where the part begins: the end of the known parts before it
};

class WaterfallPlot : public QWidget
{
    Q_OBJECT
public:
    explicit WaterfallPlot(QWidget *parent = nullptr);

    void setRows(std::vector<WaterfallRow> rows, const QString &title);
    void clear(const QString &message);
    const std::vector<WaterfallRow> &rows() const { return m_rows; }
    // The row at a widget position (-1 when none) and its tooltip.
    int rowAt(const QPoint &pos) const;
    QString toolTipAt(const QPoint &pos) const;
    bool render(QPaintDevice &device, const QSize &size);
    QCustomPlot *plot() const { return m_plot; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override; // the plot's tooltips and clicks

private:
    QCustomPlot *m_plot;
    std::vector<WaterfallRow> m_rows;
};

} // namespace Throughline
