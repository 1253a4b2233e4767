#pragma once
// One cell of the expanded matrix: model × backend × deployment × phase, with everything resolved.

#include "core/campaign/backendpreset.h"
#include "core/campaign/deployment.h"
#include "core/campaign/endpoint.h"
#include "core/campaign/gpuspec.h"
#include "core/campaign/loadplan.h"
#include "core/campaign/modelspec.h"
#include "core/campaign/phase.h"
#include "core/campaign/slo.h"

#include <string>

namespace Throughline {

struct Scenario {
    std::string id; // model/backend/gpu×count/phase, e.g. "gpt-oss-120b/vllm/H200×1/Chat"
    ModelSpec model;
    BackendPreset backend;
    GpuSpec gpu;
    Deployment deployment;
    Phase phase;
    Endpoint endpoint;
    LoadPlan plan;
    Slo slo;
    int recipeConcurrency = 0; // designated point for slo targets; 0 = the last point

    bool operator==(const Scenario &) const = default;
};

} // namespace Throughline
