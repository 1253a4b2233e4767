#include "core/results/baselinerows.h"

#include "core/targets/verdict.h"

namespace Throughline {

int baselineOperatingPoint(const ScenarioResult &s)
{
    if (s.verdict.operatingPoint >= 0 && s.verdict.operatingPoint < int(s.points.size()))
        return s.verdict.operatingPoint;
    int op = -1;
    for (int i = 0; i < int(s.points.size()); ++i)
        if (s.points[std::size_t(i)].validity.valid &&
            (op < 0 || s.points[std::size_t(i)].metrics.outputTpsPerGpu >
                           s.points[std::size_t(op)].metrics.outputTpsPerGpu))
            op = i;
    return op;
}

std::vector<TargetRow> baselineRowsOfRun(const RunResults &baseline)
{
    std::vector<TargetRow> out;
    for (const ScenarioResult &s : baseline.scenarios) {
        const int op = baselineOperatingPoint(s);
        if (op < 0)
            continue;
        for (TargetRow row : baselineRowsFromPoint(s.points[std::size_t(op)],
                                                   "run " + baseline.runId.substr(0, 8) + " " + s.id)) {
            row.model = s.model;
            row.backend = s.backend;
            row.gpu = s.gpu;
            row.gpus = s.gpus;
            row.phase = s.phase;
            out.push_back(std::move(row));
        }
    }
    return out;
}

} // namespace Throughline
