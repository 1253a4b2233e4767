#pragma once
// One problem found in a campaign document: where (JSON pointer + line/column) and what.

#include <string>
#include <vector>

namespace Throughline {

struct ValidationProblem {
    std::string pointer; // RFC 6901 pointer into the document as written ("" = the root)
    int line = 0;        // 1-based; 0 = unknown (filled in by the validator from the source text)
    int column = 0;      // 1-based, in code points
    std::string message; // never echoes secret values
    bool atKey = false;  // the position is the member name (unknown or forbidden keys), not its value

    bool operator==(const ValidationProblem &) const = default;
};

using ValidationProblems = std::vector<ValidationProblem>;

} // namespace Throughline
