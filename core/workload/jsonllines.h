#pragma once
// JSONL reading shared by datasets and traces: the next non-blank line, trimmed, with its 1-based number.

#include <cctype>
#include <cstddef>
#include <optional>
#include <string_view>

namespace Throughline {

// Advances pos past the returned line and sets line to its number; nullopt at the end of text.
inline std::optional<std::string_view> nextJsonlLine(std::string_view text, std::size_t &pos, int &line)
{
    while (pos <= text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos)
            nl = text.size();
        ++line;
        std::string_view l = text.substr(pos, nl - pos);
        pos = nl + 1;
        while (!l.empty() && std::isspace(static_cast<unsigned char>(l.back())))
            l.remove_suffix(1);
        while (!l.empty() && std::isspace(static_cast<unsigned char>(l.front())))
            l.remove_prefix(1);
        if (!l.empty())
            return l;
    }
    return std::nullopt;
}

} // namespace Throughline
