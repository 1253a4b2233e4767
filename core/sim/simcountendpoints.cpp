#include "core/sim/simcountendpoints.h"

#include "core/sim/simhttp.h"
#include "core/sim/simrequestparser.h"
#include "core/sim/simservercore.h"

#include <nlohmann/json.hpp>

namespace Throughline::SimDetail {

namespace {

// The BOS the template writes at the start of its render (llama.cpp's /apply-template leaves it out and its
// /tokenize with add_special puts it back).
std::string bosOf(const ChatTemplate &chat)
{
    switch (chat.kind()) {
    case ChatTemplate::Kind::Llama3:
        return "<|begin_of_text|>";
    case ChatTemplate::Kind::DeepSeekV3:
    case ChatTemplate::Kind::DeepSeekR1:
        return "<\xEF\xBD\x9C"
               "begin\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>";
    default:
        return {};
    }
}

CountAnswer refusal(int status, const std::string &message, const char *param = nullptr)
{
    return CountAnswer{true, status, errorBody(status, message, errorType(status), param)};
}

CountAnswer tokensAnswer(const ServerCore &core, const std::string &text, bool withCount)
{
    const std::vector<TokenId> ids = core.tok->encode(text);
    nlohmann::json j = {{"tokens", ids}};
    if (withCount) {
        j["count"] = ids.size();
        j["max_model_len"] = core.maxModelLen;
    }
    return CountAnswer{true, 200, j.dump()};
}

} // namespace

CountAnswer countEndpoint(const ServerCore &core, const std::string &target, const std::string &body)
{
    const std::string &form = core.opt.countEndpoints;
    const bool vllm = form.empty() || form == "vllm";
    const bool llamacpp = form == "llamacpp";
    if (!(target == "/tokenize" && (vllm || llamacpp)) && !(target == "/apply-template" && llamacpp))
        return {};
    if (!core.tok || core.opt.promptTokenCounter)
        return refusal(404, "Not Found: " + target + " (the simulator counts prompts by " +
                                core.promptCounting + ", not with a tokenizer)");
    const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
    if (!j.is_object())
        return refusal(400, "the body is not a JSON object");
    if (target == "/apply-template") {
        std::vector<ChatMessage> messages;
        if (auto err = parseChatMessages(j, messages))
            return refusal(err->status, err->message, err->param);
        std::string prompt = core.chat.render(messages, true);
        if (const std::string bos = bosOf(core.chat); !bos.empty() && prompt.rfind(bos, 0) == 0)
            prompt.erase(0, bos.size());
        return CountAnswer{true, 200, nlohmann::json{{"prompt", prompt}}.dump()};
    }
    if (llamacpp) {
        const auto c = j.find("content");
        if (c == j.end() || !c->is_string())
            return CountAnswer{true, 200, R"({"tokens":[]})"}; // what llama-server answers without content
        const bool addSpecial = j.value("add_special", false);
        return tokensAnswer(core, (addSpecial ? bosOf(core.chat) : std::string()) + c->get<std::string>(),
                            false);
    }
    if (j.contains("messages")) {
        std::vector<ChatMessage> messages;
        if (auto err = parseChatMessages(j, messages))
            return refusal(err->status, err->message, err->param);
        return tokensAnswer(core, core.chat.render(messages, j.value("add_generation_prompt", true)), true);
    }
    const auto p = j.find("prompt");
    if (p == j.end() || !p->is_string())
        return refusal(400, "either 'messages' or 'prompt' is required", "prompt");
    return tokensAnswer(core, p->get<std::string>(), true); // as completions text prompts are counted
}

} // namespace Throughline::SimDetail
