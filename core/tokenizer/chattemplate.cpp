#include "core/tokenizer/chattemplate.h"

#include "core/tokenizer/utf8.h"

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

} // namespace

ChatTemplate::ChatTemplate(Kind kind, std::string date)
    : m_kind(kind)
    , m_date(date.empty() ? todayUtc() : std::move(date))
{
}

ChatTemplate ChatTemplate::forTokenizer(const BpeTokenizer &tok, std::string date)
{
    const auto added = tok.addedTokens();
    if (hasAdded(added, "<|start_header_id|>") && hasAdded(added, "<|eot_id|>"))
        return ChatTemplate(Kind::Llama3, std::move(date));
    if (hasAdded(added, "<\xEF\xBD\x9C"
                        "User\xEF\xBD\x9C>")) // <｜User｜>
        return ChatTemplate(Kind::DeepSeekV3, std::move(date));
    if (hasAdded(added, "<|start|>") && hasAdded(added, "<|message|>") && hasAdded(added, "<|channel|>"))
        return ChatTemplate(Kind::Harmony, std::move(date));
    return ChatTemplate(Kind::Plain, std::move(date));
}

const char *ChatTemplate::name() const
{
    switch (m_kind) {
    case Kind::Llama3:
        return "llama3";
    case Kind::DeepSeekV3:
        return "deepseek_v3";
    case Kind::Harmony:
        return "harmony";
    case Kind::Plain:
        break;
    }
    return "plain";
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
    std::string out;
    switch (m_kind) {
    case Kind::Plain:
        for (const ChatMessage &m : messages)
            out += m.content;
        return out;
    case Kind::Llama3:
        out = "<|begin_of_text|>";
        for (const ChatMessage &m : messages)
            out +=
                "<|start_header_id|>" + m.role + "<|end_header_id|>\n\n" + jsTrim(m.content) + "<|eot_id|>";
        if (addGenerationPrompt)
            out += "<|start_header_id|>assistant<|end_header_id|>\n\n";
        return out;
    case Kind::DeepSeekV3: {
        static const std::string kUser = "<\xEF\xBD\x9C"
                                         "User\xEF\xBD\x9C>";
        static const std::string kAssistant = "<\xEF\xBD\x9C"
                                              "Assistant\xEF\xBD\x9C>";
        // <｜end▁of▁sentence｜>, <｜begin▁of▁sentence｜> (U+FF5C, U+2581)
        static const std::string kEos = "<\xEF\xBD\x9C"
                                        "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>";
        static const std::string kBos = "<\xEF\xBD\x9C"
                                        "begin\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>";
        std::string system;
        bool first = true;
        for (const ChatMessage &m : messages) {
            if (m.role != "system")
                continue;
            system += (first ? "" : "\n\n") + m.content;
            first = false;
        }
        out = kBos + system;
        for (const ChatMessage &m : messages) {
            if (m.role == "user")
                out += kUser + m.content;
            else if (m.role == "assistant")
                out += kAssistant + m.content + kEos;
        }
        if (addGenerationPrompt)
            out += kAssistant;
        return out;
    }
    case Kind::Harmony: {
        out = "<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\n"
              "Knowledge cutoff: 2024-06\nCurrent date: " +
              m_date +
              "\n\nReasoning: medium\n\n# Valid channels: analysis, commentary, final. Channel must be "
              "included for every message.<|end|>";
        std::size_t from = 0;
        if (!messages.empty() && (messages[0].role == "system" || messages[0].role == "developer")) {
            if (!messages[0].content.empty())
                out +=
                    "<|start|>developer<|message|># Instructions\n\n" + messages[0].content + "\n\n<|end|>";
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
    }
    return out;
}

int ChatTemplate::count(const BpeTokenizer &tok, const std::vector<ChatMessage> &messages,
                        bool addGenerationPrompt) const
{
    return static_cast<int>(tok.count(render(messages, addGenerationPrompt)));
}

} // namespace Throughline
