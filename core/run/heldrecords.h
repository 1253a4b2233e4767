#pragma once
// Letting go of raw records another store already holds (RunOptions::recordsHeldElsewhere): one rule for the
// controller, between points, and for CampaignRun, after the history's final flush.

#include "core/run/runcontroller.h"

#include <functional>

namespace Throughline {

// Every point of `so` that still holds raw records and for which heldElsewhere(scenario index, point index)
// is true leaves them to the history (PointOutcome::leaveRecordsToHistory). Returns how many points did.
int releaseRecordsHeldElsewhere(ScenarioOutcome &so,
                                const std::function<bool(int scenarioIndex, int pointIndex)> &heldElsewhere);

} // namespace Throughline
