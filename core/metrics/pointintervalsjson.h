#pragma once
// The point object's "intervals" extension (results schema /3):
//   "intervals": {"level": 0.95,
//                 "metrics": {"ttft_ms": {"p90": {"lower": 310.2, "upper": 402.7, "method":
//                 "order_statistic"}},
//                             "output_tps": {"value": {"lower": 1510.0, "upper": 1622.4,
//                                                      "method": "block_bootstrap"}}}}
// A side the sample could not bound is null. The estimate is not repeated: it is the metric's own value.
// Order-statistic intervals add "effective_n" (n / τ, the sample size their ranks were computed for).

#include "core/metrics/pointresult.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

namespace Throughline {

nlohmann::json pointIntervalsToJson(const PointIntervals &intervals);
// "intervals_across" (results /4): the same shape, each interval with its "estimate" (the mean over the
// repeats, not the point's own value) and "repeats" (how many). Written for readers; never read back — it
// is recomputed from the repeats' points (core/metrics/repeatgroups.h).
nlohmann::json acrossRepeatIntervalsToJson(const PointIntervals &intervals);
// Errors name the field: "intervals.metrics.ttft_ms.p90.lower: not a number".
Result<PointIntervals> pointIntervalsFromJson(const nlohmann::json &j);

} // namespace Throughline
