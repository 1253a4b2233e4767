#pragma once
// How a load point is named wherever one is shown: "C=16" (concurrency) or "λ=5/s" (rate): the live run
// monitor, comparisons (compare, run --baseline).

#include "core/metrics/pointresult.h"

#include <string>

namespace Throughline {

std::string pointLoadLabel(const PointLoad &load);

} // namespace Throughline
