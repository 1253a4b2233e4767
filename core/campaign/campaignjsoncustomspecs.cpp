// Decoding of the campaign's custom model and GPU specifications (same shape as the catalog's).

#include "core/campaign/campaignjsondetail.h"
#include "core/campaign/jsonobjectreader.h"

namespace Throughline::CampaignJsonDetail {

using nlohmann::json;

ModelSpec decodeModel(DecodeContext &ctx, const json &j, const std::string &ptr)
{
    ModelSpec m;
    JsonObjectReader o(ctx, &j, ptr);
    if (!o.valid())
        return m;
    o.str("name", m.name, true, true);
    if (m.name.find('/') != std::string::npos)
        ctx.add(o.at("name"),
                "a model name must not contain '/' (it separates the parts of scenario ids); put "
                "the Hugging Face id in hf_id");
    o.str("hf_id", m.hfId);
    o.number("total_params_b", m.totalParamsB, 0, 1e6, true, true);
    o.number("active_params_b", m.activeParamsB, 0, 1e6, true, true);
    o.integer("layers", m.layers, 1, 100'000, true);
    o.integer("hidden", m.hidden, 1, 10'000'000);
    o.integer("q_heads", m.qHeads, 1, 100'000);
    o.integer("kv_heads", m.kvHeads, 0, 100'000);
    o.integer("head_dim", m.headDim, 0, 100'000);
    o.enumeration("attention", m.attention,
                  {{"gqa", ModelSpec::Attention::Gqa}, {"mla", ModelSpec::Attention::Mla}});
    o.boolean("sliding_window_half", m.slidingWindowHalf);
    o.number("kv_elems_per_token", m.kvElemsPerToken, 0, 1e9, true, true);
    o.integer("experts", m.experts, 0, 100'000);
    o.integer("top_k", m.topK, 0, 100'000);
    o.integer("vocab", m.vocab, 0, 100'000'000);
    o.integer("max_context", m.maxContext, 1, 100'000'000, true);
    o.number("weights_fp8_gib", m.weightsFp8Gib, 0, 1e6);
    o.number("weights_fp4_gib", m.weightsFp4Gib, 0, 1e6);
    o.str("tokenizer", m.tokenizer);
    o.boolean("reasoning", m.reasoning);
    o.str("source", m.source);
    if (m.experts > 0 && (m.topK <= 0 || m.topK > m.experts))
        ctx.add(o.at("top_k"), "an MoE model needs 1 ≤ top_k ≤ experts");
    if (m.activeParamsB > m.totalParamsB && m.totalParamsB > 0)
        ctx.add(o.at("active_params_b"), "active parameters exceed total parameters");
    o.finish();
    return m;
}

GpuSpec decodeGpu(DecodeContext &ctx, const json &j, const std::string &ptr)
{
    GpuSpec g;
    JsonObjectReader o(ctx, &j, ptr);
    if (!o.valid())
        return g;
    o.str("name", g.name, true, true);
    o.stringList("aliases", g.aliases);
    o.number("hbm_gb", g.hbmGb, 0, 1e6, true, true);
    o.number("hbm_tb_s", g.hbmTbPerS, 0, 1e4, true, true);
    o.number("bf16_dense_tflops", g.bf16DenseTflops, 0, 1e7, true, true);
    o.number("fp8_dense_tflops", g.fp8DenseTflops, 0, 1e7);
    o.number("fp4_dense_tflops", g.fp4DenseTflops, 0, 1e7);
    o.number("nvlink_gb_s", g.nvlinkGbPerS, 0, 1e6);
    o.number("tdp_w", g.tdpW, 0, 1e5);
    o.str("source", g.source);
    o.finish();
    return g;
}

} // namespace Throughline::CampaignJsonDetail
