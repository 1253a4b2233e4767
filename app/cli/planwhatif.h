#pragma once
// `plan --what-if 'model=M,gpu=G,gpus=N[,precision=P][,isl=I,osl=O][,concurrency=4;16;64]'`: wires the
// simulator's what-if curve (core/sim/whatifcurve.h) to the planner (core/capacity/whatif.h) — calibrated on
// the measured deployments of the same model where the plan has any, else with the simulator's held-out
// band — so an unmeasured deployment is ranked next to the measured ones, labelled simulated with its band.

#include "core/capacity/planner.h"

#include <QString>

#include <vector>

namespace Throughline::Cli {

Result<Capacity::DeploymentCurve> whatIfDeployment(const QString &spec,
                                                   const std::vector<Capacity::DeploymentCurve> &measured);

} // namespace Throughline::Cli
