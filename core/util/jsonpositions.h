#pragma once
// Maps JSON pointers (RFC 6901) to line/column positions in the source text. nlohmann 3.11 reports
// positions for syntax errors only, so validators index the text once and look up every problem.
// Lines and columns are 1-based; columns count Unicode code points (what editors show), tabs as one.
// The scanner is tolerant: on malformed input it indexes what it could read and stops.

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Throughline {

struct JsonPosition {
    int line = 0;
    int column = 0;
    bool valid() const { return line > 0; }
    bool operator==(const JsonPosition &) const = default;
};

struct JsonLocation {
    JsonPosition key;   // position of the member name's opening quote; invalid for array items/root
    JsonPosition value; // position of the value's first character
};

class JsonPositions
{
public:
    static JsonPositions index(std::string_view text);

    // Exact lookup. For repeated keys the *last* occurrence wins (as in nlohmann's DOM).
    std::optional<JsonLocation> find(const std::string &pointer) const;
    // Location of the pointer, else of its nearest indexed ancestor (for missing members).
    JsonLocation nearest(const std::string &pointer) const;

    // Pointers of members that repeat a key of the same object, with the repeated key's position.
    const std::vector<std::pair<std::string, JsonPosition>> &duplicateKeys() const { return m_duplicates; }

    // Line/column of a byte offset (0-based) of text; used for nlohmann's parse_error::byte.
    static JsonPosition positionOfByte(std::string_view text, size_t byteOffset);
    // "a/b~c" → "a~1b~0c" (RFC 6901).
    static std::string escapeToken(std::string_view token);
    static std::string join(const std::string &parent, std::string_view token)
    {
        return parent + "/" + escapeToken(token);
    }

private:
    std::unordered_map<std::string, JsonLocation> m_locations;
    std::vector<std::pair<std::string, JsonPosition>> m_duplicates;
    friend class JsonPositionScanner;
};

} // namespace Throughline
