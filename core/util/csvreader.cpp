#include "core/util/csvreader.h"

#include <QFile>

namespace Throughline {

const std::string &CsvRow::text(int i) const
{
    static const std::string kEmpty;
    if (i < 0 || i >= int(fields.size()))
        return kEmpty;
    return fields[size_t(i)].text;
}

int CsvTable::column(std::string_view name) const
{
    for (size_t i = 0; i < header.size(); ++i) {
        if (header[i] == name)
            return int(i);
    }
    return -1;
}

Result<CsvTable> CsvReader::parse(std::string_view text, std::string fileName)
{
    CsvTable table;
    table.fileName = std::move(fileName);

    // Skip a UTF-8 byte order mark.
    size_t pos = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        pos = 3;

    int line = 1;
    size_t lineStart = 0; // offset of the current line's first byte, for columns
    bool headerDone = false;

    auto colOf = [&](size_t offset) { return int(offset - lineStart) + 1; };

    while (pos < text.size()) {
        CsvRow row;
        row.line = line;
        bool rowDone = false;
        while (!rowDone) {
            CsvField field;
            field.line = line;
            field.column = colOf(pos);
            if (pos < text.size() && text[pos] == '"') {
                const int openLine = line;
                const int openCol = colOf(pos);
                ++pos;
                bool closed = false;
                while (pos < text.size()) {
                    const char c = text[pos];
                    if (c == '"') {
                        if (pos + 1 < text.size() && text[pos + 1] == '"') {
                            field.text += '"';
                            pos += 2;
                            continue;
                        }
                        ++pos;
                        closed = true;
                        break;
                    }
                    if (c == '\n') {
                        ++line;
                        lineStart = pos + 1;
                    }
                    field.text += c;
                    ++pos;
                }
                if (!closed) {
                    return makeError(ErrorCode::InvalidInput,
                                     table.fileName + ":" + std::to_string(openLine) + ":" +
                                         std::to_string(openCol) + ": unterminated quoted field");
                }
                // After a closing quote only a separator or end of line may follow.
                if (pos < text.size() && text[pos] != ',' && text[pos] != '\n' && text[pos] != '\r') {
                    return makeError(ErrorCode::InvalidInput,
                                     table.fileName + ":" + std::to_string(line) + ":" +
                                         std::to_string(colOf(pos)) +
                                         ": unexpected character after closing quote");
                }
            } else {
                while (pos < text.size() && text[pos] != ',' && text[pos] != '\n' && text[pos] != '\r') {
                    if (text[pos] == '"') {
                        return makeError(ErrorCode::InvalidInput,
                                         table.fileName + ":" + std::to_string(line) + ":" +
                                             std::to_string(colOf(pos)) + ": quote inside an unquoted field");
                    }
                    field.text += text[pos];
                    ++pos;
                }
            }
            row.fields.push_back(std::move(field));
            if (pos >= text.size()) {
                rowDone = true;
            } else if (text[pos] == ',') {
                ++pos;
            } else {
                // End of line: CRLF or LF (a lone CR also ends the line).
                if (text[pos] == '\r')
                    ++pos;
                if (pos < text.size() && text[pos] == '\n')
                    ++pos;
                ++line;
                lineStart = pos;
                rowDone = true;
            }
        }
        const bool blank = row.fields.size() == 1 && row.fields[0].text.empty();
        if (blank)
            continue;
        if (!headerDone) {
            for (auto &f : row.fields)
                table.header.push_back(f.text);
            headerDone = true;
        } else {
            if (row.fields.size() > table.header.size()) {
                const auto &extra = row.fields[table.header.size()];
                return makeError(ErrorCode::InvalidInput,
                                 table.fileName + ":" + std::to_string(extra.line) + ":" +
                                     std::to_string(extra.column) + ": row has " +
                                     std::to_string(row.fields.size()) + " fields, header has " +
                                     std::to_string(table.header.size()));
            }
            table.rows.push_back(std::move(row));
        }
    }
    if (!headerDone)
        return makeError(ErrorCode::InvalidInput, table.fileName + ":1:1: empty CSV (no header row)");
    return table;
}

Result<CsvTable> CsvReader::readFile(const std::string &path)
{
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly)) {
        return makeError(ErrorCode::Io, path + ": cannot open: " + file.errorString().toStdString());
    }
    const QByteArray bytes = file.readAll();
    return parse(std::string_view(bytes.constData(), size_t(bytes.size())), path);
}

} // namespace Throughline
