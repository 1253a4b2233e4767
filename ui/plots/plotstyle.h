#pragma once
// Colours and pens for plots, derived from the application palette so Light/Dark/System all read
// well. Series colours are a fixed qualitative set (Okabe–Ito, colour-blind safe) brightened on
// dark backgrounds. No QCustomPlot here: usable from any ui file. GUI thread.

#include <QColor>
#include <QPalette>

namespace Throughline::PlotStyle {

QColor background(const QPalette &palette);
QColor foreground(const QPalette &palette);
QColor grid(const QPalette &palette);
QColor series(int index, const QPalette &palette);
QColor target(const QPalette &palette);

} // namespace Throughline::PlotStyle
