#include "core/engine/requestbuilder.h"

#include <cctype>

namespace Throughline {

RequestBuilder::RequestBuilder(const Scenario &scenario, std::string runId,
                               std::shared_ptr<const PromptSource> prompts, std::string apiKey)
    : m_scenario(scenario)
    , m_runId(std::move(runId))
    , m_prompts(std::move(prompts))
    , m_apiKey(std::move(apiKey))
{
    m_model =
        m_scenario.endpoint.servedModel.empty() ? m_scenario.model.name : m_scenario.endpoint.servedModel;
    m_tokenIds =
        m_scenario.endpoint.flavour == ApiFlavour::Completions && m_scenario.backend.acceptsTokenIdPrompts;
    if (!m_prompts)
        m_prompts = std::make_shared<SyntheticPromptSource>(m_scenario.plan.seed);
    m_prompts->setRunSalt(PromptSource::runSalt(m_runId)); // no prefix-cache hits from an earlier run
}

std::string RequestBuilder::traceparent(const std::string &runId, std::uint64_t seq)
{
    static const char *hex = "0123456789abcdef";
    std::string trace;
    for (char c : runId)
        if (std::isxdigit(static_cast<unsigned char>(c)))
            trace += char(std::tolower(static_cast<unsigned char>(c)));
    if (trace.size() != 32 || trace.find_first_not_of('0') == std::string::npos) {
        // Not a UUID: two FNV-1a hashes of the id make the 128-bit trace id (never all zeros).
        trace.clear();
        for (std::uint64_t basis : {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull}) {
            std::uint64_t h = basis;
            for (unsigned char c : runId)
                h = (h ^ c) * 0x100000001b3ull;
            for (int i = 15; i >= 0; --i)
                trace += hex[(h >> (4 * i)) & 15];
        }
    }
    std::string parent;
    const std::uint64_t id = seq + 1; // W3C: the parent id must not be all zeros
    for (int i = 15; i >= 0; --i)
        parent += hex[(id >> (4 * i)) & 15];
    return "00-" + trace + '-' + parent + "-01";
}

std::string RequestBuilder::endpointUrl(const std::string &baseUrl, ApiFlavour flavour)
{
    std::string base = baseUrl;
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0)
        base.resize(base.size() - 3);
    return base + (flavour == ApiFlavour::Chat ? "/v1/chat/completions" : "/v1/completions");
}

nlohmann::json RequestBuilder::bodyFor(const Prompt &prompt, int osl) const
{
    using nlohmann::json;
    const BackendPreset &b = m_scenario.backend;
    json body = json::object();
    body["model"] = m_model;
    if (m_scenario.endpoint.flavour == ApiFlavour::Chat) {
        json messages = json::array();
        for (const ChatMessage &m : prompt.earlier)
            messages.push_back(json{{"role", m.role}, {"content", m.content}});
        messages.push_back(json{{"role", "user"}, {"content", prompt.text}});
        body["messages"] = std::move(messages);
    } else if (!prompt.tokenIds.empty()) {
        body["prompt"] = prompt.tokenIds;
    } else {
        body["prompt"] = prompt.text;
    }
    // Forced output length: the preset names the field; min_tokens / ignore_eos where the backend honours
    // them.
    body[b.maxTokensField.empty() ? std::string("max_tokens") : b.maxTokensField] = osl;
    if (b.sendMinTokens)
        body["min_tokens"] = osl;
    if (b.sendIgnoreEos)
        body["ignore_eos"] = true;
    if (b.sendNvextIgnoreEos)
        body["nvext"]["ignore_eos"] = true;
    // Dynamo puts nvext.timing on the final chunk only when the request asks for it.
    if (m_scenario.endpoint.serverTiming.formatFor(b) == "dynamo-nvext")
        body["nvext"]["extra_fields"] = json::array({"timing"});
    body["stream"] = true;
    body["stream_options"] = json{{"include_usage", true}};
    body["temperature"] = 0;
    // Campaign extras win (RFC 7386 merge patch: {"stream_options": {"include_usage": false}} turns usage
    // off).
    if (m_scenario.endpoint.extraBody.is_object() && !m_scenario.endpoint.extraBody.empty())
        body.merge_patch(m_scenario.endpoint.extraBody);
    return body;
}

HttpRequest RequestBuilder::build(std::uint64_t seq, int isl, int osl, const std::string &baseUrl) const
{
    HttpRequest r;
    r.isl = isl;
    r.osl = osl;
    r.requestId = m_runId + "-" + std::to_string(seq);
    r.url = endpointUrl(baseUrl.empty() ? m_scenario.endpoint.baseUrl : baseUrl, m_scenario.endpoint.flavour);
    const Prompt prompt = m_prompts->make(seq, isl, m_tokenIds);
    r.body = bodyFor(prompt, osl).dump();
    r.headers.reserve(6 + m_scenario.endpoint.extraHeaders.size());
    r.headers.emplace_back("Content-Type: application/json");
    r.headers.emplace_back("Accept: text/event-stream");
    r.headers.push_back(m_scenario.backend.requestIdHeader + ": " + r.requestId);
    r.headers.push_back(m_scenario.backend.traceHeader + ": " + traceparent(m_runId, seq));
    if (!m_apiKey.empty())
        r.headers.push_back("Authorization: Bearer " + m_apiKey);
    for (const auto &[k, v] : m_scenario.endpoint.extraHeaders)
        r.headers.push_back(k + ": " + v);
    return r;
}

std::vector<std::string> RequestBuilder::authHeaders() const
{
    if (m_apiKey.empty())
        return {};
    return {"Authorization: Bearer " + m_apiKey};
}

nlohmann::json RequestBuilder::templateJson() const
{
    using nlohmann::json;
    Prompt elided;
    elided.text = "<" + m_prompts->name() + " prompt>";
    if (m_tokenIds)
        elided.tokenIds = {0};
    json body = bodyFor(elided, m_scenario.phase.osl);
    if (m_tokenIds)
        body["prompt"] = "<token ids>";
    json headers = json::array();
    headers.push_back("Content-Type: application/json");
    headers.push_back("Accept: text/event-stream");
    headers.push_back(m_scenario.backend.requestIdHeader + ": <run-uuid>-<seq>");
    headers.push_back(m_scenario.backend.traceHeader + ": 00-<run-uuid hex>-<seq + 1, 16 hex>-01");
    if (!m_apiKey.empty())
        headers.push_back("Authorization: Bearer ***");
    for (const auto &[k, v] : m_scenario.endpoint.extraHeaders)
        headers.push_back(k + ": " + v);
    return json{{"url", endpointUrl(m_scenario.endpoint.baseUrl, m_scenario.endpoint.flavour)},
                {"flavour", m_scenario.endpoint.flavour == ApiFlavour::Chat ? "chat" : "completions"},
                {"prompt_source", m_prompts->name()},
                {"headers", headers},
                {"body", body}};
}

} // namespace Throughline
