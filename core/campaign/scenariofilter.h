#pragma once
// The CLI's `--only EXPR` / `runs --filter EXPR`: comma-separated key=glob over model, backend,
// gpu, gpus, phase. AND across keys, OR within a repeated key ("phase=Chat,phase=Reasoning").

#include "core/campaign/campaign.h"
#include "core/campaign/matrixexpander.h"
#include "core/util/result.h"

#include <string_view>

namespace Throughline {

class ScenarioFilter
{
public:
    // An empty expression is an error (the caller decides whether the flag was given).
    static Result<MatrixRule> parse(std::string_view expr);
    static bool matches(const MatrixRule &rule, const ScenarioKeys &keys)
    {
        return MatrixExpander::matches(rule.match, keys);
    }
};

} // namespace Throughline
