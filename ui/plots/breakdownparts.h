#pragma once
// How the parts of a request's breakdown (core/servertiming/requestbreakdown.h) are named and coloured
// wherever the app shows them — the History page's waterfall and stacked bars, the report's section —
// so one part reads the same everywhere. Translated; any thread.

#include "core/servertiming/requestbreakdown.h"

#include <QCoreApplication>
#include <QString>

namespace Throughline {

class BreakdownParts
{
    Q_DECLARE_TR_FUNCTIONS(Throughline::BreakdownParts)
public:
    static QString name(BreakdownPart part);      // "server queue"
    static QString statusName(PartStatus status); // "measured", "derived", "unknown"
    // The palette index of a part (PlotStyle::series): a part keeps its colour in every chart; client-side
    // parts grey and sky blue, the network yellow, the server's parts the strong colours; no two parts
    // next to each other in a stack share one.
    static int colorIndex(BreakdownPart part);
};

} // namespace Throughline
