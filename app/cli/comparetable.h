#pragma once
// The table of a run comparison (compare, run --baseline): per metric and shared point the baseline and
// candidate values with their intervals, the change with its interval and the outcome, then the overall one.

#include "core/results/runcomparison.h"

#include <QString>

#include <cstdio>

namespace Throughline::Cli {

void printComparison(std::FILE *out, const NoiseAwareComparison &c, const QString &baseline,
                     const QString &candidate);

} // namespace Throughline::Cli
