#pragma once
// Architecture facts of a model, from resources/catalog/models.csv (or a custom entry in a campaign).

#include <string>

namespace Throughline {

struct ModelSpec {
    enum class Attention { Gqa, Mla };

    std::string name; // catalog key, e.g. "gpt-oss-120b"
    std::string hfId;
    double totalParamsB = 0;
    double activeParamsB = 0;
    int layers = 0;
    int hidden = 0;
    int qHeads = 0;
    int kvHeads = 0; // 0 for MLA
    int headDim = 0; // 0 for MLA
    Attention attention = Attention::Gqa;
    bool slidingWindowHalf = false; // gpt-oss: alternating full / sliding-window layers
    double kvElemsPerToken = 0;     // full-attention layers only for gpt-oss
    int experts = 0;                // 0 = dense
    int topK = 0;
    int vocab = 0;
    int maxContext = 0;
    double weightsFp8Gib = 0;
    double weightsFp4Gib = 0;
    std::string tokenizer;  // tokenizer name, e.g. "llama3_1", "gptoss", "deepseek_v3"
    bool reasoning = false; // streams reasoning before the answer
    std::string source;

    bool isMoe() const { return experts > 0; }
    bool operator==(const ModelSpec &) const = default;
};

} // namespace Throughline
