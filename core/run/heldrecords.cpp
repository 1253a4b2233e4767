#include "core/run/heldrecords.h"

namespace Throughline {

void releaseRecordsHeldElsewhere(ScenarioOutcome &so,
                                 const std::function<bool(int scenarioIndex, int pointIndex)> &heldElsewhere)
{
    for (PointOutcome &po : so.points)
        if (!po.records.empty() && heldElsewhere(so.scenarioIndex, po.pointIndex))
            po.leaveRecordsToHistory();
}

} // namespace Throughline
