#pragma once
// Asks a serving engine how many prompt tokens it counts for a chat message list, the way it will count a
// request's (template, special tokens and generation prompt included) — for prompt calibration
// (TokenizerPromptSource::calibrate). Methods, tried in this order until one answers, then kept:
//  - "tokenize":        POST /tokenize {"model", "messages", "add_generation_prompt": true} → "count"
//                       (vLLM and SGLang render the chat template there; the answer is the request's count)
//  - "apply-template":  POST /apply-template {"messages"} → "prompt", then POST /tokenize {"content": prompt,
//                       "add_special": true, "parse_special": true} → "tokens" (llama.cpp's llama-server: the
//                       rendered prompt has no BOS, add_special adds it as a request does)
//  - "probe":           one non-streamed POST /v1/chat/completions with max_tokens 1 → usage.prompt_tokens
//                       (any OpenAI-compatible server; costs one tiny generation)
// The campaign's extra body is merged into each (chat_template_kwargs such as a date reach the template).
// Blocking; its own easy handle per call (never the load's connections). Not thread-safe (one caller).

#include "core/tokenizer/chattemplate.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace Throughline {

struct Scenario;

struct ServerCountTarget {
    std::string baseUrl; // "http://host:port" or with "/v1"
    std::string apiKey;
    std::string model; // served model name
    nlohmann::json extraBody = nlohmann::json::object();
    std::string caFile;
    bool insecure = false;
    double timeoutS = 30;

    // The scenario's endpoint (served model name, extra body, TLS settings) with a timeout of the scenario's
    // request timeout held to 5–60 s: calibration asks before the first point and must neither hang nor give
    // up on a slow first answer.
    static ServerCountTarget forScenario(const Scenario &sc, const std::string &apiKey);
};

class ServerChatCounter
{
public:
    explicit ServerChatCounter(ServerCountTarget target);

    // The server's prompt tokens for these messages; an error when no method answered (the message lists
    // what each answered).
    Result<int> count(const std::vector<ChatMessage> &messages);
    // The method that answered last ("tokenize", "apply-template", "probe"); "" before any answer.
    const std::string &method() const { return m_method; }

private:
    Result<int> byTokenize(const nlohmann::json &messages);
    Result<int> byApplyTemplate(const nlohmann::json &messages);
    Result<int> byProbe(const nlohmann::json &messages);
    // POST body (JSON) to root + path; the parsed answer on HTTP 200, else an error naming path and status.
    Result<nlohmann::json> post(const std::string &path, nlohmann::json body) const;

    ServerCountTarget m_target;
    std::string m_root;
    std::string m_method;
};

} // namespace Throughline
