#pragma once
// Test support: a SimLauncher that starts throughline-sim (THROUGHLINE_SIM_EXE, defined by the test's
// CMake target) as a child process per scenario, so the simulator's threads and shutdown stay out of the
// test process. Optional ground-truth JSONL path and fault spec (see core/sim/faultspec.h).

#include "core/run/runcontroller.h"
#include "core/sim/simprocess.h"

#include <QString>

#include <memory>
#include <string>

namespace Throughline {

inline SimLauncher simChildLauncher(const QString &truthPath = {}, const std::string &faults = {},
                                    std::uint64_t seed = 3)
{
    return [truthPath, faults, seed](const Scenario &sc, int) -> Result<SimulatedEndpoint> {
        SimulatorOptions so = sc.endpoint.sim;
        so.faults = faults;
        so.seed = seed;
        auto args = SimProcess::argumentsFor(sc.model.name, sc.gpu.name, sc.deployment.gpus,
                                             sc.deployment.precision, so);
        if (!truthPath.isEmpty())
            args.insert(args.end(), {"--ground-truth", truthPath.toStdString()});
        auto proc = std::make_shared<SimProcess>();
        auto port = proc->start(THROUGHLINE_SIM_EXE, args);
        if (!port)
            return port.error();
        SimulatedEndpoint e;
        e.baseUrl = proc->baseUrl();
        e.timeScale = so.timeScale;
        e.owner = proc;
        return e;
    };
}

} // namespace Throughline
