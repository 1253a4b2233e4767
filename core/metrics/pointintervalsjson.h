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
// Errors name the field: "intervals.metrics.ttft_ms.p90.lower: not a number".
Result<PointIntervals> pointIntervalsFromJson(const nlohmann::json &j);

} // namespace Throughline
