#pragma once
// Where the model runs: GPU type × count × parallelism × precision, or prefill/decode pools.

#include <string>

namespace Throughline {

struct Deployment {
    std::string gpu;               // GpuSpec name (aliases are resolved on load)
    int gpus = 1;                  // GPUs per replica; for disaggregated = prefillGpus + decodeGpus
    std::string parallelism;       // free label: TP2, DEP4, …
    std::string precision = "FP8"; // BF16, FP8, FP4
    int replicas = 1;
    int prefillGpus = 0; // > 0 marks a disaggregated deployment
    int decodeGpus = 0;

    bool disaggregated() const { return prefillGpus > 0 && decodeGpus > 0; }
    int totalGpus() const { return gpus * replicas; }
    bool operator==(const Deployment &) const = default;
};

} // namespace Throughline
