#pragma once
// Minimal RFC 4180 CSV reader for the catalog resources: quoted fields ("" escapes a quote, quoted
// fields may span lines), CRLF or LF, a header row. Every row and field keeps its 1-based source
// line and column so loaders can report "file:line:col: message".

#include "core/util/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

struct CsvField {
    std::string text;
    int line = 0;   // 1-based line where the field starts
    int column = 0; // 1-based column (bytes) where the field starts
};

struct CsvRow {
    int line = 0; // 1-based line where the row starts
    std::vector<CsvField> fields;

    // Text of field i, or "" when the row is short.
    const std::string &text(int i) const;
};

struct CsvTable {
    std::string fileName; // as given to the reader, used in messages
    std::vector<std::string> header;
    std::vector<CsvRow> rows; // data rows only; blank lines are skipped

    // Index of a header column, -1 when absent.
    int column(std::string_view name) const;
};

class CsvReader
{
public:
    // Parses text; fileName is only used in error messages.
    static Result<CsvTable> parse(std::string_view text, std::string fileName);
    // Reads a file or a Qt resource path (":/catalog/models.csv").
    static Result<CsvTable> readFile(const std::string &path);
};

} // namespace Throughline
