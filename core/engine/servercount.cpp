#include "core/engine/servercount.h"

#include "core/campaign/scenario.h"
#include "core/engine/endpointprobe.h"
#include "core/engine/secrets.h"

#include <curl/curl.h>

#include <algorithm>
#include <mutex>

namespace Throughline {
namespace {

std::size_t appendBody(char *data, std::size_t size, std::size_t n, void *user)
{
    auto *s = static_cast<std::string *>(user);
    if (s->size() < (8u << 20))
        s->append(data, size * n);
    return size * n;
}

nlohmann::json messagesJson(const std::vector<ChatMessage> &messages)
{
    nlohmann::json a = nlohmann::json::array();
    for (const ChatMessage &m : messages)
        a.push_back({{"role", m.role}, {"content", m.content}});
    return a;
}

// The extra-body fields that shape the rendered prompt (the rest — sampling, stream options — do not).
void mergeTemplateFields(nlohmann::json &body, const nlohmann::json &extra)
{
    if (!extra.is_object())
        return;
    for (const char *k : {"chat_template_kwargs", "chat_template", "add_generation_prompt"})
        if (auto it = extra.find(k); it != extra.end())
            body[k] = *it;
}

} // namespace

ServerCountTarget ServerCountTarget::forScenario(const Scenario &sc, const std::string &apiKey)
{
    ServerCountTarget target;
    target.baseUrl = sc.endpoint.baseUrl;
    target.apiKey = apiKey;
    target.model = sc.endpoint.servedModel.empty() ? sc.model.name : sc.endpoint.servedModel;
    target.extraBody = sc.endpoint.extraBody;
    target.caFile = sc.endpoint.caFile;
    target.insecure = sc.endpoint.insecure;
    target.timeoutS = std::clamp(sc.plan.requestTimeoutS, 5.0, 60.0);
    return target;
}

ServerChatCounter::ServerChatCounter(ServerCountTarget target)
    : m_target(std::move(target))
    , m_root(serverRoot(m_target.baseUrl))
{
}

Result<nlohmann::json> ServerChatCounter::post(const std::string &path, nlohmann::json body) const
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_ALL); });
    const std::string url = m_root + path;
    const std::string payload = body.dump();
    std::string answer;
    CURL *e = curl_easy_init();
    curl_easy_setopt(e, CURLOPT_URL, url.c_str());
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(m_target.timeoutS * 1000));
    curl_easy_setopt(e, CURLOPT_NOPROXY, "localhost,127.0.0.0/8,::1");
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, payload.c_str());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, static_cast<long>(payload.size()));
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &appendBody);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &answer);
    if (!m_target.caFile.empty())
        curl_easy_setopt(e, CURLOPT_CAINFO, m_target.caFile.c_str());
    if (m_target.insecure) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    curl_slist *h = curl_slist_append(nullptr, "Content-Type: application/json");
    if (!m_target.apiKey.empty())
        h = curl_slist_append(h, ("Authorization: Bearer " + m_target.apiKey).c_str());
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
    const CURLcode rc = curl_easy_perform(e);
    long status = 0;
    if (rc == CURLE_OK)
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(h);
    curl_easy_cleanup(e);
    if (rc != CURLE_OK)
        return makeError(ErrorCode::Network, path + ": " + curl_easy_strerror(rc));
    if (status != 200)
        return makeError(ErrorCode::NotFound, path + ": HTTP " + std::to_string(status) + " " +
                                                  redactSecrets(answer.substr(0, 120), m_target.apiKey));
    auto j = nlohmann::json::parse(answer, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorCode::InvalidInput, path + ": the answer is not a JSON object");
    return j;
}

Result<int> ServerChatCounter::byTokenize(const nlohmann::json &messages)
{
    nlohmann::json body = {
        {"model", m_target.model}, {"messages", messages}, {"add_generation_prompt", true}};
    mergeTemplateFields(body, m_target.extraBody);
    auto j = post("/tokenize", std::move(body));
    if (!j)
        return j.error();
    if (const auto it = j->find("count"); it != j->end() && it->is_number_integer())
        return it->get<int>();
    return makeError(ErrorCode::InvalidInput, "/tokenize: no \"count\" in the answer");
}

Result<int> ServerChatCounter::byApplyTemplate(const nlohmann::json &messages)
{
    nlohmann::json body = {{"messages", messages}};
    mergeTemplateFields(body, m_target.extraBody);
    auto rendered = post("/apply-template", std::move(body));
    if (!rendered)
        return rendered.error();
    const auto p = rendered->find("prompt");
    if (p == rendered->end() || !p->is_string())
        return makeError(ErrorCode::InvalidInput, "/apply-template: no \"prompt\" in the answer");
    auto ids = post("/tokenize", {{"content", *p}, {"add_special", true}, {"parse_special", true}});
    if (!ids)
        return ids.error();
    const auto t = ids->find("tokens");
    if (t == ids->end() || !t->is_array())
        return makeError(ErrorCode::InvalidInput, "/tokenize: no \"tokens\" in the answer");
    return static_cast<int>(t->size());
}

Result<int> ServerChatCounter::byProbe(const nlohmann::json &messages)
{
    nlohmann::json body = {
        {"model", m_target.model}, {"messages", messages}, {"max_tokens", 1}, {"temperature", 0}};
    if (m_target.extraBody.is_object())
        body.merge_patch(m_target.extraBody);
    body["stream"] = false;
    body.erase("stream_options");
    auto j = post("/v1/chat/completions", std::move(body));
    if (!j)
        return j.error();
    const auto u = j->find("usage");
    if (u == j->end() || !u->is_object() || !u->contains("prompt_tokens") ||
        !(*u)["prompt_tokens"].is_number_integer())
        return makeError(ErrorCode::InvalidInput,
                         "/v1/chat/completions: no usage.prompt_tokens in the answer");
    return (*u)["prompt_tokens"].get<int>();
}

Result<int> ServerChatCounter::count(const std::vector<ChatMessage> &messages)
{
    const nlohmann::json msgs = messagesJson(messages);
    using Method = Result<int> (ServerChatCounter::*)(const nlohmann::json &);
    const std::pair<const char *, Method> methods[] = {
        {"tokenize", &ServerChatCounter::byTokenize},
        {"apply-template", &ServerChatCounter::byApplyTemplate},
        {"probe", &ServerChatCounter::byProbe}};
    std::string why;
    for (const auto &[name, fn] : methods) {
        if (!m_method.empty() && m_method != name)
            continue; // keep the method that answered first
        auto n = (this->*fn)(msgs);
        if (n) {
            m_method = name;
            return n;
        }
        why += (why.empty() ? "" : "; ") + n.error().message;
        if (!m_method.empty())
            break;
    }
    return makeError(ErrorCode::Network, why);
}

} // namespace Throughline
