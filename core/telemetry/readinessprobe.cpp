#include "core/telemetry/readinessprobe.h"

#include <curl/curl.h>

#include <algorithm>
#include <thread>

namespace Throughline {

namespace {

std::size_t discard(char *, std::size_t size, std::size_t n, void *)
{
    return size * n;
}

// One GET; returns the HTTP status (0 on transport failure, message in error).
long get(CURL *easy, const std::string &url, const ReadinessOptions &options, std::string &error)
{
    const long timeoutMs = static_cast<long>(options.attemptTimeout.count());
    char errbuf[CURL_ERROR_SIZE] = {};
    curl_easy_reset(easy);
    curl_slist *headers = nullptr;
    std::string auth;
    if (!options.bearerToken.empty()) {
        auth = "Authorization: Bearer " + options.bearerToken;
        headers = curl_slist_append(headers, auth.c_str());
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    }
    if (!options.caFile.empty())
        curl_easy_setopt(easy, CURLOPT_CAINFO, options.caFile.c_str());
    if (options.insecure) {
        curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeoutMs);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, timeoutMs);
    curl_easy_setopt(easy, CURLOPT_NOPROXY, "localhost,127.0.0.1,::1");
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &discard);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf);
    const CURLcode rc = curl_easy_perform(easy);
    long status = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, nullptr);
    curl_slist_free_all(headers);
    if (rc != CURLE_OK) {
        error = (errbuf[0] ? std::string(errbuf) : std::string(curl_easy_strerror(rc))) + " (" + url + ")";
        return 0;
    }
    if (status < 200 || status > 299)
        error = "HTTP " + std::to_string(status) + " (" + url + ")";
    return status;
}

} // namespace

Result<ReadinessResult> ReadinessProbe::waitUntilReady(const std::string &baseUrl,
                                                       std::chrono::steady_clock::time_point runT0,
                                                       const ReadinessOptions &options,
                                                       const std::atomic<bool> *cancel)
{
    std::string root = baseUrl;
    while (!root.empty() && root.back() == '/')
        root.pop_back();
    if (root.size() >= 3 && root.compare(root.size() - 3, 3, "/v1") == 0)
        root.resize(root.size() - 3);

    CURL *easy = curl_easy_init();
    if (!easy)
        return makeError(ErrorCode::Internal, "curl_easy_init failed");
    ReadinessResult r;
    const auto start = std::chrono::steady_clock::now();
    auto nowNs = [&] {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - runT0)
            .count();
    };
    for (;;) {
        if (cancel && cancel->load()) {
            curl_easy_cleanup(easy);
            return makeError(ErrorCode::Cancelled, "readiness wait cancelled");
        }
        const bool needHealth = r.healthOkNs < 0;
        const std::string url = root + (needHealth ? "/health" : "/v1/models");
        std::string error;
        ++r.attempts;
        const long status = get(easy, url, options, error);
        if (status >= 200 && status <= 299) {
            if (needHealth)
                r.healthOkNs = nowNs();
            else
                r.modelsOkNs = nowNs();
            if (!options.requireModels || r.modelsOkNs >= 0) {
                r.readyNs = std::max(r.healthOkNs, r.modelsOkNs);
                curl_easy_cleanup(easy);
                return r;
            }
            continue; // ask for /v1/models right away
        }
        r.lastError = error;
        if (std::chrono::steady_clock::now() - start >= options.deadline) {
            curl_easy_cleanup(easy);
            return makeError(ErrorCode::Network, "endpoint not ready after " +
                                                     std::to_string(options.deadline.count() / 1000) +
                                                     " s: " + r.lastError);
        }
        std::this_thread::sleep_for(options.pollInterval);
    }
}

} // namespace Throughline
