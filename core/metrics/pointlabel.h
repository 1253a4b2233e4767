#pragma once
// How a load point is named wherever one is shown: "C=16" (concurrency) or "λ=5/s" (rate), "C=16 · repeat 2"
// for the second run of a repeated load: the live run monitor, comparisons (compare, run --baseline).

#include "core/metrics/pointresult.h"

#include <string>

namespace Throughline {

std::string pointLoadLabel(const PointLoad &load);
// " · repeat 2" for repeat 2 of a repeated load, empty for a load run once: the suffix of every repeat's
// name.
std::string repeatSuffix(int repeat);
// The load without its repeat index ("C=16"): how a repeated load is named as a whole.
std::string pointLoadLabelOfRepeats(const PointLoad &load);

} // namespace Throughline
