#include "core/sim/performancemodel.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace Throughline {

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// DeepSeek-V3 MLA: the latent (kv_lora) plus the decoupled RoPE key make up kv_elems_per_token / layers;
// the RoPE part is 64 wide (qk_rope_head_dim). An architecture fact of MLA, not a fitted factor.
constexpr double kMlaRopeDim = 64;
} // namespace

Result<Precision> parsePrecision(std::string_view text)
{
    std::string s(text);
    for (auto &ch : s)
        ch = char(std::toupper(static_cast<unsigned char>(ch)));
    if (s == "BF16" || s == "FP16")
        return Precision::Bf16;
    if (s == "FP8")
        return Precision::Fp8;
    if (s == "FP4" || s == "NVFP4" || s == "MXFP4")
        return Precision::Fp4;
    return makeError(ErrorCode::InvalidInput,
                     "unknown precision \"" + std::string(text) + "\" (expected BF16, FP8 or FP4)");
}

const char *precisionName(Precision p)
{
    switch (p) {
    case Precision::Bf16:
        return "BF16";
    case Precision::Fp8:
        return "FP8";
    case Precision::Fp4:
        return "FP4";
    }
    return "FP8";
}

PerformanceModel::PerformanceModel(ModelSpec model, GpuSpec gpu, int gpus, Precision precision,
                                   PerfConstants constants)
    : m_model(std::move(model))
    , m_gpu(std::move(gpu))
    , m_gpus(std::max(1, gpus))
    , m_precision(precision)
    , m_c(constants)
{
}

double PerformanceModel::tensorFlopsPerGpu() const
{
    const bool hasFp4 = m_gpu.fp4DenseTflops > 0;
    // A checkpoint that is natively 4-bit (no larger FP8 variant: weights_fp8_gib <= weights_fp4_gib, e.g.
    // gpt-oss MXFP4) runs on GPUs without FP4 tensor cores as W4A16, i.e. at the BF16 rate.
    const bool native4Bit = m_model.weightsFp4Gib > 0 && m_model.weightsFp8Gib <= m_model.weightsFp4Gib;
    double tflops = m_gpu.fp8DenseTflops;
    switch (m_precision) {
    case Precision::Bf16:
        tflops = m_gpu.bf16DenseTflops;
        break;
    case Precision::Fp8:
        tflops = m_gpu.fp8DenseTflops;
        break;
    case Precision::Fp4:
        tflops = hasFp4 ? m_gpu.fp4DenseTflops : m_gpu.fp8DenseTflops;
        break; // Hopper: FP8 rate
    }
    if (native4Bit && !hasFp4)
        tflops = m_gpu.bf16DenseTflops;
    return tflops * 1e12;
}

double PerformanceModel::weightBytes() const
{
    switch (m_precision) {
    case Precision::Fp4:
        return m_model.weightsFp4Gib * kGiB;
    case Precision::Fp8:
        return m_model.weightsFp8Gib * kGiB;
    case Precision::Bf16:
        return m_model.totalParamsB * 1e9 * 2.0;
    }
    return m_model.weightsFp8Gib * kGiB;
}

double PerformanceModel::kvBytesPerElement() const
{
    return m_precision == Precision::Bf16 ? 2.0 : 1.0;
}

double PerformanceModel::kvBytesPerToken() const
{
    return m_model.kvElemsPerToken * kvBytesPerElement();
}

double PerformanceModel::attentionFlopsPerCtxToken() const
{
    const double L = m_model.layers;
    const double nq = m_model.qHeads;
    if (m_model.attention == ModelSpec::Attention::Mla) {
        // L·2·n_q·(kv_lora + rope + kv_lora): scores over the 576-wide latent+rope, values over the 512
        // latent.
        const double latentPlusRope = L > 0 ? m_model.kvElemsPerToken / L : 0;
        const double kvLora = latentPlusRope - kMlaRopeDim;
        return L * 2.0 * nq * (latentPlusRope + kvLora);
    }
    // GQA: 4·L·n_q·d_head; sliding-window layers (gpt-oss) attend over 128 tokens only and are left out.
    const double fullLayers = m_model.slidingWindowHalf ? L / 2.0 : L;
    return 4.0 * fullLayers * nq * m_model.headDim;
}

double PerformanceModel::routedShare() const
{
    if (!m_model.isMoe() || m_model.totalParamsB <= 0 || m_model.experts <= 0)
        return 0.0;
    // active = total·(1−f) + total·f·k/E  ⇒  f = (1 − active/total) / (1 − k/E)
    const double kOverE = double(m_model.topK) / double(m_model.experts);
    if (kOverE >= 1.0)
        return 0.0;
    return std::clamp((1.0 - m_model.activeParamsB / m_model.totalParamsB) / (1.0 - kOverE), 0.0, 1.0);
}

double PerformanceModel::effectiveActiveParams() const
{
    const double p = m_model.activeParamsB * 1e9;
    return m_model.isMoe() ? m_c.moePenalty * p : p;
}

double PerformanceModel::weightReadBytes(double batch) const
{
    const double w = weightBytes();
    if (!m_model.isMoe())
        return w;
    const double f = routedShare();
    const double kOverE = double(m_model.topK) / double(m_model.experts);
    // Expected share of experts touched by at least one of B tokens.
    const double touched = 1.0 - std::pow(1.0 - kOverE, std::max(0.0, batch));
    return w * ((1.0 - f) + f * touched);
}

double PerformanceModel::kvCapacityTokens() const
{
    const double usable = m_gpus * m_gpu.hbmGb * 1e9 * m_c.kvMemFraction - weightBytes();
    const double kv = kvBytesPerToken();
    if (usable <= 0 || kv <= 0)
        return 0.0;
    return usable / kv;
}

int PerformanceModel::batchSize(int isl, int osl, int concurrency) const
{
    const double perSeq = double(std::max(1, isl + osl));
    const double kvLimit = std::floor(kvCapacityTokens() / perSeq);
    double b = std::min<double>(concurrency, kvLimit);
    b = std::min<double>(b, maxSeqs());
    return int(std::max(0.0, b));
}

double PerformanceModel::decodeMemS(double batch, double avgContext) const
{
    return (weightReadBytes(batch) + batch * kvBytesPerToken() * avgContext) /
           (m_gpus * m_gpu.hbmTbPerS * 1e12 * m_c.etaBw);
}

double PerformanceModel::decodeComputeS(double batch, double avgContext) const
{
    return batch * (2.0 * effectiveActiveParams() + attentionFlopsPerCtxToken() * avgContext) /
           (m_gpus * tensorFlopsPerGpu() * m_c.etaFlops);
}

double PerformanceModel::decodeStepS(double batch, double avgContext) const
{
    if (batch <= 0)
        return 0.0;
    return std::max(decodeMemS(batch, avgContext), decodeComputeS(batch, avgContext)) + m_c.stepOverheadS +
           m_c.perSeqOverheadS * batch / m_gpus;
}

double PerformanceModel::prefillS(int isl) const
{
    return prefillChunkS(0, isl);
}

double PerformanceModel::prefillChunkS(int start, int count) const
{
    if (count <= 0)
        return 0.0;
    // Σ over tokens i in [start, start+count) of (2·P_act' + A·i) ≈ count·(2·P_act' + A·(start + count/2));
    // for start = 0, count = ISL this is ISL·(2·P_act' + A·ISL/2), the t_pf of the architecture.
    const double flops =
        count * (2.0 * effectiveActiveParams() + attentionFlopsPerCtxToken() * (start + count / 2.0));
    return flops / (m_gpus * tensorFlopsPerGpu() * m_c.etaPrefill);
}

double PerformanceModel::kvTransferS(int tokens) const
{
    const double bw = m_gpu.nvlinkGbPerS > 0 ? m_gpu.nvlinkGbPerS * 1e9 : 50e9;
    return tokens * kvBytesPerToken() / bw;
}

OperatingPoint PerformanceModel::operatingPoint(int isl, int osl, int concurrency) const
{
    OperatingPoint p;
    p.isl = isl;
    p.osl = osl;
    p.batch = batchSize(isl, osl, concurrency);
    p.avgContext = isl + osl / 2.0;
    p.memTimeS = decodeMemS(p.batch, p.avgContext);
    p.computeTimeS = decodeComputeS(p.batch, p.avgContext);
    p.decodeStepS = decodeStepS(p.batch, p.avgContext);
    p.prefillS = prefillS(isl);
    if (p.batch <= 0 || osl <= 0)
        return p;
    const double cycleS = p.batch * p.prefillS + osl * p.decodeStepS; // B requests, prefill not overlapped
    p.outputTokPerS = double(p.batch) * osl / cycleS;
    p.outputTokPerSPerGpu = p.outputTokPerS / m_gpus;
    p.requestsPerS = p.batch / cycleS;
    return p;
}

} // namespace Throughline
