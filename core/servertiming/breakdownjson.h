#pragma once
// One request's breakdown as stored (the history's request_breakdowns rows, bundles): compact, because a
// point may hold a million of them. {"seq": 12, "ms": [11 part values in BreakdownPart order, null =
// unknown], "status": one letter per part ("m" measured, "d" derived, "u" unknown; upper case = aligned
// across the two clocks), "bound_ms": the alignment's ± (absent when no part is aligned), "problem": why the
// server's timing was missing (absent when none)}. Pure functions.

#include "core/servertiming/requestbreakdown.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

namespace Throughline {

nlohmann::json breakdownToJson(const RequestBreakdown &breakdown);
// Errors name the field ("request breakdown: `ms`: expected 11 numbers").
Result<RequestBreakdown> breakdownFromJson(const nlohmann::json &j);

} // namespace Throughline
