#pragma once
// Shell-style globs for matrix rules and CLI filters: '*' (any run), '?' (one character) and
// '[abc]' / '[a-z]' / '[!x]' classes. Matching is case-insensitive (catalog names are too) and
// byte-based (names are ASCII).

#include <string>
#include <string_view>

namespace Throughline {

class Glob
{
public:
    // Empty string when the pattern is well formed, else what is wrong with it.
    static std::string check(std::string_view pattern);
    static bool hasWildcards(std::string_view pattern);
    // A malformed pattern never matches.
    static bool match(std::string_view pattern, std::string_view text);
};

} // namespace Throughline
