#include "core/telemetry/prometheusparser.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace Throughline {

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}
bool isLabelStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isLabelChar(char c)
{
    return isLabelStart(c) || (c >= '0' && c <= '9');
}
bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

std::string excerptOf(std::string_view line)
{
    constexpr std::size_t kMax = 120;
    if (line.size() <= kMax)
        return std::string(line);
    return std::string(line.substr(0, kMax)) + "…";
}

void skipBlanks(std::string_view s, std::size_t &i)
{
    while (i < s.size() && isBlank(s[i]))
        ++i;
}

std::string_view nextToken(std::string_view s, std::size_t &i)
{
    skipBlanks(s, i);
    const std::size_t start = i;
    while (i < s.size() && !isBlank(s[i]))
        ++i;
    return s.substr(start, i - start);
}

// HELP text escapes: \\ and \n only (a lone backslash is kept).
std::string unescapeHelp(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '\\' || s[i + 1] == 'n')) {
            out.push_back(s[i + 1] == 'n' ? '\n' : '\\');
            ++i;
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Parses `{a="x",b="y"}` starting at s[i] == '{'. On failure returns false with `why` set.
bool parseLabels(std::string_view s, std::size_t &i, LabelSet &labels, std::string &why)
{
    ++i; // '{'
    for (;;) {
        skipBlanks(s, i);
        if (i >= s.size()) {
            why = "unterminated label set";
            return false;
        }
        if (s[i] == '}') {
            ++i;
            return true;
        }
        if (!isLabelStart(s[i])) {
            why = "invalid label name";
            return false;
        }
        const std::size_t nameStart = i;
        while (i < s.size() && isLabelChar(s[i]))
            ++i;
        std::string name(s.substr(nameStart, i - nameStart));
        skipBlanks(s, i);
        if (i >= s.size() || s[i] != '=') {
            why = "expected '=' after label name '" + name + "'";
            return false;
        }
        ++i;
        skipBlanks(s, i);
        if (i >= s.size() || s[i] != '"') {
            why = "expected '\"' to open the value of label '" + name + "'";
            return false;
        }
        ++i;
        std::string value;
        bool closed = false;
        while (i < s.size()) {
            const char c = s[i++];
            if (c == '"') {
                closed = true;
                break;
            }
            if (c == '\\') {
                if (i >= s.size())
                    break;
                const char e = s[i++];
                if (e == '\\')
                    value.push_back('\\');
                else if (e == '"')
                    value.push_back('"');
                else if (e == 'n')
                    value.push_back('\n');
                else {
                    why = std::string("invalid escape '\\") + e + "' in label '" + name + "'";
                    return false;
                }
            } else {
                value.push_back(c);
            }
        }
        if (!closed) {
            why = "unterminated value of label '" + name + "'";
            return false;
        }
        for (const auto &l : labels)
            if (l.first == name) {
                why = "duplicate label '" + name + "'";
                return false;
            }
        labels.emplace_back(std::move(name), std::move(value));
        skipBlanks(s, i);
        if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
        }
        if (i < s.size() && s[i] == '}') {
            ++i;
            return true;
        }
        why = "expected ',' or '}' in label set";
        return false;
    }
}

bool parseTimestamp(std::string_view tok, std::int64_t &ms)
{
    std::int64_t v = 0;
    const char *b = tok.data();
    const char *e = tok.data() + tok.size();
    if (!tok.empty() && tok.front() == '+')
        ++b;
    auto r = std::from_chars(b, e, v);
    if (r.ec == std::errc() && r.ptr == e) {
        ms = v;
        return true;
    }
    double seconds = 0.0; // OpenMetrics: float seconds
    if (PrometheusParser::parseValue(tok, seconds) && std::isfinite(seconds)) {
        ms = static_cast<std::int64_t>(std::llround(seconds * 1000.0));
        return true;
    }
    return false;
}

// Family of a sample name given the declared types: exact name first, then known suffixes.
void resolveFamily(const std::map<std::string, MetricType> &types, PromSample &s)
{
    auto it = types.find(s.name);
    if (it != types.end() && it->second != MetricType::Histogram && it->second != MetricType::Summary) {
        s.family = s.name;
        s.type = it->second;
        return;
    }
    struct Suffix {
        std::string_view text;
        bool histogram, summary, counter;
    };
    static constexpr Suffix kSuffixes[] = {
        {"_bucket", true, false, false}, {"_sum", true, true, false},     {"_count", true, true, false},
        {"_gsum", true, false, false},   {"_gcount", true, false, false}, {"_total", false, false, true},
        {"_created", true, true, true},  {"_info", false, false, false},
    };
    for (const Suffix &suf : kSuffixes) {
        if (!endsWith(s.name, suf.text))
            continue;
        const std::string base = s.name.substr(0, s.name.size() - suf.text.size());
        auto b = types.find(base);
        if (b == types.end())
            continue;
        const MetricType t = b->second;
        const bool fits =
            (t == MetricType::Histogram && suf.histogram) || (t == MetricType::Summary && suf.summary) ||
            (t == MetricType::Counter && suf.counter) || (t == MetricType::Info && suf.text == "_info");
        if (fits) {
            s.family = base;
            s.type = t;
            return;
        }
    }
    if (it != types.end()) { // summary quantile sample: name == family
        s.family = s.name;
        s.type = it->second;
        return;
    }
    s.family = s.name;
    s.type = MetricType::Untyped;
}

} // namespace

bool PrometheusParser::isValidMetricName(std::string_view name)
{
    if (name.empty() || !isNameStart(name.front()))
        return false;
    for (char c : name)
        if (!isNameChar(c))
            return false;
    return true;
}

bool PrometheusParser::parseValue(std::string_view tok, double &out)
{
    if (tok.empty())
        return false;
    bool negative = false;
    std::string_view body = tok;
    if (body.front() == '+' || body.front() == '-') {
        negative = body.front() == '-';
        body.remove_prefix(1);
    }
    if (body == "Inf" || body == "inf" || body == "INF" || body == "+Inf") {
        out = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        return true;
    }
    if (body == "NaN" || body == "nan") {
        out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (body.empty() || body.front() == '+' || body.front() == '-')
        return false;
    double v = 0.0;
    auto r = std::from_chars(body.data(), body.data() + body.size(), v, std::chars_format::general);
    if (r.ec != std::errc() || r.ptr != body.data() + body.size()) {
        // from_chars rejects a value out of range; Go would return ±Inf or 0 — treat as malformed.
        return false;
    }
    // from_chars accepts "infinity"/"nan(...)" spellings; Prometheus does not write them, keep them anyway.
    out = negative ? -v : v;
    return true;
}

ParsedExposition PrometheusParser::parse(std::string_view text)
{
    ParsedExposition out;
    std::size_t pos = 0;
    int lineNo = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);

        std::size_t i = 0;
        skipBlanks(line, i);
        if (i >= line.size())
            continue; // blank line
        auto bad = [&](std::string reason) {
            out.issues.push_back(ParseIssue{lineNo, std::move(reason), excerptOf(line)});
        };

        if (line[i] == '#') {
            ++i;
            std::string_view keyword = nextToken(line, i);
            if (keyword == "EOF")
                break; // OpenMetrics terminator
            if (keyword != "HELP" && keyword != "TYPE")
                continue; // plain comment
            std::string_view name = nextToken(line, i);
            if (!isValidMetricName(name)) {
                bad(std::string("invalid metric name in # ") + std::string(keyword));
                continue;
            }
            if (keyword == "TYPE") {
                std::string_view word = nextToken(line, i);
                MetricType t = MetricType::Untyped;
                if (!metricTypeFromString(word, t)) {
                    bad("unknown metric type '" + std::string(word) + "'");
                    continue;
                }
                out.types[std::string(name)] = t;
            } else {
                skipBlanks(line, i);
                out.help[std::string(name)] = unescapeHelp(line.substr(i));
            }
            continue;
        }

        PromSample s;
        s.line = lineNo;
        if (!isNameStart(line[i])) {
            bad("invalid metric name");
            continue;
        }
        const std::size_t nameStart = i;
        while (i < line.size() && isNameChar(line[i]))
            ++i;
        s.name = std::string(line.substr(nameStart, i - nameStart));
        skipBlanks(line, i);
        if (i < line.size() && line[i] == '{') {
            std::string why;
            if (!parseLabels(line, i, s.labels, why)) {
                bad(why);
                continue;
            }
        } else if (i < line.size() && i == nameStart + s.name.size() && !isBlank(line[i])) {
            bad("invalid character in metric name");
            continue;
        }
        std::string_view valueTok = nextToken(line, i);
        if (valueTok.empty()) {
            bad("missing value");
            continue;
        }
        if (!parseValue(valueTok, s.value)) {
            bad("invalid value '" + std::string(valueTok) + "'");
            continue;
        }
        std::string_view tsTok = nextToken(line, i);
        if (!tsTok.empty() && tsTok != "#") {
            std::int64_t ms = 0;
            if (!parseTimestamp(tsTok, ms)) {
                bad("invalid timestamp '" + std::string(tsTok) + "'");
                continue;
            }
            s.timestampMs = ms;
            tsTok = nextToken(line, i);
        }
        // Anything left must be an exemplar or trailing comment introduced by '#'; it is ignored.
        if (!tsTok.empty() && tsTok.front() != '#') {
            bad("unexpected text after value");
            continue;
        }
        out.samples.push_back(std::move(s));
    }
    out.lineCount = lineNo;
    // Families are resolved after the whole text is read: # TYPE may legally follow nothing but its samples,
    // yet some exporters print it late; resolving at the end costs nothing.
    for (PromSample &s : out.samples)
        resolveFamily(out.types, s);
    return out;
}

} // namespace Throughline
