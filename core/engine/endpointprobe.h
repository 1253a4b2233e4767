#pragma once
// Small blocking HTTP probes of an endpoint, on their own easy handles (never the load's connections):
// the health check before each point, the idle check between points and the server facts recorded in
// provenance. Reentrant; each call opens and closes its own connection.

#include <atomic>
#include <nlohmann/json.hpp>
#include <string>

namespace Throughline {

// GET url; *status = HTTP status, 0 on a transport error (the body is then curl's error text).
std::string httpGet(const std::string &url, double timeoutS, long *status, const std::string &apiKey = {});

// "http://h:p/v1/" → "http://h:p": the server root the probes append their paths to.
std::string serverRoot(const std::string &baseUrl);

// Up = any HTTP answer below 500 from /health or /v1/models (servers without /health answer 404); *detail
// says why not.
bool healthCheck(const std::string &baseUrl, double timeoutS, std::string *detail);

// Sum of the "requests running" gauges in a Prometheus exposition (vLLM, SGLang, TRT-LLM names); -1 if none.
double runningRequests(const std::string &metricsText);

// Waits cooldownS (model time ÷ timeScale), then until the server reports no running request or timeoutS
// passed or *cancelled turns true. Servers that do not tell count as idle.
void waitUntilIdle(const std::string &baseUrl, double cooldownS, double timeScale, double timeoutS,
                   const std::atomic<bool> &cancelled);

// {"v1_models": …, "version": …} as the server answers them (null when it does not).
nlohmann::json serverFacts(const std::string &baseUrl, const std::string &apiKey);

} // namespace Throughline
