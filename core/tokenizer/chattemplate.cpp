#include "core/tokenizer/chattemplate.h"

#include "core/tokenizer/utf8.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>

namespace Throughline {

namespace {

bool jsWhitespace(char32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
           c == 0x3000 || c == 0xFEFF;
}

bool hasAdded(const std::vector<std::pair<std::string, TokenId>> &added, std::string_view text)
{
    for (const auto &[t, id] : added)
        if (t == text)
            return true;
    return false;
}

constexpr ChatTemplate::Kind kAllKinds[] = {ChatTemplate::Kind::Llama3,     ChatTemplate::Kind::DeepSeekV3,
                                            ChatTemplate::Kind::DeepSeekR1, ChatTemplate::Kind::Harmony,
                                            ChatTemplate::Kind::ChatMl,     ChatTemplate::Kind::Plain};

// "YYYY-MM-DD" with a real calendar day.
bool parseDate(std::string_view s, int &year, int &month, int &day)
{
    if (s.size() != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (s[i] < '0' || s[i] > '9')
            return false;
    const auto num = [&](std::size_t at, std::size_t n) {
        int v = 0;
        for (std::size_t i = at; i < at + n; ++i)
            v = v * 10 + (s[i] - '0');
        return v;
    };
    const int y = num(0, 4), m = num(5, 2), d = num(8, 2);
    static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m < 1 || m > 12 || d < 1 || d > kDays[m - 1] || (m == 2 && d == 29 && !leap))
        return false;
    year = y;
    month = m;
    day = d;
    return true;
}

} // namespace

ChatTemplate::ChatTemplate(Kind kind, std::string_view date)
    : m_kind(kind)
{
    // gpt-oss's template has no default of its own: it always renders today (strftime_now).
    const std::string_view resolved = date.empty() && kind == Kind::Harmony ? "today" : date;
    if (resolved == "today")
        parseDate(todayUtc(), m_year, m_month, m_day);
    else if (!resolved.empty())
        parseDate(resolved, m_year, m_month, m_day);
}

ChatTemplate ChatTemplate::forTokenizer(const BpeTokenizer &tok, std::string_view date)
{
    const auto added = tok.addedTokens();
    if (hasAdded(added, "<|start_header_id|>") && hasAdded(added, "<|eot_id|>"))
        return ChatTemplate(Kind::Llama3, date);
    if (hasAdded(added, "<\xEF\xBD\x9C"
                        "User\xEF\xBD\x9C>")) // <｜User｜>
        return ChatTemplate(Kind::DeepSeekV3, date);
    if (hasAdded(added, "<|start|>") && hasAdded(added, "<|message|>") && hasAdded(added, "<|channel|>"))
        return ChatTemplate(Kind::Harmony, date);
    return ChatTemplate(Kind::Plain, date);
}

ChatTemplate ChatTemplate::forModel(const BpeTokenizer &tok, std::string_view model, std::string_view date)
{
    ChatTemplate t = forTokenizer(tok, date);
    std::string upper(model);
    for (char &c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (t.m_kind == Kind::DeepSeekV3 && upper.find("R1") != std::string::npos)
        t.m_kind = Kind::DeepSeekR1;
    return t;
}

std::optional<ChatTemplate> ChatTemplate::named(std::string_view name, std::string_view date)
{
    for (const Kind k : kAllKinds) {
        ChatTemplate t(k, date);
        if (name == t.name())
            return t;
    }
    return std::nullopt;
}

JinjaTemplateReading readJinjaTemplate(std::string_view src, std::string_view date)
{
    using Kind = ChatTemplate::Kind;
    const auto has = [&](std::string_view marker) { return src.find(marker) != std::string_view::npos; };
    JinjaTemplateReading r;
    if (has("<|start_header_id|>") && has("Cutting Knowledge Date"))
        r.tpl = ChatTemplate(Kind::Llama3, date);
    else if (has("<\xEF\xBD\x9C"
                 "User\xEF\xBD\x9C>")) // <｜User｜>
        r.tpl = ChatTemplate(has("<think>") ? Kind::DeepSeekR1 : Kind::DeepSeekV3, date);
    else if (has("<|start|>") && has("<|channel|>"))
        r.tpl = ChatTemplate(Kind::Harmony, date);
    else if (has("<|im_start|>"))
        r.tpl = ChatTemplate(Kind::ChatMl, date);
    // What the template can render that the formatter leaves out (the workloads send none of it today).
    const std::pair<std::string_view, const char *> features[] = {{"tools", "tools"},
                                                                  {"tool_calls", "tool calls"},
                                                                  {"builtin_tools", "built-in tools"},
                                                                  {"reasoning_effort", "reasoning effort"},
                                                                  {"thinking", "reasoning content"},
                                                                  {"enable_thinking", "thinking switch"},
                                                                  {"image", "images"},
                                                                  {"documents", "documents"}};
    for (const auto &[marker, feature] : features)
        if (has(marker) && std::find(r.ignored.begin(), r.ignored.end(), feature) == r.ignored.end())
            r.ignored.push_back(feature);
    // A date the formatter fills (date_string, strftime_now) is expressed, not ignored.
    return r;
}

std::string ChatTemplate::knownNames()
{
    std::string out;
    for (const Kind k : kAllKinds)
        out += (out.empty() ? "" : ", ") + std::string(ChatTemplate(k).name());
    return out;
}

std::string ChatTemplate::backendDate(std::string_view backendId)
{
    // llama.cpp's Llama 3.x handler passes date_string = format_time(now, "%d %b %Y"); vLLM and SGLang
    // apply the template with only the request's chat_template_kwargs, so its default applies.
    return backendId == "llamacpp" ? "today" : "";
}

bool ChatTemplate::validDate(std::string_view date)
{
    int y = 0, m = 0, d = 0;
    return date.empty() || date == "today" || parseDate(date, y, m, d);
}

const char *ChatTemplate::name() const
{
    switch (m_kind) {
    case Kind::Llama3:
        return "llama3.1";
    case Kind::DeepSeekV3:
        return "deepseek_v3";
    case Kind::DeepSeekR1:
        return "deepseek_r1";
    case Kind::Harmony:
        return "harmony";
    case Kind::ChatMl:
        return "chatml";
    case Kind::Plain:
        break;
    }
    return "plain";
}

std::string ChatTemplate::dateText() const
{
    static const char *const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char buf[32];
    if (m_kind == Kind::Llama3)
        std::snprintf(buf, sizeof buf, "%02d %s %04d", m_day, kMonths[m_month - 1], m_year);
    else if (m_kind == Kind::Harmony)
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", m_year, m_month, m_day);
    else
        return {};
    return buf;
}

std::string ChatTemplate::todayUtc()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

std::string ChatTemplate::jsTrim(std::string_view s)
{
    if (!Utf8::isValid(s))
        return std::string(s);
    std::size_t begin = 0;
    while (begin < s.size()) {
        std::size_t i = begin;
        if (!jsWhitespace(Utf8::next(s, i)))
            break;
        begin = i;
    }
    // From the back: find the end of the last non-whitespace code point.
    std::size_t end = begin;
    for (std::size_t i = begin; i < s.size();) {
        if (!jsWhitespace(Utf8::next(s, i)))
            end = i;
    }
    return std::string(s.substr(begin, end - begin));
}

std::string ChatTemplate::render(const std::vector<ChatMessage> &messages, bool addGenerationPrompt) const
{
    switch (m_kind) {
    case Kind::Plain:
        break;
    case Kind::Llama3:
        return renderLlama3(messages, addGenerationPrompt);
    case Kind::DeepSeekV3:
    case Kind::DeepSeekR1:
        return renderDeepSeek(messages, addGenerationPrompt);
    case Kind::Harmony:
        return renderHarmony(messages, addGenerationPrompt);
    case Kind::ChatMl:
        return renderChatMl(messages, addGenerationPrompt);
    }
    std::string out;
    for (const ChatMessage &m : messages)
        out += m.content;
    return out;
}

std::string ChatTemplate::renderLlama3(const std::vector<ChatMessage> &messages,
                                       bool addGenerationPrompt) const
{
    // The system block is always there; a leading system message's text goes inside it.
    std::string out = "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
                      "Cutting Knowledge Date: December 2023\nToday Date: " +
                      dateText() + "\n\n";
    std::size_t from = 0;
    if (!messages.empty() && messages[0].role == "system") {
        out += jsTrim(messages[0].content);
        from = 1;
    }
    out += "<|eot_id|>";
    for (std::size_t i = from; i < messages.size(); ++i) {
        const ChatMessage &m = messages[i];
        if (m.role == "tool" || m.role == "ipython")
            out += "<|start_header_id|>ipython<|end_header_id|>\n\n" + m.content + "<|eot_id|>";
        else
            out +=
                "<|start_header_id|>" + m.role + "<|end_header_id|>\n\n" + jsTrim(m.content) + "<|eot_id|>";
    }
    if (addGenerationPrompt)
        out += "<|start_header_id|>assistant<|end_header_id|>\n\n";
    return out;
}

std::string ChatTemplate::renderDeepSeek(const std::vector<ChatMessage> &messages,
                                         bool addGenerationPrompt) const
{
    static const std::string kUser = "<\xEF\xBD\x9C"
                                     "User\xEF\xBD\x9C>";
    static const std::string kAssistant = "<\xEF\xBD\x9C"
                                          "Assistant\xEF\xBD\x9C>";
    // <｜end▁of▁sentence｜>, <｜begin▁of▁sentence｜> (U+FF5C, U+2581)
    static const std::string kEos = "<\xEF\xBD\x9C"
                                    "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>";
    static const std::string kBos = "<\xEF\xBD\x9C"
                                    "begin\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>";
    const bool r1 = m_kind == Kind::DeepSeekR1;
    std::string system;
    bool first = true;
    for (const ChatMessage &m : messages) {
        if (m.role != "system")
            continue;
        system += (first ? "" : "\n\n") + m.content;
        first = false;
    }
    std::string out = kBos + system;
    for (const ChatMessage &m : messages) {
        if (m.role == "user") {
            out += kUser + m.content;
        } else if (m.role == "assistant") {
            // R1 drops an earlier answer's reasoning: content.split('</think>')[-1].
            std::string_view content = m.content;
            if (const std::size_t end = content.rfind("</think>"); r1 && end != std::string_view::npos)
                content.remove_prefix(end + 8);
            out += kAssistant;
            out += content;
            out += kEos;
        }
    }
    if (addGenerationPrompt)
        out += r1 ? kAssistant + "<think>\n" : kAssistant;
    return out;
}

std::string ChatTemplate::renderChatMl(const std::vector<ChatMessage> &messages,
                                       bool addGenerationPrompt) const
{
    std::string out;
    if (!messages.empty() && messages[0].role != "system")
        out = "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n";
    for (const ChatMessage &m : messages)
        out += "<|im_start|>" + m.role + "\n" + m.content + "<|im_end|>\n";
    if (addGenerationPrompt)
        out += "<|im_start|>assistant\n";
    return out;
}

std::string ChatTemplate::renderHarmony(const std::vector<ChatMessage> &messages,
                                        bool addGenerationPrompt) const
{
    std::string out =
        "<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\n"
        "Knowledge cutoff: 2024-06\nCurrent date: " +
        dateText() +
        "\n\nReasoning: medium\n\n# Valid channels: analysis, commentary, final. Channel must be "
        "included for every message.<|end|>";
    std::size_t from = 0;
    if (!messages.empty() && (messages[0].role == "system" || messages[0].role == "developer")) {
        if (!messages[0].content.empty())
            out += "<|start|>developer<|message|># Instructions\n\n" + messages[0].content + "\n\n<|end|>";
        from = 1;
    }
    for (std::size_t i = from; i < messages.size(); ++i) {
        const ChatMessage &m = messages[i];
        if (m.role == "user") {
            out += "<|start|>user<|message|>" + m.content + "<|end|>";
        } else if (m.role == "assistant") {
            const bool last = i + 1 == messages.size();
            out += "<|start|>assistant<|channel|>final<|message|>" + m.content +
                   (last && !addGenerationPrompt ? "<|return|>" : "<|end|>");
        }
    }
    if (addGenerationPrompt)
        out += "<|start|>assistant";
    return out;
}

int ChatTemplate::count(const BpeTokenizer &tok, const std::vector<ChatMessage> &messages,
                        bool addGenerationPrompt) const
{
    return static_cast<int>(tok.count(render(messages, addGenerationPrompt)));
}

} // namespace Throughline
