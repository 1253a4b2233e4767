#pragma once
// Per-GPU facts, from resources/catalog/gpus.csv (or a custom entry in a campaign).

#include <string>
#include <vector>

namespace Throughline {

struct GpuSpec {
    std::string name;                 // canonical: H100, H200, B200, GB200, GB300
    std::vector<std::string> aliases; // e.g. H100-SXM
    double hbmGb = 0;
    double hbmTbPerS = 0;
    double bf16DenseTflops = 0;
    double fp8DenseTflops = 0;
    double fp4DenseTflops = 0; // 0 = no FP4 tensor cores (Hopper)
    double nvlinkGbPerS = 0;
    double tdpW = 0;
    std::string source;

    bool operator==(const GpuSpec &) const = default;
};

} // namespace Throughline
