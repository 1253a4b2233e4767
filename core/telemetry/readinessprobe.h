#pragma once
// Cold start, "time to ready": polls GET <base>/health and then GET <base>/v1/models from a start moment
// until both answer 2xx (or the deadline passes / cancel is set). The engine then times the first request.
// Blocking; call it on a worker thread. Loopback bypasses proxies. Each attempt has a short timeout so a
// server that accepts connections but hangs is retried rather than waited on.

#include "core/util/result.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace Throughline {

struct ReadinessOptions {
    std::chrono::milliseconds pollInterval{250};
    std::chrono::milliseconds attemptTimeout{1000};
    std::chrono::milliseconds deadline{600'000}; // give up after this long (error Network)
    bool requireModels = true;                   // also wait for /v1/models
    std::string bearerToken;                     // sent as Authorization: Bearer (servers started with a key)
    std::string caFile;                          // TLS: extra CA bundle
    bool insecure = false;                       // TLS: skip verification
};

struct ReadinessResult {
    std::int64_t healthOkNs = -1; // run clock (relative to runT0) of the first 2xx /health
    std::int64_t modelsOkNs = -1; // first 2xx /v1/models (−1 when not required)
    std::int64_t readyNs = -1;    // max of the above: the endpoint is ready
    int attempts = 0;             // HTTP attempts in total
    std::string lastError;        // of the last failed attempt
};

class ReadinessProbe
{
public:
    // baseUrl without /v1 (a trailing /v1 is stripped). runT0 is the run clock's zero (the start moment).
    static Result<ReadinessResult> waitUntilReady(const std::string &baseUrl,
                                                  std::chrono::steady_clock::time_point runT0,
                                                  const ReadinessOptions &options = {},
                                                  const std::atomic<bool> *cancel = nullptr);
};

} // namespace Throughline
