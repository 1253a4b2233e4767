#include "core/engine/endpointprobe.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string_view>
#include <thread>

namespace Throughline {
namespace {

std::size_t curlAppend(char *data, std::size_t size, std::size_t n, void *user)
{
    auto *s = static_cast<std::string *>(user);
    if (s->size() < (1u << 20))
        s->append(data, size * n);
    return size * n;
}

nlohmann::json jsonOrNull(const std::string &body, long status)
{
    auto j = nlohmann::json::parse(body, nullptr, false);
    return (status == 200 && !j.is_discarded()) ? j : nlohmann::json(nullptr);
}

} // namespace

std::string httpGet(const std::string &url, double timeoutS, long *status, const std::string &apiKey)
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_ALL); });
    std::string body;
    CURL *e = curl_easy_init();
    curl_easy_setopt(e, CURLOPT_URL, url.c_str());
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(timeoutS * 1000));
    curl_easy_setopt(e, CURLOPT_NOPROXY, "localhost,127.0.0.0/8,::1");
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &curlAppend);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &body);
    curl_slist *h = nullptr;
    if (!apiKey.empty()) {
        const std::string auth = "Authorization: Bearer " + apiKey;
        h = curl_slist_append(h, auth.c_str());
        curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
    }
    const CURLcode rc = curl_easy_perform(e);
    long code = 0;
    if (rc == CURLE_OK)
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
    else
        body = curl_easy_strerror(rc);
    *status = code;
    curl_slist_free_all(h);
    curl_easy_cleanup(e);
    return body;
}

std::string serverRoot(const std::string &baseUrl)
{
    std::string base = baseUrl;
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0)
        base.resize(base.size() - 3);
    return base;
}

bool healthCheck(const std::string &baseUrl, double timeoutS, std::string *detail)
{
    const std::string base = serverRoot(baseUrl);
    for (const char *path : {"/health", "/v1/models"}) {
        long status = 0;
        const std::string body = httpGet(base + path, timeoutS, &status);
        if (status > 0 && status < 500)
            return true;
        if (detail)
            *detail = status > 0 ? "HTTP " + std::to_string(status) + " from " + base + path
                                 : body + " (" + base + path + ")";
    }
    return false;
}

double runningRequests(const std::string &metricsText)
{
    static const char *kNames[] = {"vllm:num_requests_running", "sglang:num_running_reqs",
                                   "num_requests_running"};
    double total = -1;
    std::size_t pos = 0;
    while (pos < metricsText.size()) {
        std::size_t eol = metricsText.find('\n', pos);
        if (eol == std::string::npos)
            eol = metricsText.size();
        const std::string_view line(metricsText.data() + pos, eol - pos);
        for (const char *n : kNames) {
            if (line.rfind(n, 0) == 0) {
                const auto sp = line.rfind(' ');
                if (sp != std::string_view::npos)
                    total = std::max(total, 0.0) + std::atof(std::string(line.substr(sp + 1)).c_str());
                break;
            }
        }
        pos = eol + 1;
    }
    return total;
}

void waitUntilIdle(const std::string &baseUrl, double cooldownS, double timeScale, double timeoutS,
                   const std::atomic<bool> &cancelled)
{
    if (cooldownS > 0)
        std::this_thread::sleep_for(std::chrono::duration<double>(cooldownS / timeScale));
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutS);
    while (std::chrono::steady_clock::now() < until && !cancelled.load()) {
        long status = 0;
        const std::string text = httpGet(baseUrl + "/metrics", 2, &status);
        const double running = status == 200 ? runningRequests(text) : -1;
        if (running <= 0)
            return; // idle, or the server does not tell
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

nlohmann::json serverFacts(const std::string &baseUrl, const std::string &apiKey)
{
    const std::string base = serverRoot(baseUrl);
    nlohmann::json s = nlohmann::json::object();
    long st = 0;
    const std::string models = httpGet(base + "/v1/models", 5, &st, apiKey);
    s["v1_models"] = jsonOrNull(models, st);
    const std::string ver = httpGet(base + "/version", 5, &st, apiKey);
    s["version"] = jsonOrNull(ver, st);
    return s;
}

} // namespace Throughline
