// Reading campaign text: JSON syntax errors with positions, then migration and decoding, with every
// problem reported as "line:col: /pointer: message". Writing: campaignjsonwrite.cpp.

#include "core/campaign/campaignjson.h"

#include "core/campaign/catalog.h"
#include "core/util/jsonpositions.h"

#include <QFile>

namespace Throughline {

using nlohmann::json;

std::optional<CampaignJson::SyntaxError> CampaignJson::parse(std::string_view text, json &out)
{
    try {
        out = json::parse(text.begin(), text.end());
        return std::nullopt;
    } catch (const json::parse_error &e) {
        const JsonPosition pos = JsonPositions::positionOfByte(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error …" → the tail.
        if (auto colon = what.find(": "); colon != std::string::npos)
            what = what.substr(colon + 2);
        return SyntaxError{pos.line, pos.column, "JSON syntax error: " + what};
    } catch (const json::exception &e) {
        // Out-of-range numbers ("number overflow parsing '1e999'") carry no position: locate the
        // literal the message quotes.
        std::string what = e.what();
        if (auto bracket = what.find("] "); bracket != std::string::npos)
            what = what.substr(bracket + 2);
        JsonPosition pos{1, 1};
        const auto q1 = what.find('\'');
        const auto q2 = q1 == std::string::npos ? q1 : what.find('\'', q1 + 1);
        if (q2 != std::string::npos) {
            const auto at = text.find(what.substr(q1 + 1, q2 - q1 - 1));
            if (at != std::string_view::npos)
                pos = JsonPositions::positionOfByte(text, at);
        }
        return SyntaxError{pos.line, pos.column, "JSON error: " + what};
    }
}

Result<Campaign> CampaignJson::read(std::string_view text, const Catalog &catalog)
{
    json doc;
    if (auto err = parse(text, doc))
        return makeError(ErrorCode::InvalidInput,
                         std::to_string(err->line) + ":" + std::to_string(err->column) + ": " + err->message);
    auto migrated = migrate(doc);
    if (!migrated)
        return migrated.error();
    ValidationProblems problems;
    Campaign c = decode(migrated->doc, catalog, problems);
    if (!problems.empty()) {
        const JsonPositions positions = JsonPositions::index(text);
        std::string msg;
        for (const auto &p : problems) {
            const std::string ptr = migrated->originalPointer(p.pointer);
            const JsonLocation loc = positions.nearest(ptr);
            const JsonPosition at = p.atKey && loc.key.valid() ? loc.key : loc.value;
            msg += (msg.empty() ? "" : "\n") + std::to_string(at.line) + ":" + std::to_string(at.column) +
                   ": " + (ptr.empty() ? "/" : ptr) + ": " + p.message;
        }
        return makeError(ErrorCode::InvalidInput, msg);
    }
    c.schemaVersion = Campaign::kSchemaVersion;
    return c;
}

Result<Campaign> CampaignJson::read(std::string_view text)
{
    return read(text, Catalog::builtin());
}

Result<Campaign> CampaignJson::readFile(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, path + ": cannot open: " + f.errorString().toStdString());
    const QByteArray bytes = f.readAll();
    auto r = read(std::string_view(bytes.constData(), size_t(bytes.size())));
    if (!r) {
        // Prefix every line with the file name: "FILE:LINE:COL: …".
        std::string msg;
        const std::string &m = r.error().message;
        size_t start = 0;
        while (start <= m.size()) {
            const size_t nl = m.find('\n', start);
            msg += (msg.empty() ? "" : "\n") + path + ":" +
                   m.substr(start, nl == std::string::npos ? nl : nl - start);
            if (nl == std::string::npos)
                break;
            start = nl + 1;
        }
        return makeError(r.error().code, msg);
    }
    return r;
}

} // namespace Throughline
