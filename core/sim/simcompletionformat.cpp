#include "core/sim/simcompletionformat.h"

#include "core/sim/simservercore.h"

#include <nlohmann/json.hpp>

namespace Throughline::SimDetail {

void appendChunkPrefix(std::string &s, const ServerCore &core, const RequestContext &ctx)
{
    s += "data: {\"id\":\"";
    s += ctx.id;
    s += ctx.api == Api::Chat ? "\",\"object\":\"chat.completion.chunk\",\"created\":"
                              : "\",\"object\":\"text_completion\",\"created\":";
    appendInt(s, ctx.created);
    s += ",\"model\":\"";
    s += core.modelName;
    s += "\",\"choices\":[";
}

void appendUsage(std::string &s, const RequestContext &ctx, int completion)
{
    s += "\"usage\":{\"prompt_tokens\":";
    appendInt(s, ctx.nPrompt);
    s += ",\"total_tokens\":";
    appendInt(s, ctx.nPrompt + completion);
    s += ",\"completion_tokens\":";
    appendInt(s, completion);
    if (ctx.nCached >= 0) {
        s += ",\"prompt_tokens_details\":{\"cached_tokens\":";
        appendInt(s, ctx.nCached);
        s += '}';
    }
    s += '}';
}

void appendRoleChunk(std::string &s, const ServerCore &core, const RequestContext &ctx)
{
    appendChunkPrefix(s, core, ctx);
    s += "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_"
         "reason\":null}]";
    if (ctx.continuousUsage) {
        s += ',';
        appendUsage(s, ctx, 0);
    }
    s += "}\n\n";
}

void appendTokenChunk(std::string &s, const ServerCore &core, const RequestContext &ctx, int i,
                      std::string_view extra)
{
    const bool last = i == ctx.nOut;
    const std::string_view word = kWords[size_t(i) % kWords.size()];
    appendChunkPrefix(s, core, ctx);
    if (ctx.api == Api::Chat) {
        if (i <= ctx.reasoningTokens)
            s += core.opt.reasoningContentField ? "{\"index\":0,\"delta\":{\"reasoning_content\":\""
                                                : "{\"index\":0,\"delta\":{\"reasoning\":\"";
        else
            s += "{\"index\":0,\"delta\":{\"content\":\"";
        s += word;
        s += "\"},\"logprobs\":null,\"finish_reason\":";
    } else {
        s += "{\"index\":0,\"text\":\"";
        s += word;
        s += "\",\"logprobs\":null,\"finish_reason\":";
    }
    if (last) {
        s += '"';
        s += ctx.finishReason;
        s += "\"}]";
    } else {
        s += "null}]";
    }
    // Completions: usage rides in the last chunk; continuous_usage_stats puts it in every chunk.
    if (ctx.continuousUsage || (last && ctx.includeUsage && ctx.api == Api::Completions)) {
        s += ',';
        appendUsage(s, ctx, i);
    }
    if (!extra.empty()) {
        s += ',';
        s += extra;
    }
    s += "}\n\n";
}

void appendUsageChunk(std::string &s, const ServerCore &core, const RequestContext &ctx, int completion,
                      std::string_view extra)
{
    appendChunkPrefix(s, core, ctx);
    s += ']';
    s += ',';
    appendUsage(s, ctx, completion);
    if (!extra.empty()) {
        s += ',';
        s += extra;
    }
    s += "}\n\n";
}

std::string nonStreamBody(const ServerCore &core, const RequestContext &ctx, std::string_view extra)
{
    std::string content, reasoning;
    for (int i = 1; i <= ctx.nOut; ++i)
        (i <= ctx.reasoningTokens ? reasoning : content) += kWords[size_t(i) % kWords.size()];
    nlohmann::json usage = {{"prompt_tokens", ctx.nPrompt},
                            {"total_tokens", ctx.nPrompt + ctx.nOut},
                            {"completion_tokens", ctx.nOut}};
    if (ctx.nCached >= 0)
        usage["prompt_tokens_details"] = {{"cached_tokens", ctx.nCached}};
    // One choice; the keys of nlohmann::json objects are sorted, so the build order does not show.
    nlohmann::json choice = {{"index", 0}, {"logprobs", nullptr}, {"finish_reason", ctx.finishReason}};
    if (ctx.api == Api::Chat) {
        nlohmann::json msg = {{"role", "assistant"}, {"content", content}};
        if (ctx.reasoningTokens > 0)
            msg[core.opt.reasoningContentField ? "reasoning_content" : "reasoning"] = reasoning;
        choice["message"] = std::move(msg);
    } else {
        choice["text"] = content;
    }
    nlohmann::json j = {{"id", ctx.id},
                        {"object", ctx.api == Api::Chat ? "chat.completion" : "text_completion"},
                        {"created", ctx.created},
                        {"model", core.modelName},
                        {"choices", nlohmann::json::array({std::move(choice)})},
                        {"usage", usage}};
    if (!extra.empty())
        j.merge_patch(nlohmann::json::parse("{" + std::string(extra) + "}"));
    return j.dump();
}

} // namespace Throughline::SimDetail
