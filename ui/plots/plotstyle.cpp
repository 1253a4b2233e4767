#include "ui/plots/plotstyle.h"

namespace Throughline::PlotStyle {

namespace {
bool dark(const QPalette &p)
{
    return p.color(QPalette::Window).lightness() < 128;
}
} // namespace

QColor background(const QPalette &p)
{
    return p.color(QPalette::Base);
}

QColor foreground(const QPalette &p)
{
    return p.color(QPalette::Text);
}

QColor grid(const QPalette &p)
{
    QColor c = p.color(QPalette::Text);
    c.setAlpha(255);
    return dark(p) ? c.darker(260) : c.lighter(330);
}

QColor series(int index, const QPalette &p)
{
    static const QColor base[] = {QColor(0, 114, 178),   QColor(230, 159, 0),  QColor(0, 158, 115),
                                  QColor(204, 121, 167), QColor(86, 180, 233), QColor(213, 94, 0),
                                  QColor(240, 228, 66),  QColor(120, 120, 120)};
    const QColor c = base[index % 8];
    return dark(p) ? c.lighter(130) : c;
}

QColor target(const QPalette &p)
{
    return dark(p) ? QColor(255, 110, 110) : QColor(200, 30, 30);
}

} // namespace Throughline::PlotStyle
