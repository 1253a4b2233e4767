#pragma once
// One request's intended ISL or OSL drawn from a phase's length distribution (fixed, uniform, normal with
// optional bounds); never below 1. The caller seeds rng per request so a run is reproducible.

#include "core/campaign/phase.h"

#include <random>

namespace Throughline {

int drawLength(const LengthDist &d, int nominal, std::mt19937_64 &rng);

} // namespace Throughline
