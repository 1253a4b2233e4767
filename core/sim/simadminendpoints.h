#pragma once
// Bodies of the simulated endpoint's non-generation GET endpoints: /health and /ready (liveness, time scale,
// model) and /v1/models (the served model, as vLLM lists it). /metrics is SimMetrics::render.

#include <string>

namespace Throughline::SimDetail {

struct ServerCore;

std::string healthBody(const ServerCore &core);
std::string modelsBody(const ServerCore &core);

} // namespace Throughline::SimDetail
