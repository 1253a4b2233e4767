#include "core/util/suggest.h"

#include <algorithm>
#include <cctype>

namespace Throughline {

int Suggest::distance(std::string_view a, std::string_view b)
{
    // Names are short; cap the work for pathological inputs (fuzzing, pasted blobs).
    if (a.size() > 256 || b.size() > 256)
        return int(std::max(a.size(), b.size()));
    std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        prev[j] = int(j);
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = int(i);
        for (size_t j = 1; j <= b.size(); ++j) {
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string Suggest::closest(std::string_view word, const std::vector<std::string> &candidates)
{
    const int limit = std::max(2, int(word.size()) / 3);
    int best = limit + 1;
    std::string bestName;
    for (const auto &c : candidates) {
        const int d = distance(word, c);
        if (d < best) {
            best = d;
            bestName = c;
        }
    }
    return bestName;
}

std::string Suggest::didYouMean(std::string_view word, const std::vector<std::string> &candidates)
{
    const std::string c = closest(word, candidates);
    return c.empty() ? std::string() : " (did you mean '" + c + "'?)";
}

} // namespace Throughline
