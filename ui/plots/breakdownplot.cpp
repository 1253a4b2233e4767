#include "ui/plots/qcp.h"

#include "ui/plots/breakdownplot.h"

#include "ui/plots/breakdownparts.h"
#include "ui/plots/plotsetup.h"

#include <QCoreApplication>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <array>
#include <cmath>

namespace Throughline {

namespace {

constexpr double kBarWidth = 0.6;
constexpr double kRowHeight = 0.7;

bool known(double ms)
{
    return std::isfinite(ms);
}

// Fewer decimals for longer parts: a 0.35 ms network hop and a 2,400 ms decode both read at a glance.
QString msText(double ms)
{
    const int decimals = std::abs(ms) < 1 ? 3 : std::abs(ms) < 100 ? 2 : 1;
    return QLocale().toString(ms, 'f', decimals);
}

QString valueText(const BreakdownSegment &s)
{
    if (!known(s.ms))
        return BreakdownParts::statusName(PartStatus::Unknown);
    if (s.aligned && known(s.boundMs))
        return QCoreApplication::translate("Throughline::BreakdownPlot", "%1 ± %2 ms")
            .arg(msText(s.ms), msText(s.boundMs));
    return QCoreApplication::translate("Throughline::BreakdownPlot", "%1 ms").arg(msText(s.ms));
}

QString statusText(const BreakdownSegment &s)
{
    switch (s.status) {
    case PartStatus::Measured:
        return s.aligned ? QCoreApplication::translate("Throughline::BreakdownPlot",
                                                       "measured across the two clocks (± clock bound)")
                         : QCoreApplication::translate("Throughline::BreakdownPlot", "measured");
    case PartStatus::Derived:
        return QCoreApplication::translate("Throughline::BreakdownPlot",
                                           "derived: the remainder of the request's time");
    case PartStatus::Unknown:
        break;
    }
    return QCoreApplication::translate("Throughline::BreakdownPlot",
                                       "unknown: not published by this server timing format");
}

QString segmentToolTip(const BreakdownSegment &s)
{
    QString text = BreakdownParts::name(s.part) + u": "_qs + valueText(s) + u"\n"_qs + statusText(s);
    if (!s.detail.isEmpty())
        text += u"\n"_qs + s.detail;
    return text;
}

QColor partColor(BreakdownPart part, const QPalette &palette)
{
    return PlotStyle::series(BreakdownParts::colorIndex(part), palette);
}

// Solid for measured parts, hatched for derived ones (the same in the legend).
QBrush partBrush(const QColor &color, PartStatus status)
{
    return status == PartStatus::Derived ? QBrush(color, Qt::BDiagPattern) : QBrush(color);
}

QCustomPlot *newPlot(QWidget *owner, int legendColumns)
{
    auto *plot = new QCustomPlot(owner);
    auto *layout = new QVBoxLayout(owner);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot);
    plot->setAntialiasedElements(QCP::aeAll);
    plot->legend->setVisible(true);
    QFont small = plot->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot->legend->setFont(small);
    PlotSetup::legendBelow(plot, legendColumns);
    plot->yAxis->grid()->setVisible(false);
    PlotSetup::applyPalette(plot, owner->palette());
    plot->installEventFilter(owner);
    plot->setMouseTracking(true);
    return plot;
}

void setTitle(QCustomPlot *plot, const QString &text)
{
    auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0));
    if (!title) {
        plot->plotLayout()->insertRow(0);
        title = new QCPTextElement(plot, text,
                                   QFont(plot->font().family(), plot->font().pointSize(), QFont::Bold));
        title->setTextColor(PlotStyle::foreground(plot->palette()));
        plot->plotLayout()->addElement(0, 0, title);
    }
    title->setText(text);
}

// Category labels on the vertical axis, the first entry at the top.
void setCategoryAxis(QCPAxis *axis, const QStringList &labels)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < labels.size(); ++i)
        ticker->addTick(i, labels[i]);
    axis->setTicker(ticker);
    axis->setRange(-0.6, std::max<double>(0.6, labels.size() - 0.4));
    axis->setRangeReversed(true);
    axis->setSubTicks(false);
}

// Legend entries without data: what solid, hatched and the error bar mean in the waterfall.
void addKeyEntry(QCustomPlot *plot, const QString &name, PartStatus status)
{
    auto *key = new QCPBars(plot->yAxis, plot->xAxis);
    const QColor c = PlotStyle::foreground(plot->palette());
    key->setPen(PlotSetup::cosmeticPen(c));
    key->setBrush(partBrush(c, status));
    key->setName(name);
}

// Whether the event is a tooltip request; shows `text` (or hides the tooltip) and says it was handled.
bool showToolTip(QEvent *event, QWidget *plot, const QString &text)
{
    auto *help = static_cast<QHelpEvent *>(event);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, plot);
    return true;
}

} // namespace

// ---- stacked bars ----

StackedBreakdownPlot::StackedBreakdownPlot(QWidget *parent)
    : QWidget(parent)
    , m_plot(newPlot(this, 3))
{
    setObjectName(u"stackedBreakdown"_qs);
}

void StackedBreakdownPlot::setBars(std::vector<StackedBar> bars, const QString &valueLabel)
{
    m_bars = std::move(bars);
    m_valueLabel = valueLabel;
    if (m_selected >= int(m_bars.size()))
        m_selected = -1;
    redraw();
}

void StackedBreakdownPlot::setSelected(int index)
{
    m_selected = index >= 0 && index < int(m_bars.size()) ? index : -1;
    redraw();
}

void StackedBreakdownPlot::redraw()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    // One QCPBars per part any point has, stacked in BreakdownPart order (legend = the parts drawn).
    std::array<PartStatus, kBreakdownParts> drawn{};
    std::array<bool, kBreakdownParts> present{};
    for (const StackedBar &bar : m_bars)
        for (const BreakdownSegment &s : bar.segments) {
            present[std::size_t(s.part)] = true;
            if (s.status == PartStatus::Derived || drawn[std::size_t(s.part)] == PartStatus::Unknown)
                drawn[std::size_t(s.part)] = s.status;
        }
    QCPBars *below = nullptr;
    for (int p = 0; p < kBreakdownParts; ++p) {
        if (!present[std::size_t(p)])
            continue;
        const auto part = BreakdownPart(p);
        auto *bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        const QColor c = partColor(part, palette());
        bars->setPen(PlotSetup::cosmeticPen(c.darker(130)));
        bars->setBrush(partBrush(c, drawn[std::size_t(p)]));
        bars->setWidth(kBarWidth);
        bars->setName(drawn[std::size_t(p)] == PartStatus::Derived
                          ? tr("%1 (derived remainder)").arg(BreakdownParts::name(part))
                          : BreakdownParts::name(part));
        for (int b = 0; b < int(m_bars.size()); ++b) {
            double ms = 0;
            for (const BreakdownSegment &s : m_bars[std::size_t(b)].segments)
                if (s.part == part)
                    ms = s.ms;
            bars->addData(b, ms);
        }
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    QStringList labels;
    double longest = 0;
    for (const StackedBar &bar : m_bars) {
        labels << bar.label;
        double total = 0;
        for (const BreakdownSegment &s : bar.segments)
            total += s.ms;
        longest = std::max(longest, total);
    }
    setCategoryAxis(m_plot->yAxis, labels);
    m_plot->xAxis->setRange(0, longest > 0 ? longest * 1.05 : 1);
    m_plot->xAxis->setLabel(m_valueLabel);
    m_plot->yAxis->setLabel(tr("load point"));
    setTitle(m_plot, tr("Per load point (click a bar for its requests)"));
    if (m_selected >= 0) {
        // The point the waterfall shows: a frame around its bar.
        double total = 0;
        for (const BreakdownSegment &s : m_bars[std::size_t(m_selected)].segments)
            total += s.ms;
        auto *frame = new QCPItemRect(m_plot);
        frame->topLeft->setCoords(0, m_selected - kBarWidth / 2 - 0.08);
        frame->bottomRight->setCoords(total, m_selected + kBarWidth / 2 + 0.08);
        QPen pen(PlotStyle::foreground(palette()), 2);
        frame->setPen(pen);
        frame->setBrush(Qt::NoBrush);
    }
    m_plot->replot();
}

int StackedBreakdownPlot::barAt(const QPoint &pos) const
{
    const double key = m_plot->yAxis->pixelToCoord(pos.y());
    const int index = int(std::lround(key));
    if (index < 0 || index >= int(m_bars.size()) || std::abs(key - index) > kBarWidth / 2)
        return -1;
    return index;
}

QString StackedBreakdownPlot::toolTipAt(const QPoint &pos) const
{
    const int index = barAt(pos);
    if (index < 0)
        return {};
    const StackedBar &bar = m_bars[std::size_t(index)];
    const double at = m_plot->xAxis->pixelToCoord(pos.x());
    double start = 0;
    for (const BreakdownSegment &s : bar.segments) {
        if (at >= start && at < start + s.ms)
            return bar.label + u" — "_qs + segmentToolTip(s);
        start += s.ms;
    }
    return {};
}

bool StackedBreakdownPlot::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::ToolTip)
        return showToolTip(event, m_plot, toolTipAt(static_cast<QHelpEvent *>(event)->pos()));
    if (watched == m_plot && event->type() == QEvent::MouseButtonPress) {
        const int index = barAt(static_cast<QMouseEvent *>(event)->position().toPoint());
        if (index >= 0)
            emit barClicked(index);
    }
    return QWidget::eventFilter(watched, event);
}

bool StackedBreakdownPlot::render(QPaintDevice &device, const QSize &size)
{
    // toPainter lays the plot out at `size` for this drawing only: the widget on screen keeps its size.
    QCPPainter painter;
    if (!painter.begin(&device))
        return false;
    m_plot->toPainter(&painter, size.width(), size.height());
    return painter.end();
}

// ---- waterfall ----

WaterfallPlot::WaterfallPlot(QWidget *parent)
    : QWidget(parent)
    , m_plot(newPlot(this, 3))
{
    setObjectName(u"waterfall"_qs);
    m_plot->legend->setVisible(false);
}

void WaterfallPlot::clear(const QString &message)
{
    m_rows.clear();
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_plot->legend->setVisible(false);
    setTitle(m_plot, message);
    m_plot->replot();
}

void WaterfallPlot::setRows(std::vector<WaterfallRow> rows, const QString &title)
{
    m_rows = std::move(rows);
    m_plot->clearPlottables();
    m_plot->clearItems();
    setTitle(m_plot, title);
    addKeyEntry(m_plot, tr("measured"), PartStatus::Measured);
    addKeyEntry(m_plot, tr("derived (remainder)"), PartStatus::Derived);
    auto *boundKey = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
    boundKey->setPen(QPen(PlotStyle::foreground(palette()), 1.5));
    boundKey->setName(tr("|—| ± clock bound (aligned clocks)"));
    m_plot->legend->setVisible(true);
    QStringList labels;
    double end = 0;
    const QColor fg = PlotStyle::foreground(palette());
    for (int i = 0; i < int(m_rows.size()); ++i) {
        const WaterfallRow &row = m_rows[std::size_t(i)];
        const BreakdownSegment &s = row.segment;
        labels << BreakdownParts::name(s.part);
        double labelAt = row.startMs;
        if (known(s.ms)) {
            auto *rect = new QCPItemRect(m_plot);
            rect->topLeft->setCoords(row.startMs, i - kRowHeight / 2);
            rect->bottomRight->setCoords(row.startMs + s.ms, i + kRowHeight / 2);
            const QColor c = partColor(s.part, palette());
            rect->setPen(PlotSetup::cosmeticPen(c.darker(130)));
            rect->setBrush(partBrush(c, s.status));
            labelAt = row.startMs + s.ms;
            if (s.aligned && known(s.boundMs)) {
                auto *bound = new QCPItemLine(m_plot);
                bound->start->setCoords(labelAt - s.boundMs, i);
                bound->end->setCoords(labelAt + s.boundMs, i);
                bound->setHead(QCPLineEnding(QCPLineEnding::esBar, 8));
                bound->setTail(QCPLineEnding(QCPLineEnding::esBar, 8));
                bound->setPen(QPen(fg, 1.5));
                labelAt += s.boundMs;
            }
            end = std::max(end, labelAt);
        }
        auto *label = new QCPItemText(m_plot);
        label->position->setCoords(labelAt, i);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setPadding(QMargins(4, 0, 0, 0));
        label->setText(valueText(s));
        label->setColor(known(s.ms) ? fg : PlotStyle::grid(palette()).darker(150));
        label->setClipToAxisRect(false);
    }
    setCategoryAxis(m_plot->yAxis, labels);
    // Room on the right for the last value label.
    m_plot->xAxis->setRange(0, end > 0 ? end * 1.18 : 1);
    m_plot->xAxis->setLabel(tr("ms since the request was scheduled"));
    m_plot->replot();
}

int WaterfallPlot::rowAt(const QPoint &pos) const
{
    const double key = m_plot->yAxis->pixelToCoord(pos.y());
    const int index = int(std::lround(key));
    if (index < 0 || index >= int(m_rows.size()) || std::abs(key - index) > kRowHeight / 2)
        return -1;
    return index;
}

QString WaterfallPlot::toolTipAt(const QPoint &pos) const
{
    const int index = rowAt(pos);
    if (index < 0)
        return {};
    const WaterfallRow &row = m_rows[std::size_t(index)];
    return segmentToolTip(row.segment) + u"\n"_qs +
           tr("starts %1 ms after the request was scheduled").arg(msText(row.startMs));
}

bool WaterfallPlot::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::ToolTip)
        return showToolTip(event, m_plot, toolTipAt(static_cast<QHelpEvent *>(event)->pos()));
    return QWidget::eventFilter(watched, event);
}

bool WaterfallPlot::render(QPaintDevice &device, const QSize &size)
{
    // toPainter lays the plot out at `size` for this drawing only: the widget on screen keeps its size.
    QCPPainter painter;
    if (!painter.begin(&device))
        return false;
    m_plot->toPainter(&painter, size.width(), size.height());
    return painter.end();
}

} // namespace Throughline
