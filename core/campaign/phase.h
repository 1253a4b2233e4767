#pragma once
// A workload phase: input/output sequence lengths and how they vary per request.

#include "core/campaign/workload.h"

#include <string>

namespace Throughline {

// Token-length distribution. Fixed uses the phase's nominal value; the others draw per request
// (deterministically from the load plan's seed) and clamp to [min, max].
struct LengthDist {
    enum class Kind { Fixed, Uniform, Normal };
    Kind kind = Kind::Fixed;
    double mean = 0; // Normal only (0 = the phase's nominal length)
    double std = 0;  // Normal only
    int min = 0;     // Uniform and Normal
    int max = 0;     // Uniform and Normal

    bool operator==(const LengthDist &) const = default;
};

struct Phase {
    std::string name; // "Chat", "Reasoning", … or a custom name
    int isl = 0;      // nominal input tokens
    int osl = 0;      // nominal output tokens
    LengthDist islDist;
    LengthDist oslDist;
    Workload workload; // where requests come from (default synthetic); docs/workloads.md

    bool operator==(const Phase &) const = default;
};

} // namespace Throughline
