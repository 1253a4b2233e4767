#include "core/util/glob.h"

#include <cctype>

namespace Throughline {

namespace {

char fold(char c)
{
    return char(std::tolower(static_cast<unsigned char>(c)));
}

// Parses the class starting at p[i] == '['. On success sets `end` to the index after ']'.
bool classMatches(std::string_view p, size_t i, char c, size_t &end, bool &ok)
{
    size_t j = i + 1;
    bool negate = false;
    if (j < p.size() && (p[j] == '!' || p[j] == '^')) {
        negate = true;
        ++j;
    }
    bool hit = false;
    bool first = true;
    while (j < p.size() && (first || p[j] != ']')) {
        first = false;
        char lo = p[j];
        char hi = lo;
        if (j + 2 < p.size() && p[j + 1] == '-' && p[j + 2] != ']') {
            hi = p[j + 2];
            j += 3;
        } else {
            ++j;
        }
        const char fc = fold(c);
        if ((fc >= fold(lo) && fc <= fold(hi)) || (c >= lo && c <= hi))
            hit = true;
    }
    if (j >= p.size()) {
        ok = false;
        return false;
    }
    ok = true;
    end = j + 1;
    return hit != negate;
}

} // namespace

std::string Glob::check(std::string_view p)
{
    if (p.empty())
        return "empty pattern";
    for (size_t i = 0; i < p.size(); ++i) {
        if (p[i] == '[') {
            size_t end = 0;
            bool ok = false;
            classMatches(p, i, 'a', end, ok);
            if (!ok)
                return "unterminated '[' at position " + std::to_string(i + 1);
            if (end == i + 2 || (end == i + 3 && (p[i + 1] == '!' || p[i + 1] == '^')))
                return "empty character class at position " + std::to_string(i + 1);
            i = end - 1;
        } else if (p[i] == ']') {
            return "unmatched ']' at position " + std::to_string(i + 1);
        }
    }
    return {};
}

bool Glob::hasWildcards(std::string_view p)
{
    return p.find_first_of("*?[") != std::string_view::npos;
}

bool Glob::match(std::string_view p, std::string_view t)
{
    if (!check(p).empty())
        return false;
    // Iterative matcher with single-star backtracking: O(|p|·|t|) worst case, no recursion.
    size_t pi = 0, ti = 0;
    size_t starP = std::string_view::npos, starT = 0;
    while (ti < t.size()) {
        if (pi < p.size() && p[pi] == '*') {
            starP = pi++;
            starT = ti;
            continue;
        }
        if (pi < p.size()) {
            if (p[pi] == '?') {
                ++pi;
                ++ti;
                continue;
            }
            if (p[pi] == '[') {
                size_t end = 0;
                bool ok = false;
                if (classMatches(p, pi, t[ti], end, ok)) {
                    pi = end;
                    ++ti;
                    continue;
                }
            } else if (fold(p[pi]) == fold(t[ti])) {
                ++pi;
                ++ti;
                continue;
            }
        }
        if (starP == std::string_view::npos)
            return false;
        pi = starP + 1;
        ti = ++starT;
    }
    while (pi < p.size() && p[pi] == '*')
        ++pi;
    return pi == p.size();
}

} // namespace Throughline
