#pragma once
// Builds the HTTP request of one streamed generation for a scenario: URL per flavour, JSON body with the
// backend preset's forced-length fields, streaming with usage, the endpoint's extra body fields and headers,
// X-Request-Id and the Authorization header. Immutable after construction; build() is reentrant.

#include "core/campaign/scenario.h"
#include "core/engine/promptsource.h"

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace Throughline {

struct HttpRequest {
    std::string url;
    std::string body;
    std::vector<std::string> headers; // "Name: value" lines; may contain the API key (never log them)
    std::string requestId;            // <run-uuid>-<seq>
    int isl = 0;
    int osl = 0;
};

class RequestBuilder
{
public:
    // apiKey: resolved key (may be empty); held only in memory.
    RequestBuilder(const Scenario &scenario, std::string runId, std::shared_ptr<const PromptSource> prompts,
                   std::string apiKey);

    // baseUrl: one of the endpoint's URLs (replica routing is the caller's job); empty = endpoint.baseUrl.
    HttpRequest build(std::uint64_t seq, int isl, int osl, const std::string &baseUrl = {}) const;

    // The body with the prompt elided and the headers with the key redacted: the per-scenario request
    // template recorded in provenance.
    nlohmann::json templateJson() const;

    // W3C trace context of request `seq` (docs/server-timing.md): "00-<trace-id>-<parent-id>-01", trace-id
    // = the run's UUID without dashes (else a hash of the run id), parent-id = seq + 1 in 16 hex digits. A
    // server that logs the header can be joined to the request without X-Request-Id.
    static std::string traceparent(const std::string &runId, std::uint64_t seq);
    // The X-Request-Id prefix of this run's requests.
    const std::string &runId() const { return m_runId; }
    // The Authorization line when the endpoint has a key (fetches of the server's timing), else none.
    std::vector<std::string> authHeaders() const;

    // "/v1/completions" or "/v1/chat/completions", appended to a base URL (a trailing "/v1" is tolerated).
    static std::string endpointUrl(const std::string &baseUrl, ApiFlavour flavour);

    bool usesTokenIds() const { return m_tokenIds; }
    const PromptSource &prompts() const { return *m_prompts; }
    const std::string &model() const { return m_model; }

private:
    nlohmann::json bodyFor(const Prompt &prompt, int osl) const;

    Scenario m_scenario;
    std::string m_runId;
    std::shared_ptr<const PromptSource> m_prompts;
    std::string m_apiKey;
    std::string m_model;
    bool m_tokenIds = false;
};

} // namespace Throughline
