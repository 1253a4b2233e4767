#pragma once
// The one rule for a point of the throughput-vs-interactivity curve, shared by the run monitor (CurvePlot)
// and History (RunComparison's overlay, the run-detail curve): x = output tokens/s per GPU (total tokens/s
// when the GPU count is unknown, e.g. imported files), y = 1000 / TPOT p90. A load point not valid for a
// verdict is still drawn — hollow, the reason its validity flags; when TPOT p90 is not reportable (too few
// requests) the point sits at TPOT mean, hollow, and the reason says so. Only a point without any TPOT or
// throughput is left out. Any thread.

#include "core/metrics/pointresult.h"
#include "ui/plots/chart.h"

#include <optional>

namespace Throughline::CurveRule {

std::optional<ChartPoint> point(const PointResult &p);
// Appended to a series name when some of its points are hollow, so the legend explains them.
QString hollowLegendNote();
// Series name with the note when the series has a hollow point.
QString legendName(const QString &name, const QList<ChartPoint> &points);

} // namespace Throughline::CurveRule
