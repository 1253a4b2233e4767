#include "core/run/heldrecords.h"

namespace Throughline {

int releaseRecordsHeldElsewhere(ScenarioOutcome &so,
                                const std::function<bool(int scenarioIndex, int pointIndex)> &heldElsewhere)
{
    int released = 0;
    for (PointOutcome &po : so.points)
        if (!po.records.empty() && heldElsewhere(so.scenarioIndex, po.pointIndex)) {
            po.leaveRecordsToHistory();
            ++released;
        }
    return released;
}

} // namespace Throughline
