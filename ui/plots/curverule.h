#pragma once
// The one rule for a point of the throughput-vs-interactivity curve, shared by the run monitor (CurvePlot)
// and History (RunComparison's overlay, the run-detail curve): x = output tokens/s per GPU (total tokens/s
// when the GPU count is unknown, e.g. imported files), y = 1000 / TPOT p90. A load point not valid for a
// verdict is still drawn — hollow, the reason its validity flags; when TPOT p90 is not reportable (too few
// requests) the point sits at TPOT mean, hollow, and the reason says so. Only a point without any TPOT or
// throughput is left out. Error bars on both axes are the point's stored intervals (results.json
// "intervals": the block bootstrap of the throughput, TPOT's order-statistic bounds mapped through
// 1000 / TPOT); a point without them has none. Any thread.

#include "core/metrics/pointresult.h"
#include "ui/plots/chart.h"

#include <optional>
#include <string_view>

namespace Throughline::CurveRule {

std::optional<ChartPoint> point(const PointResult &p);
// The stored interval of a statistic as an error bar (open sides infinite); nullopt without one.
std::optional<ChartInterval> errorBar(const PointResult &p, std::string_view metric, std::string_view stat);
// The error bar of 1000 / TPOT at a stat ("p90", "mean"): TPOT's interval reciprocated, so TPOT's open upper
// bound is the open lower end.
std::optional<ChartInterval> perUserErrorBar(const PointResult &p, std::string_view stat);
// The same for 1000 / any per-token latency (MLPerf's tpot_mlperf_ms).
std::optional<ChartInterval> reciprocalErrorBar(const PointResult &p, std::string_view metric,
                                                std::string_view stat);
// "95 % interval 410.2–433.9" (an open end reads "open") for a tooltip; "no interval" without one.
QString intervalText(const std::optional<ChartInterval> &interval, double level, int decimals);
// Appended to a series name when some of its points are hollow, so the legend explains them.
QString hollowLegendNote();
// Series name with the note when the series has a hollow point.
QString legendName(const QString &name, const QList<ChartPoint> &points);

} // namespace Throughline::CurveRule
