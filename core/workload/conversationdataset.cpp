#include "core/workload/conversationdataset.h"

#include "core/util/splitmix.h"
#include "core/workload/jsonllines.h"

#include <nlohmann/json.hpp>

#include <QFile>

#include <algorithm>
#include <cctype>
#include <optional>

namespace Throughline {

using nlohmann::json;

namespace {

struct Turn {
    enum class Role { System, User, Assistant, Other };
    Role role = Role::Other;
    std::string text;
};

Turn::Role roleOf(std::string_view r)
{
    if (r == "human" || r == "user")
        return Turn::Role::User;
    if (r == "gpt" || r == "assistant" || r == "chatgpt" || r == "bard" || r == "bing" || r == "model")
        return Turn::Role::Assistant;
    if (r == "system")
        return Turn::Role::System;
    return Turn::Role::Other;
}

// OpenAI content: a string or an array of parts ({"type": "text", "text": …}); other part types are
// skipped (images cannot be benchmarked as text).
bool contentText(const json &c, std::string &out)
{
    if (c.is_string()) {
        out = c.get<std::string>();
        return true;
    }
    if (c.is_null()) {
        out.clear();
        return true;
    }
    if (!c.is_array())
        return false;
    out.clear();
    for (const auto &part : c) {
        if (!part.is_object())
            return false;
        const auto t = part.find("text");
        if (t != part.end() && t->is_string()) {
            if (!out.empty())
                out += "\n";
            out += t->get<std::string>();
        }
    }
    return true;
}

// Decodes one conversation; on failure returns the field path and problem.
struct Problem {
    std::string field;
    std::string message;
};

std::optional<Problem> turnsOf(const json &conv, Workload::DatasetFormat format, std::vector<Turn> &turns)
{
    if (!conv.is_object())
        return Problem{"", "expected a JSON object (one conversation)"};
    const bool hasShare = conv.contains("conversations");
    const bool hasMessages = conv.contains("messages");
    Workload::DatasetFormat f = format;
    if (f == Workload::DatasetFormat::Auto) {
        if (hasShare)
            f = Workload::DatasetFormat::ShareGpt;
        else if (hasMessages)
            f = Workload::DatasetFormat::OpenAiMessages;
        else
            return Problem{"", "neither \"conversations\" (ShareGPT) nor \"messages\" (OpenAI) found"};
    }
    const char *listKey = f == Workload::DatasetFormat::ShareGpt ? "conversations" : "messages";
    const char *roleKey = f == Workload::DatasetFormat::ShareGpt ? "from" : "role";
    const char *textKey = f == Workload::DatasetFormat::ShareGpt ? "value" : "content";
    const auto list = conv.find(listKey);
    if (list == conv.end())
        return Problem{listKey, "missing"};
    if (!list->is_array())
        return Problem{listKey, "expected an array"};
    for (std::size_t i = 0; i < list->size(); ++i) {
        const json &t = (*list)[i];
        const std::string at = std::string(listKey) + "[" + std::to_string(i) + "]";
        if (!t.is_object())
            return Problem{at, "expected an object"};
        const auto r = t.find(roleKey);
        if (r == t.end() || !r->is_string())
            return Problem{at + "." + roleKey, r == t.end() ? "missing" : "expected a string"};
        const auto x = t.find(textKey);
        Turn turn;
        turn.role = roleOf(r->get<std::string>());
        if (x == t.end())
            return Problem{at + "." + textKey, "missing"};
        if (f == Workload::DatasetFormat::ShareGpt) {
            if (!x->is_string())
                return Problem{at + "." + textKey, "expected a string"};
            turn.text = x->get<std::string>();
        } else if (!contentText(*x, turn.text)) {
            return Problem{at + "." + textKey, "expected a string or an array of text parts"};
        }
        turns.push_back(std::move(turn));
    }
    return std::nullopt;
}

} // namespace

int ConversationDataset::charCount(std::string_view s)
{
    int n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

Result<ConversationDataset> ConversationDataset::load(const std::string &path, Workload::DatasetFormat format,
                                                      const Filter &filter, const TokenCounter &counter)
{
    QFile f(QString::fromStdString(path));
    if (!f.exists())
        return makeError(ErrorCode::NotFound, path + ": dataset file not found");
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, path + ": cannot read: " + f.errorString().toStdString());
    const QByteArray bytes = f.readAll();
    return parse(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), path, format,
                 filter, counter);
}

Result<ConversationDataset> ConversationDataset::parse(std::string_view text, const std::string &source,
                                                       Workload::DatasetFormat format, const Filter &filter,
                                                       const TokenCounter &counter)
{
    if (filter.unit == Workload::LengthUnit::Tokens && !counter)
        return makeError(ErrorCode::InvalidInput, source + ": token length filters need a tokenizer");
    ConversationDataset ds;
    ds.m_unit = filter.unit;
    auto measure = [&](const std::string &s) {
        return filter.unit == Workload::LengthUnit::Tokens ? static_cast<int>(counter(s)) : charCount(s);
    };
    auto fail = [&](int line, const std::string &field, const std::string &msg) {
        return makeError(ErrorCode::InvalidInput, source + ":" + std::to_string(line) + ": " +
                                                      (field.empty() ? "" : field + ": ") + msg);
    };
    auto take = [&](const json &conv, int line) -> std::optional<Error> {
        std::vector<Turn> turns;
        if (auto p = turnsOf(conv, format, turns))
            return fail(line, p->field, p->message);
        ++ds.m_stats.conversations;
        // Prompt: everything up to and including the first user turn; output: the assistant turn after it.
        std::size_t u = 0;
        while (u < turns.size() && turns[u].role != Turn::Role::User)
            ++u;
        if (u == turns.size()) {
            ++ds.m_stats.withoutUserTurn;
            return std::nullopt;
        }
        DatasetSample s;
        s.line = line;
        for (std::size_t i = 0; i <= u; ++i) {
            if (turns[i].text.empty())
                continue;
            if (!s.prompt.empty())
                s.prompt += "\n\n";
            s.prompt += turns[i].text;
        }
        if (u + 1 < turns.size() && turns[u + 1].role == Turn::Role::Assistant)
            s.output = turns[u + 1].text;
        s.promptLen = measure(s.prompt);
        s.outputLen = s.output.empty() ? 0 : measure(s.output);
        const bool ok = s.promptLen > 0 && (filter.minPrompt <= 0 || s.promptLen >= filter.minPrompt) &&
                        (filter.maxPrompt <= 0 || s.promptLen <= filter.maxPrompt) &&
                        (filter.minOutput <= 0 || s.outputLen >= filter.minOutput) &&
                        (filter.maxOutput <= 0 || s.outputLen <= filter.maxOutput);
        if (!ok) {
            ++ds.m_stats.filteredByLength;
            return std::nullopt;
        }
        ds.m_samples.push_back(std::move(s));
        return std::nullopt;
    };

    // A JSON array document, or JSONL.
    std::size_t first = 0;
    while (first < text.size() && std::isspace(static_cast<unsigned char>(text[first])))
        ++first;
    if (first < text.size() && text[first] == '[') {
        json doc = json::parse(text.begin(), text.end(), nullptr, false);
        if (doc.is_discarded()) {
            // Re-parse to get the position of the error.
            try {
                const json again = json::parse(text.begin(), text.end());
                (void)again;
            } catch (const json::parse_error &e) {
                const std::size_t off = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
                const int line =
                    1 + static_cast<int>(std::count(text.begin(), text.begin() + long(off), '\n'));
                return fail(line, "", "JSON syntax error");
            }
            return fail(1, "", "JSON syntax error");
        }
        // Line where each top-level element starts (objects, arrays, strings; scalars are rejected anyway):
        // track the depth over the raw text, skipping strings.
        std::vector<int> elementLines;
        {
            int depth = 0, line = 1;
            bool inStr = false, esc = false;
            for (char c : text) {
                if (c == '\n')
                    ++line;
                if (inStr) {
                    if (esc)
                        esc = false;
                    else if (c == '\\')
                        esc = true;
                    else if (c == '"')
                        inStr = false;
                    continue;
                }
                if (c == '"') {
                    inStr = true;
                    if (depth == 1)
                        elementLines.push_back(line);
                } else if (c == '{' || c == '[') {
                    if (depth == 1)
                        elementLines.push_back(line);
                    ++depth;
                } else if (c == '}' || c == ']') {
                    --depth;
                }
            }
        }
        for (std::size_t i = 0; i < doc.size(); ++i) {
            const int line = i < elementLines.size() ? elementLines[i] : 1;
            if (auto e = take(doc[i], line))
                return *e;
        }
    } else {
        int line = 0;
        std::size_t pos = 0;
        while (const auto next = nextJsonlLine(text, pos, line)) {
            const std::string_view l = *next;
            json conv = json::parse(l.begin(), l.end(), nullptr, false);
            if (conv.is_discarded())
                return fail(line, "", "not valid JSON (JSONL expects one conversation object per line)");
            if (auto e = take(conv, line))
                return *e;
        }
    }
    ds.m_stats.kept = static_cast<int>(ds.m_samples.size());
    if (ds.m_samples.empty())
        return makeError(ErrorCode::InvalidInput,
                         source + ": no usable conversation (" + std::to_string(ds.m_stats.conversations) +
                             " read, " + std::to_string(ds.m_stats.filteredByLength) +
                             " outside the length filters, " + std::to_string(ds.m_stats.withoutUserTurn) +
                             " without a user turn)");
    return ds;
}

// ---------------------------------------------------------------------------------------------------------

DatasetSampler::DatasetSampler(std::size_t size, bool withReplacement, std::uint64_t seed)
    : m_size(std::max<std::size_t>(size, 1))
    , m_withReplacement(withReplacement)
    , m_seed(seed)
{
    if (!withReplacement) {
        m_perm.resize(m_size);
        for (std::size_t i = 0; i < m_size; ++i)
            m_perm[i] = i;
        // Fisher–Yates with splitmix64: identical on every platform (std::shuffle is not).
        std::uint64_t st = splitmix64(seed);
        for (std::size_t i = m_size - 1; i > 0; --i) {
            st = splitmix64(st);
            std::swap(m_perm[i], m_perm[st % (i + 1)]);
        }
    }
}

std::size_t DatasetSampler::index(std::uint64_t n) const
{
    if (m_withReplacement)
        return static_cast<std::size_t>(splitmix64(m_seed ^ splitmix64(n + 1)) % m_size);
    // Later cycles reuse the permutation in a rotated order so repeats are not in lock-step.
    const std::uint64_t cycle = n / m_size;
    return m_perm[static_cast<std::size_t>((n + cycle) % m_size)];
}

} // namespace Throughline
