#include "core/sim/simrequestparser.h"

#include "core/sim/simservercore.h"

#include <nlohmann/json.hpp>

#include <ctime>

namespace Throughline::SimDetail {

std::optional<RequestError> parseChatMessages(const nlohmann::json &j, std::vector<ChatMessage> &messages)
{
    auto it = j.find("messages");
    if (it == j.end() || !it->is_array() || it->empty())
        return RequestError{400, "'messages' must be a non-empty array", "messages"};
    for (const auto &m : *it) {
        if (!m.is_object() || !m.contains("role") || !m["role"].is_string())
            return RequestError{400, "each message needs a 'role'", "messages"};
        ChatMessage msg{m["role"].get<std::string>(), {}};
        auto c = m.find("content");
        if (c == m.end() || c->is_null()) {
        } else if (c->is_string())
            msg.content = c->get<std::string>();
        else if (c->is_array()) {
            for (const auto &part : *c)
                if (part.is_object() && part.value("type", "") == "text" && part.contains("text") &&
                    part["text"].is_string())
                    msg.content += part["text"].get<std::string>();
        } else
            return RequestError{400, "message 'content' must be a string or an array of parts", "messages"};
        messages.push_back(std::move(msg));
    }
    return std::nullopt;
}

namespace {

// An optional integer field; a present non-integer sets `bad` (one message covers all length fields).
std::optional<long long> intField(const nlohmann::json &j, const char *key, bool &bad)
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return std::nullopt;
    if (!it->is_number_integer()) {
        bad = true;
        return std::nullopt;
    }
    return it->get<long long>();
}

// Chat: the messages rendered through the model's template, counted as a server counts them.
std::optional<RequestError> countChatPrompt(const ServerCore &core, const nlohmann::json &j,
                                            RequestContext &ctx, std::vector<std::uint64_t> &prefixHashes)
{
    std::vector<ChatMessage> messages;
    if (auto err = parseChatMessages(j, messages))
        return err;
    // With a tokenizer: the templated prompt (special tokens, generation prompt), as a server counts it.
    const std::string text = core.chat.render(messages, true);
    ctx.nPrompt = std::max(1, core.countPrompt(text, prefixHashes));
    return std::nullopt;
}

// Completions: a string, a list of token ids, or a batch of one of either.
std::optional<RequestError> countTextPrompt(const ServerCore &core, const nlohmann::json &j,
                                            RequestContext &ctx, std::vector<std::uint64_t> &prefixHashes)
{
    auto it = j.find("prompt");
    if (it == j.end())
        return RequestError{400, "'prompt' is required", "prompt"};
    const nlohmann::json *p = &*it;
    if (p->is_array() && p->size() == 1 && ((*p)[0].is_string() || (*p)[0].is_array()))
        p = &(*p)[0]; // a batch of one
    if (p->is_string())
        ctx.nPrompt = std::max(1, core.countPrompt(p->get_ref<const std::string &>(), prefixHashes));
    else if (p->is_array() && !p->empty()) {
        for (const auto &t : *p)
            if (!t.is_number_integer() || t.get<long long>() < 0)
                return RequestError{400, "'prompt' token ids must be non-negative integers", "prompt"};
        ctx.nPrompt = int(p->size());
        if (core.opt.prefixBlockTokens > 0) {
            std::vector<std::int32_t> ids;
            ids.reserve(p->size());
            for (const auto &t : *p)
                ids.push_back(static_cast<std::int32_t>(t.get<long long>()));
            prefixHashes = PrefixCache::blockHashes(ids, core.opt.prefixBlockTokens);
        }
    } else
        return RequestError{400, "'prompt' must be a string, a list of token ids, or a batch of one",
                            "prompt"};
    return std::nullopt;
}

} // namespace

std::optional<RequestError> parseGenerationRequest(ServerCore &core, Api api, const std::string &body,
                                                   RequestContext &ctx,
                                                   std::vector<std::uint64_t> &prefixHashes)
{
    auto j = nlohmann::json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return RequestError{400, "Invalid JSON body: expected a JSON object", nullptr};
    ctx.api = api;
    ctx.tAcceptNs = nowNs();
    ctx.created = (long long)std::time(nullptr);

    if (auto it = j.find("model"); it != j.end() && !it->is_null()) {
        if (!it->is_string())
            return RequestError{400, "'model' must be a string", "model"};
        const auto name = it->get<std::string>();
        if (name != core.modelName && name != core.opt.model.hfId && name != core.opt.model.name)
            return RequestError{404, "The model `" + name + "` does not exist.", "model"};
    }
    // Prompt → token count (and prefix-cache block hashes).
    if (auto err = api == Api::Chat ? countChatPrompt(core, j, ctx, prefixHashes)
                                    : countTextPrompt(core, j, ctx, prefixHashes))
        return err;
    bool bad = false;
    auto maxTokens = intField(j, api == Api::Chat ? "max_completion_tokens" : "max_tokens", bad);
    if (!maxTokens)
        maxTokens = intField(j, "max_tokens", bad);
    auto minTokens = intField(j, "min_tokens", bad);
    if (bad)
        return RequestError{400, "max_tokens, max_completion_tokens and min_tokens must be integers",
                            nullptr};
    if (maxTokens && *maxTokens < 1)
        return RequestError{400, "max_tokens must be at least 1, got " + std::to_string(*maxTokens) + ".",
                            "max_tokens"};
    if (minTokens && *minTokens < 0)
        return RequestError{400, "min_tokens must be non-negative", "min_tokens"};
    if (minTokens && maxTokens && *minTokens > *maxTokens)
        return RequestError{400, "min_tokens must be less than or equal to max_tokens", "min_tokens"};
    bool ignoreEos = false;
    if (auto it = j.find("ignore_eos"); it != j.end() && it->is_boolean())
        ignoreEos = it->get<bool>();
    if (auto it = j.find("nvext"); it != j.end() && it->is_object()) {
        if (auto ie = it->find("ignore_eos"); ie != it->end() && ie->is_boolean())
            ignoreEos = ignoreEos || ie->get<bool>();
        if (auto ef = it->find("extra_fields"); ef != it->end() && ef->is_array())
            for (const auto &f : *ef)
                ctx.askedTiming = ctx.askedTiming || f == "timing";
    }
    if (auto it = j.find("stream"); it != j.end() && it->is_boolean())
        ctx.stream = it->get<bool>();
    if (auto it = j.find("stream_options"); it != j.end() && it->is_object()) {
        ctx.includeUsage = it->value("include_usage", false);
        ctx.continuousUsage = it->value("continuous_usage_stats", false);
    }
    // Context check (vLLM's message).
    const long long maxLen = core.maxModelLen;
    const long long requestedOut = maxTokens ? *maxTokens : std::max(0LL, maxLen - ctx.nPrompt);
    if (ctx.nPrompt + requestedOut > maxLen || ctx.nPrompt >= maxLen) {
        return RequestError{
            core.opt.overlongPromptStatus,
            "This model's maximum context length is " + std::to_string(maxLen) +
                " tokens. However, you requested " + std::to_string(ctx.nPrompt + requestedOut) +
                " tokens (" + std::to_string(ctx.nPrompt) + " in the messages, " +
                std::to_string(requestedOut) +
                " in the completion). Please reduce the length of the messages or completion.",
            "messages"};
    }
    // Output length: forced with ignore_eos, else a seeded "natural" length clamped to [min, max].
    const long long minOut = minTokens ? *minTokens : 0;
    if (ignoreEos) {
        ctx.nOut = int(requestedOut);
        ctx.finishReason = "length";
    } else {
        const double u = core.uniform();
        const long long natural = 1 + (long long)(u * 2.0 * std::max(1, core.opt.naturalOutputMean));
        const long long n = std::clamp(natural, std::max(1LL, minOut), requestedOut);
        ctx.nOut = int(n);
        ctx.finishReason = n < requestedOut ? "stop" : "length";
    }
    ctx.nOut = std::max(1, ctx.nOut);
    if (api == Api::Chat && core.opt.model.reasoning)
        ctx.reasoningTokens = std::min(ctx.nOut - 1, int(ctx.nOut * core.opt.reasoningShare));
    const long long seq = core.seq.fetch_add(1) + 1;
    ctx.seq = std::uint64_t(seq);
    ctx.id = (api == Api::Chat ? "chatcmpl-sim-" : "cmpl-sim-") + std::to_string(seq);
    core.requests.fetch_add(1, std::memory_order_relaxed);

    // Faults.
    if (core.opt.faults.any()) {
        ctx.fault = core.opt.faults.pick(core.uniform());
        ctx.faultAt = std::max(1, ctx.nOut / 2);
        if (!ctx.stream && ctx.fault != FaultKind::Http500 && ctx.fault != FaultKind::Http503 &&
            ctx.fault != FaultKind::Http429 && ctx.fault != FaultKind::Disconnect)
            ctx.fault = FaultKind::None; // stream-shaped faults need a stream
    }
    return std::nullopt;
}

} // namespace Throughline::SimDetail
