#pragma once
// The only way to include QCustomPlot. QCustomPlot 2.1 uses `foreach` in inline code, which the
// project-wide QT_NO_FOREACH forbids, so this wrapper lifts it for qcustomplot.h alone.
// Include first, only from ui/plots/*.cpp (and tests that inspect a plot's layout).

#ifdef QT_NO_FOREACH
#undef QT_NO_FOREACH
#endif
#include <qcustomplot.h>
