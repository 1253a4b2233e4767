#pragma once
// "Did you mean …?" for unknown names and keys: the closest candidate by case-insensitive edit
// distance, if it is close enough to be a plausible typo.

#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

class Suggest
{
public:
    // Closest candidate, or "" when none is within max(2, |word| / 3) edits.
    static std::string closest(std::string_view word, const std::vector<std::string> &candidates);
    // " (did you mean 'x'?)" or "" — ready to append to a message.
    static std::string didYouMean(std::string_view word, const std::vector<std::string> &candidates);
    static int distance(std::string_view a, std::string_view b); // case-insensitive Levenshtein
};

} // namespace Throughline
