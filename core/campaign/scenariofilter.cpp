#include "core/campaign/scenariofilter.h"

#include "core/util/glob.h"
#include "core/util/suggest.h"

#include <algorithm>

namespace Throughline {

Result<MatrixRule> ScenarioFilter::parse(std::string_view expr)
{
    const std::vector<std::string> keys(std::begin(MatrixExpander::kKeys), std::end(MatrixExpander::kKeys));
    MatrixRule rule;
    if (expr.empty())
        return makeError(ErrorCode::InvalidInput, "empty filter; expected key=glob[,key=glob…]");
    size_t start = 0;
    while (start <= expr.size()) {
        const size_t comma = expr.find(',', start);
        const std::string_view term =
            expr.substr(start, comma == std::string_view::npos ? expr.size() - start : comma - start);
        const std::string where =
            "filter term " + std::to_string(rule.match.size() + 1) + " '" + std::string(term) + "'";
        const size_t eq = term.find('=');
        if (term.empty())
            return makeError(ErrorCode::InvalidInput, "empty term in filter '" + std::string(expr) + "'");
        if (eq == std::string_view::npos)
            return makeError(ErrorCode::InvalidInput, where + ": expected key=glob");
        std::string key(term.substr(0, eq));
        std::string glob(term.substr(eq + 1));
        if (std::find(keys.begin(), keys.end(), key) == keys.end())
            return makeError(ErrorCode::InvalidInput, where + ": unknown key '" + key +
                                                          "'; expected model, backend, gpu, gpus or phase" +
                                                          Suggest::didYouMean(key, keys));
        if (const std::string err = Glob::check(glob); !err.empty())
            return makeError(ErrorCode::InvalidInput, where + ": bad glob: " + err);
        rule.match[key].push_back(glob);
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return rule;
}

} // namespace Throughline
