#pragma once
// Analytic performance model of one LLM deployment (ARCHITECTURE.md, "The simulated endpoint").
// Pure C++, no event loop: the simulated server drives its discrete-event scheduler with these step
// times, and the calibration compares saturatedThroughputPerGpu() against published numbers.
// All times in seconds, sizes in bytes, rates in FLOP/s or bytes/s. Thread-safe (const after construction).

#include "core/campaign/gpuspec.h"
#include "core/campaign/modelspec.h"
#include "core/util/result.h"

#include <limits>
#include <string>
#include <string_view>

namespace Throughline {

// The global constants of the model (at most 8; no per-model, per-GPU or per-row factors).
// Defaults are the calibration against trtllm_perf_overview.csv (docs/simulator.md).
struct PerfConstants {
    double etaBw = 0.65;           // achieved fraction of HBM bandwidth in decode
    double etaFlops = 0.35;        // achieved fraction of dense tensor FLOP/s in decode
    double etaPrefill = 0.60;      // achieved fraction of dense tensor FLOP/s in prefill
    double stepOverheadS = 0.006;  // a: fixed cost of one decode step (launch, sampling, scheduling)
    double perSeqOverheadS = 9e-6; // b: cost per sequence per GPU in one step
    int maxSeqsPerGpu = 2048;      // scheduler cap on running sequences per GPU
    double moePenalty = 3.75;      // MoE compute inefficiency: P_act' = penalty × P_act
    double kvMemFraction = 0.9;    // share of HBM usable for weights + KV cache

    bool operator==(const PerfConstants &) const = default;
};

enum class Precision { Bf16, Fp8, Fp4 };

// "BF16", "FP8", "FP4" (case-insensitive; "MXFP4"/"NVFP4" map to FP4).
Result<Precision> parsePrecision(std::string_view text);
const char *precisionName(Precision p);

// Analytic numbers of one operating point.
struct OperatingPoint {
    int isl = 0;
    int osl = 0;
    int batch = 0;           // B
    double avgContext = 0;   // c = ISL + OSL/2
    double decodeStepS = 0;  // t_step at B
    double memTimeS = 0;     // t_mem
    double computeTimeS = 0; // t_cmp
    double prefillS = 0;     // t_pf of one request
    double outputTokPerSPerGpu = 0;
    double outputTokPerS = 0; // whole deployment
    double requestsPerS = 0;  // completed requests per second
};

class PerformanceModel
{
public:
    PerformanceModel(ModelSpec model, GpuSpec gpu, int gpus, Precision precision,
                     PerfConstants constants = {});

    const ModelSpec &model() const { return m_model; }
    const GpuSpec &gpu() const { return m_gpu; }
    int gpus() const { return m_gpus; }
    Precision precision() const { return m_precision; }
    const PerfConstants &constants() const { return m_c; }

    // --- Facts derived from the catalog (per GPU unless named otherwise) ---
    double tensorFlopsPerGpu() const;           // PF: dense FLOP/s at the deployment's compute precision
    double weightBytes() const;                 // W: all weights of the model
    double kvBytesPerElement() const;           // 1 for FP8/FP4 deployments, else 2
    double kvBytesPerToken() const;             // kv_tok
    double attentionFlopsPerCtxToken() const;   // A
    double routedShare() const;                 // f: share of weights in routed experts (0 for dense)
    double effectiveActiveParams() const;       // P_act' (= penalty × P_act for MoE)
    double weightReadBytes(double batch) const; // W_read for a decode step of `batch` sequences
    double kvCapacityTokens() const;            // (N·HBM·kvMemFraction − W) / kv_tok, ≥ 0
    int maxSeqs() const { return m_c.maxSeqsPerGpu * m_gpus; }

    // --- Timing ---
    // B = min(concurrency, ⌊KV capacity / (ISL + OSL)⌋, max_seqs_per_gpu·N).
    int batchSize(int isl, int osl, int concurrency = std::numeric_limits<int>::max()) const;
    // One decode step of `batch` sequences with average context `avgContext` tokens.
    double decodeStepS(double batch, double avgContext) const;
    double decodeMemS(double batch, double avgContext) const;
    double decodeComputeS(double batch, double avgContext) const;
    // Prefill of one whole prompt (t_pf).
    double prefillS(int isl) const;
    // Prefill of prompt tokens [start, start + count): the pieces of a chunked prefill add up to prefillS.
    double prefillChunkS(int start, int count) const;
    // Disaggregated serving: moving the KV cache of `tokens` prompt tokens over NVLink (one GPU's link).
    double kvTransferS(int tokens) const;
    // Saturated operating point (or the point at a given concurrency), prefill not overlapped with decode.
    OperatingPoint operatingPoint(int isl, int osl, int concurrency = std::numeric_limits<int>::max()) const;
    double saturatedThroughputPerGpu(int isl, int osl) const
    {
        return operatingPoint(isl, osl).outputTokPerSPerGpu;
    }

private:
    ModelSpec m_model;
    GpuSpec m_gpu;
    int m_gpus = 1;
    Precision m_precision = Precision::Fp8;
    PerfConstants m_c;
};

} // namespace Throughline
