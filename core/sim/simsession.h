#pragma once
// One HTTP/1.1 connection of the simulated endpoint (plain TCP or TLS): reads requests, answers /health,
// /ready, /v1/models and /metrics, parses generation requests (prompt → token count, through the model's
// chat template for chat; prefix-cache block hashes), submits them to the BatchScheduler and streams the
// tokens it produces (SSE or one JSON body), applying injected faults. Internal to SimServer (simserver.cpp
// instantiates it for tcp::socket and ssl::stream). Thread affinity: the session's strand, except the
// RequestSink callbacks (scheduler threads) which only record under m_mu and post a flush.

#include "core/sim/simhttp.h"
#include "core/sim/simservercore.h"

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>

namespace Throughline::SimDetail {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

enum class Api { Completions, Chat };

// One request's parameters and progress (session strand only, except where noted).
struct RequestContext {
    Api api = Api::Chat;
    bool stream = false;
    bool includeUsage = false;
    bool continuousUsage = false;
    std::string id;
    std::string requestId; // X-Request-Id
    long long created = 0;
    int nPrompt = 0;
    int nCached = -1; // prompt tokens served from the prefix cache; -1 = prefix caching off
    int nOut = 1;
    int reasoningTokens = 0;
    std::string finishReason = "length";
    FaultKind fault = FaultKind::None;
    int faultAt = 1; // token index after which a mid-stream fault fires
    bool faultApplied = false;
    bool slowDone = false;
    std::int64_t tAcceptNs = 0;
    std::int64_t tFirstWriteNs = 0;
    std::int64_t tLastWriteNs = 0;
    std::vector<std::int64_t> tokenWriteNs; // only with a ground-truth log
    int sent = 0;
    bool headerSent = false;
    bool responseDone = false;
    bool keepAlive = true;
};

template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>>, public RequestSink
{
public:
    Session(ServerCore &core, Stream &&stream)
        : m_core(core)
        , m_stream(std::move(stream))
        , m_timer(m_stream.get_executor())
    {
        m_core.open.fetch_add(1, std::memory_order_relaxed);
    }
    ~Session() override
    {
        if (m_req)
            m_req->cancelled.store(true, std::memory_order_relaxed);
        m_core.open.fetch_sub(1, std::memory_order_relaxed);
    }

    void run()
    {
        if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
            doReadHeader();
        } else {
            beast::get_lowest_layer(m_stream).expires_after(timeout(m_core.opt.limits.idleTimeoutS));
            m_stream.async_handshake(ssl::stream_base::server,
                                     [self = this->shared_from_this()](beast::error_code ec) {
                                         if (ec)
                                             return self->close();
                                         self->doReadHeader();
                                     });
        }
    }

    // --- RequestSink (scheduler threads) ---
    void onAdmitted(std::uint64_t tag, std::int64_t) override
    {
        std::lock_guard lk(m_mu);
        if (tag != m_tag)
            return;
        m_admitted = true;
        postFlushLocked();
    }
    void onTokens(std::uint64_t tag, int generated, std::int64_t scheduledNs) override
    {
        std::lock_guard lk(m_mu);
        if (tag != m_tag)
            return;
        noteGeneratedLocked(generated, scheduledNs);
        postFlushLocked();
    }
    void onFinished(std::uint64_t tag, int generated, std::int64_t scheduledNs) override
    {
        std::lock_guard lk(m_mu);
        if (tag != m_tag)
            return;
        noteGeneratedLocked(generated, scheduledNs);
        m_finished = true;
        postFlushLocked();
    }
    // New tokens are ready to write; the earliest scheduled time of a not yet written batch is kept (its
    // write lateness is measured from there). Caller holds m_mu.
    void noteGeneratedLocked(int generated, std::int64_t scheduledNs)
    {
        if (generated <= m_ready)
            return;
        if (m_pendingSchedNs == 0)
            m_pendingSchedNs = scheduledNs;
        m_ready = generated;
    }

private:
    static std::chrono::steady_clock::duration timeout(double s)
    {
        return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(s));
    }

    void postFlushLocked()
    {
        if (m_flushPosted)
            return;
        m_flushPosted = true;
        net::post(m_stream.get_executor(), [self = this->shared_from_this()] { self->flush(); });
    }

    void close()
    {
        if (m_closed)
            return;
        m_closed = true;
        if (m_req)
            m_req->cancelled.store(true, std::memory_order_relaxed);
        m_timer.cancel();
        beast::error_code ec;
        beast::get_lowest_layer(m_stream).socket().shutdown(tcp::socket::shutdown_both, ec);
        beast::get_lowest_layer(m_stream).close();
    }

    void doReadHeader()
    {
        if (m_closed)
            return;
        m_parser.emplace();
        m_parser->header_limit(std::uint32_t(m_core.opt.limits.maxHeaderBytes));
        m_parser->body_limit(m_core.opt.limits.maxBodyBytes);
        beast::get_lowest_layer(m_stream).expires_after(timeout(m_core.opt.limits.idleTimeoutS));
        http::async_read_header(
            m_stream, m_buf, *m_parser,
            [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->onHeader(ec); });
    }

    void onHeader(beast::error_code ec)
    {
        if (ec)
            return onReadError(ec);
        auto &req = m_parser->get();
        auto expect = req[http::field::expect];
        if (beast::iequals(expect, "100-continue")) {
            m_raw = "HTTP/1.1 100 Continue\r\n\r\n";
            net::async_write(m_stream, net::buffer(m_raw),
                             [self = this->shared_from_this()](beast::error_code e, std::size_t) {
                                 if (e)
                                     return self->close();
                                 self->doReadBody();
                             });
            return;
        }
        doReadBody();
    }

    void doReadBody()
    {
        http::async_read(m_stream, m_buf, *m_parser,
                         [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                             if (ec)
                                 return self->onReadError(ec);
                             self->onRequest();
                         });
    }

    void onReadError(beast::error_code ec)
    {
        if (ec == http::error::end_of_stream || ec == net::error::eof || ec == beast::error::timeout ||
            ec == net::error::operation_aborted || ec == net::error::connection_reset || m_closed)
            return close();
        int status = 400;
        std::string msg = "Malformed HTTP request: " + ec.message();
        if (ec == http::error::body_limit) {
            status = 413;
            msg = "Request body exceeds " + std::to_string(m_core.opt.limits.maxBodyBytes) + " bytes";
        } else if (ec == http::error::header_limit) {
            status = 431;
            msg = "Request headers exceed " + std::to_string(m_core.opt.limits.maxHeaderBytes) + " bytes";
        }
        writeSimple(status, "application/json", errorBody(status, msg, errorType(status)), false);
    }

    // Writes a complete response; then reads the next request or closes.
    void writeSimple(int status, std::string_view contentType, const std::string &body, bool keepAlive,
                     const std::string &requestId = {})
    {
        m_raw = m_core.response(status, reasonPhrase(status), contentType, body, keepAlive, requestId);
        beast::get_lowest_layer(m_stream).expires_after(timeout(m_core.opt.limits.writeTimeoutS));
        net::async_write(m_stream, net::buffer(m_raw),
                         [self = this->shared_from_this(), keepAlive](beast::error_code ec, std::size_t) {
                             if (ec || !keepAlive)
                                 return self->close();
                             self->doReadHeader();
                         });
    }

    void onRequest()
    {
        auto req = m_parser->release();
        m_parser.reset();
        const bool keepAlive = req.keep_alive();
        const std::string requestId(req["X-Request-Id"]);
        std::string target(req.target());
        if (auto q = target.find('?'); q != std::string::npos)
            target.resize(q);
        const bool isGet = req.method() == http::verb::get || req.method() == http::verb::head;
        const bool isPost = req.method() == http::verb::post;

        if (m_core.loading() && target != "/metrics")
            return writeSimple(
                503, "application/json",
                errorBody(503, "Server is starting (model loading)", "ServiceUnavailableError"), keepAlive,
                requestId);
        if (target == "/health" || target == "/ready") {
            if (!isGet)
                return writeSimple(405, "application/json",
                                   errorBody(405, "Method not allowed", "BadRequestError"), keepAlive,
                                   requestId);
            nlohmann::json j = {{"status", "ok"},
                                {"ready", true},
                                {"time_scale", m_core.opt.timeScale},
                                {"model", m_core.modelName}};
            return writeSimple(200, "application/json", j.dump(), keepAlive, requestId);
        }
        if (target == "/v1/models") {
            nlohmann::json j = {
                {"object", "list"},
                {"data",
                 {{{"id", m_core.modelName},
                   {"object", "model"},
                   {"created", (long long)std::time(nullptr)},
                   {"owned_by", "throughline-sim"},
                   {"root", m_core.opt.model.hfId.empty() ? m_core.modelName : m_core.opt.model.hfId},
                   {"max_model_len", m_core.maxModelLen}}}}};
            return writeSimple(200, "application/json", j.dump(), keepAlive, requestId);
        }
        if (target == "/metrics") {
            return writeSimple(200, "text/plain; version=0.0.4; charset=utf-8",
                               m_core.metrics.render(m_core.scheduler->gauges(), m_core.modelName,
                                                     m_core.opt.legacyMetricNames),
                               keepAlive, requestId);
        }
        if (target == "/v1/completions" || target == "/v1/chat/completions") {
            if (!isPost)
                return writeSimple(405, "application/json",
                                   errorBody(405, "Method not allowed; use POST", "BadRequestError"),
                                   keepAlive, requestId);
            return startGeneration(target == "/v1/chat/completions" ? Api::Chat : Api::Completions,
                                   req.body(), keepAlive, requestId);
        }
        writeSimple(404, "application/json", errorBody(404, "Not Found: " + target, "NotFoundError"),
                    keepAlive, requestId);
    }

    void badRequest(const std::string &msg, bool keepAlive, const std::string &requestId, int status = 400,
                    const char *param = nullptr)
    {
        writeSimple(status, "application/json", errorBody(status, msg, errorType(status), param), keepAlive,
                    requestId);
    }

    static std::optional<long long> intField(const nlohmann::json &j, const char *key, bool &bad)
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

    void startGeneration(Api api, const std::string &body, bool keepAlive, const std::string &requestId)
    {
        auto j = nlohmann::json::parse(body, nullptr, false);
        if (j.is_discarded() || !j.is_object())
            return badRequest("Invalid JSON body: expected a JSON object", keepAlive, requestId);
        RequestContext ctx;
        ctx.api = api;
        ctx.requestId = requestId;
        ctx.keepAlive = keepAlive;
        ctx.tAcceptNs = nowNs();
        ctx.created = (long long)std::time(nullptr);

        if (auto it = j.find("model"); it != j.end() && !it->is_null()) {
            if (!it->is_string())
                return badRequest("'model' must be a string", keepAlive, requestId, 400, "model");
            const auto name = it->get<std::string>();
            if (name != m_core.modelName && name != m_core.opt.model.hfId && name != m_core.opt.model.name)
                return badRequest("The model `" + name + "` does not exist.", keepAlive, requestId, 404,
                                  "model");
        }
        // Prompt → token count (and prefix-cache block hashes).
        std::vector<std::uint64_t> prefixHashes;
        if (api == Api::Chat) {
            auto it = j.find("messages");
            if (it == j.end() || !it->is_array() || it->empty())
                return badRequest("'messages' must be a non-empty array", keepAlive, requestId, 400,
                                  "messages");
            std::vector<ChatMessage> messages;
            for (const auto &m : *it) {
                if (!m.is_object() || !m.contains("role") || !m["role"].is_string())
                    return badRequest("each message needs a 'role'", keepAlive, requestId, 400, "messages");
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
                    return badRequest("message 'content' must be a string or an array of parts", keepAlive,
                                      requestId, 400, "messages");
                messages.push_back(std::move(msg));
            }
            // With a tokenizer: the templated prompt (special tokens, generation prompt), as a server counts
            // it.
            const std::string text = m_core.chat.render(messages, true);
            ctx.nPrompt = std::max(1, m_core.countPrompt(text, prefixHashes));
        } else {
            auto it = j.find("prompt");
            if (it == j.end())
                return badRequest("'prompt' is required", keepAlive, requestId, 400, "prompt");
            const nlohmann::json *p = &*it;
            if (p->is_array() && p->size() == 1 && ((*p)[0].is_string() || (*p)[0].is_array()))
                p = &(*p)[0]; // a batch of one
            if (p->is_string())
                ctx.nPrompt =
                    std::max(1, m_core.countPrompt(p->get_ref<const std::string &>(), prefixHashes));
            else if (p->is_array() && !p->empty()) {
                for (const auto &t : *p)
                    if (!t.is_number_integer() || t.get<long long>() < 0)
                        return badRequest("'prompt' token ids must be non-negative integers", keepAlive,
                                          requestId, 400, "prompt");
                ctx.nPrompt = int(p->size());
                if (m_core.opt.prefixBlockTokens > 0) {
                    std::vector<std::int32_t> ids;
                    ids.reserve(p->size());
                    for (const auto &t : *p)
                        ids.push_back(static_cast<std::int32_t>(t.get<long long>()));
                    prefixHashes = PrefixCache::blockHashes(ids, m_core.opt.prefixBlockTokens);
                }
            } else
                return badRequest("'prompt' must be a string, a list of token ids, or a batch of one",
                                  keepAlive, requestId, 400, "prompt");
        }
        bool bad = false;
        auto maxTokens = intField(j, api == Api::Chat ? "max_completion_tokens" : "max_tokens", bad);
        if (!maxTokens)
            maxTokens = intField(j, "max_tokens", bad);
        auto minTokens = intField(j, "min_tokens", bad);
        if (bad)
            return badRequest("max_tokens, max_completion_tokens and min_tokens must be integers", keepAlive,
                              requestId);
        if (maxTokens && *maxTokens < 1)
            return badRequest("max_tokens must be at least 1, got " + std::to_string(*maxTokens) + ".",
                              keepAlive, requestId, 400, "max_tokens");
        if (minTokens && *minTokens < 0)
            return badRequest("min_tokens must be non-negative", keepAlive, requestId, 400, "min_tokens");
        if (minTokens && maxTokens && *minTokens > *maxTokens)
            return badRequest("min_tokens must be less than or equal to max_tokens", keepAlive, requestId,
                              400, "min_tokens");
        bool ignoreEos = false;
        if (auto it = j.find("ignore_eos"); it != j.end() && it->is_boolean())
            ignoreEos = it->get<bool>();
        if (auto it = j.find("nvext"); it != j.end() && it->is_object())
            if (auto ie = it->find("ignore_eos"); ie != it->end() && ie->is_boolean())
                ignoreEos = ignoreEos || ie->get<bool>();
        if (auto it = j.find("stream"); it != j.end() && it->is_boolean())
            ctx.stream = it->get<bool>();
        if (auto it = j.find("stream_options"); it != j.end() && it->is_object()) {
            ctx.includeUsage = it->value("include_usage", false);
            ctx.continuousUsage = it->value("continuous_usage_stats", false);
        }
        // Context check (vLLM's message).
        const long long maxLen = m_core.maxModelLen;
        const long long requestedOut = maxTokens ? *maxTokens : std::max(0LL, maxLen - ctx.nPrompt);
        if (ctx.nPrompt + requestedOut > maxLen || ctx.nPrompt >= maxLen) {
            const int status = m_core.opt.overlongPromptStatus;
            return badRequest(
                "This model's maximum context length is " + std::to_string(maxLen) +
                    " tokens. However, you requested " + std::to_string(ctx.nPrompt + requestedOut) +
                    " tokens (" + std::to_string(ctx.nPrompt) + " in the messages, " +
                    std::to_string(requestedOut) +
                    " in the completion). Please reduce the length of the messages or completion.",
                keepAlive, requestId, status, "messages");
        }
        // Output length: forced with ignore_eos, else a seeded "natural" length clamped to [min, max].
        const long long minOut = minTokens ? *minTokens : 0;
        if (ignoreEos) {
            ctx.nOut = int(requestedOut);
            ctx.finishReason = "length";
        } else {
            const double u = m_core.uniform();
            const long long natural = 1 + (long long)(u * 2.0 * std::max(1, m_core.opt.naturalOutputMean));
            const long long n = std::clamp(natural, std::max(1LL, minOut), requestedOut);
            ctx.nOut = int(n);
            ctx.finishReason = n < requestedOut ? "stop" : "length";
        }
        ctx.nOut = std::max(1, ctx.nOut);
        if (api == Api::Chat && m_core.opt.model.reasoning)
            ctx.reasoningTokens = std::min(ctx.nOut - 1, int(ctx.nOut * m_core.opt.reasoningShare));
        const long long seq = m_core.seq.fetch_add(1) + 1;
        ctx.id = (api == Api::Chat ? "chatcmpl-sim-" : "cmpl-sim-") + std::to_string(seq);
        m_core.requests.fetch_add(1, std::memory_order_relaxed);

        // Faults.
        if (m_core.opt.faults.any()) {
            ctx.fault = m_core.opt.faults.pick(m_core.uniform());
            ctx.faultAt = std::max(1, ctx.nOut / 2);
            if (!ctx.stream && ctx.fault != FaultKind::Http500 && ctx.fault != FaultKind::Http503 &&
                ctx.fault != FaultKind::Http429 && ctx.fault != FaultKind::Disconnect)
                ctx.fault = FaultKind::None; // stream-shaped faults need a stream
        }
        if (ctx.fault == FaultKind::Http500 || ctx.fault == FaultKind::Http503 ||
            ctx.fault == FaultKind::Http429) {
            const int status = ctx.fault == FaultKind::Http500   ? 500
                               : ctx.fault == FaultKind::Http503 ? 503
                                                                 : 429;
            m_ctx = std::move(ctx);
            m_ctx.nOut = 0;
            logDone(nowNs(), 0, "error");
            return badRequest("Injected fault: HTTP " + std::to_string(status), keepAlive, requestId, status);
        }

        auto r = std::make_shared<SimRequest>();
        r->promptTokens = ctx.nPrompt;
        r->outputTokens = ctx.nOut;
        r->prefixHashes = std::move(prefixHashes);
        ctx.nCached = m_core.opt.prefixBlockTokens > 0 ? 0 : -1;
        r->sink = this->shared_from_this();
        r->tag = std::uint64_t(seq);
        {
            std::lock_guard lk(m_mu);
            m_tag = r->tag;
            m_ready = 0;
            m_admitted = false;
            m_finished = false;
            m_pendingSchedNs = 0;
        }
        m_ctx = std::move(ctx);
        m_req = r;
        if (!m_core.scheduler->submit(r)) {
            m_req.reset();
            m_ctx.nOut = 0;
            logDone(nowNs(), 0, "error");
            return badRequest("Server busy: waiting queue is full", keepAlive, requestId, 429);
        }
        beast::get_lowest_layer(m_stream).expires_never();
    }

    // --- Response assembly (strand) ---
    void appendChunkPrefix(std::string &s) const
    {
        s += "data: {\"id\":\"";
        s += m_ctx.id;
        s += m_ctx.api == Api::Chat ? "\",\"object\":\"chat.completion.chunk\",\"created\":"
                                    : "\",\"object\":\"text_completion\",\"created\":";
        appendInt(s, m_ctx.created);
        s += ",\"model\":\"";
        s += m_core.modelName;
        s += "\",\"choices\":[";
    }
    void appendUsage(std::string &s, int completion) const
    {
        s += "\"usage\":{\"prompt_tokens\":";
        appendInt(s, m_ctx.nPrompt);
        s += ",\"total_tokens\":";
        appendInt(s, m_ctx.nPrompt + completion);
        s += ",\"completion_tokens\":";
        appendInt(s, completion);
        if (m_ctx.nCached >= 0) {
            s += ",\"prompt_tokens_details\":{\"cached_tokens\":";
            appendInt(s, m_ctx.nCached);
            s += '}';
        }
        s += '}';
    }
    void appendRoleChunk(std::string &s) const
    {
        appendChunkPrefix(s);
        s += "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_"
             "reason\":null}]";
        if (m_ctx.continuousUsage) {
            s += ',';
            appendUsage(s, 0);
        }
        s += "}\n\n";
    }
    // Token index i is 1-based.
    void appendTokenChunk(std::string &s, int i) const
    {
        const bool last = i == m_ctx.nOut;
        const std::string_view word = kWords[size_t(i) % kWords.size()];
        appendChunkPrefix(s);
        if (m_ctx.api == Api::Chat) {
            if (i <= m_ctx.reasoningTokens)
                s += m_core.opt.reasoningContentField ? "{\"index\":0,\"delta\":{\"reasoning_content\":\""
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
            s += m_ctx.finishReason;
            s += "\"}]";
        } else {
            s += "null}]";
        }
        // Completions: usage rides in the last chunk; continuous_usage_stats puts it in every chunk.
        if (m_ctx.continuousUsage || (last && m_ctx.includeUsage && m_ctx.api == Api::Completions)) {
            s += ',';
            appendUsage(s, i);
        }
        s += "}\n\n";
    }

    std::string nonStreamBody() const
    {
        std::string content, reasoning;
        for (int i = 1; i <= m_ctx.nOut; ++i)
            (i <= m_ctx.reasoningTokens ? reasoning : content) += kWords[size_t(i) % kWords.size()];
        nlohmann::json usage = {{"prompt_tokens", m_ctx.nPrompt},
                                {"total_tokens", m_ctx.nPrompt + m_ctx.nOut},
                                {"completion_tokens", m_ctx.nOut}};
        if (m_ctx.nCached >= 0)
            usage["prompt_tokens_details"] = {{"cached_tokens", m_ctx.nCached}};
        nlohmann::json j;
        if (m_ctx.api == Api::Chat) {
            nlohmann::json msg = {{"role", "assistant"}, {"content", content}};
            if (m_ctx.reasoningTokens > 0)
                msg[m_core.opt.reasoningContentField ? "reasoning_content" : "reasoning"] = reasoning;
            j = {{"id", m_ctx.id},
                 {"object", "chat.completion"},
                 {"created", m_ctx.created},
                 {"model", m_core.modelName},
                 {"choices",
                  {{{"index", 0},
                    {"message", msg},
                    {"logprobs", nullptr},
                    {"finish_reason", m_ctx.finishReason}}}},
                 {"usage", usage}};
        } else {
            j = {{"id", m_ctx.id},
                 {"object", "text_completion"},
                 {"created", m_ctx.created},
                 {"model", m_core.modelName},
                 {"choices",
                  {{{"index", 0},
                    {"text", content},
                    {"logprobs", nullptr},
                    {"finish_reason", m_ctx.finishReason}}}},
                 {"usage", usage}};
        }
        return j.dump();
    }

    void startTimer(double seconds)
    {
        m_timer.expires_after(timeout(seconds));
        m_timer.async_wait([self = this->shared_from_this()](beast::error_code ec) {
            if (ec)
                return;
            self->m_timerActive = false;
            self->flush();
        });
        m_timerActive = true;
    }

    void flush()
    {
        int ready;
        bool admitted, finished;
        std::int64_t schedNs;
        {
            std::lock_guard lk(m_mu);
            m_flushPosted = false;
            ready = m_ready;
            admitted = m_admitted;
            finished = m_finished;
            schedNs = m_pendingSchedNs;
        }
        if (m_closed || !m_req || m_writing || m_timerActive || m_ctx.responseDone)
            return;
        if (m_ctx.nCached >= 0 && admitted)
            m_ctx.nCached = m_req->cachedTokens.load(std::memory_order_relaxed); // set before Admitted
        std::string payload;
        bool closeAfter = false;
        int newTokens = 0;
        if (m_ctx.stream) {
            if (!m_ctx.headerSent && (admitted || ready > 0 || finished)) {
                if (m_ctx.fault == FaultKind::SlowFirstByte && !m_ctx.slowDone) {
                    m_ctx.slowDone = true;
                    return startTimer(m_core.opt.faults.slowFirstByteS);
                }
                m_out = "HTTP/1.1 200 OK\r\n" + m_core.commonHeaders(m_ctx.requestId) +
                        "Content-Type: text/event-stream\r\nCache-Control: no-cache\r\nTransfer-Encoding: "
                        "chunked\r\n" +
                        (m_ctx.keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n");
                m_ctx.headerSent = true;
                if (m_ctx.api == Api::Chat)
                    appendRoleChunk(payload);
            } else {
                m_out.clear();
            }
            if (!m_ctx.headerSent)
                return;
            while (m_ctx.sent < ready) {
                if (m_ctx.fault != FaultKind::None && !m_ctx.faultApplied && m_ctx.sent == m_ctx.faultAt &&
                    m_ctx.sent < m_ctx.nOut) {
                    m_ctx.faultApplied = true;
                    if (m_ctx.fault == FaultKind::Disconnect) {
                        closeAfter = true;
                        break;
                    }
                    if (m_ctx.fault == FaultKind::ErrorEvent) {
                        payload +=
                            "data: {\"error\":{\"message\":\"Injected fault: engine error mid-stream\","
                            "\"type\":\"InternalServerError\",\"param\":null,\"code\":500}}\n\ndata: "
                            "[DONE]\n\n";
                        m_ctx.responseDone = true;
                        m_errorEnded = true;
                        m_req->cancelled.store(true, std::memory_order_relaxed);
                        break;
                    }
                    if (m_ctx.fault == FaultKind::Stall) {
                        if (payload.empty() && m_out.empty())
                            return startTimer(m_core.opt.faults.stallS);
                        m_ctx.faultApplied = false; // write what is pending first, stall on the next flush
                        break;
                    }
                    if (m_ctx.fault == FaultKind::Malformed)
                        payload += "data: {\"choices\":[{\"delta\":{\"content\": BROKEN\n\n";
                }
                ++m_ctx.sent;
                ++newTokens;
                appendTokenChunk(payload, m_ctx.sent);
            }
            if (!m_ctx.responseDone && !closeAfter && finished && m_ctx.sent >= ready) {
                if (m_ctx.includeUsage && m_ctx.api == Api::Chat) {
                    appendChunkPrefix(payload);
                    payload += ']';
                    payload += ',';
                    appendUsage(payload, m_ctx.sent);
                    payload += "}\n\n";
                }
                payload += "data: [DONE]\n\n";
                m_ctx.responseDone = true;
            }
            if (!payload.empty()) {
                char hex[20];
                const int n = std::snprintf(hex, sizeof hex, "%zx\r\n", payload.size());
                m_out.append(hex, size_t(n));
                m_out += payload;
                m_out += "\r\n";
            }
            if (m_ctx.responseDone)
                m_out += "0\r\n\r\n";
        } else {
            if (!finished)
                return;
            m_ctx.sent = ready;
            newTokens = ready;
            m_out = m_core.response(200, "OK", "application/json", nonStreamBody(), m_ctx.keepAlive,
                                    m_ctx.requestId);
            m_ctx.responseDone = true;
            if (m_ctx.fault == FaultKind::Disconnect) {
                m_out.resize(m_out.size() / 2);
                closeAfter = true;
                m_ctx.responseDone = false;
            }
        }
        if (m_out.empty()) {
            if (closeAfter)
                finishAndClose("disconnect");
            return;
        }
        const std::int64_t t = nowNs();
        if (newTokens > 0) {
            if (m_ctx.tFirstWriteNs == 0)
                m_ctx.tFirstWriteNs = t;
            else
                m_core.metrics.addItl(double(t - m_ctx.tLastWriteNs) / 1e9, 1);
            if (newTokens > 1)
                m_core.metrics.addItl(0.0, newTokens - 1);
            m_ctx.tLastWriteNs = t;
            if (m_core.groundTruth.isOpen())
                m_ctx.tokenWriteNs.insert(m_ctx.tokenWriteNs.end(), size_t(newTokens), t);
            if (schedNs > 0)
                m_core.lateness.add(t - schedNs);
            m_core.tokensWritten.fetch_add(newTokens, std::memory_order_relaxed);
            std::lock_guard lk(m_mu);
            m_pendingSchedNs = 0;
            if (m_ready > m_ctx.sent)
                m_pendingSchedNs = t; // tokens that arrived meanwhile: conservatively "due now"
        }
        m_core.writes.fetch_add(1, std::memory_order_relaxed);
        m_writing = true;
        beast::get_lowest_layer(m_stream).expires_after(timeout(m_core.opt.limits.writeTimeoutS));
        net::async_write(m_stream, net::buffer(m_out),
                         [self = this->shared_from_this(), closeAfter](beast::error_code ec, std::size_t) {
                             self->onWrite(ec, closeAfter);
                         });
    }

    void onWrite(beast::error_code ec, bool closeAfter)
    {
        m_writing = false;
        if (ec) {
            finishAndClose("client_gone");
            return;
        }
        if (closeAfter) {
            finishAndClose("disconnect");
            return;
        }
        beast::get_lowest_layer(m_stream).expires_never();
        if (m_ctx.responseDone) {
            logDone(nowNs(), m_ctx.sent, m_errorEnded ? "error" : m_ctx.finishReason);
            m_req.reset();
            m_errorEnded = false;
            if (!m_ctx.keepAlive)
                return close();
            return doReadHeader();
        }
        flush();
    }

    void finishAndClose(const char *reason)
    {
        if (m_req) {
            m_req->cancelled.store(true, std::memory_order_relaxed);
            logDone(nowNs(), m_ctx.sent, reason);
            m_req.reset();
        }
        close();
    }

    // Ground truth + metrics for the current request (once).
    void logDone(std::int64_t tDone, int nOut, const std::string &finish)
    {
        const double ttft = m_ctx.tFirstWriteNs ? double(m_ctx.tFirstWriteNs - m_ctx.tAcceptNs) / 1e9 : -1.0;
        m_core.metrics.addRequest(m_ctx.nPrompt, nOut, ttft, {}, double(tDone - m_ctx.tAcceptNs) / 1e9,
                                  finish);
        if (!m_core.groundTruth.isOpen())
            return;
        std::string s;
        s.reserve(160 + m_ctx.tokenWriteNs.size() * 20);
        s += "{\"request_id\":";
        s += nlohmann::json(m_ctx.requestId).dump();
        s += ",\"clock\":\"CLOCK_MONOTONIC\",\"t_accept_ns\":";
        appendInt(s, m_ctx.tAcceptNs);
        s += ",\"t_first_token_write_ns\":";
        if (m_ctx.tFirstWriteNs)
            appendInt(s, m_ctx.tFirstWriteNs);
        else
            s += "null";
        s += ",\"t_token_write_ns\":[";
        for (size_t i = 0; i < m_ctx.tokenWriteNs.size(); ++i) {
            if (i)
                s += ',';
            appendInt(s, m_ctx.tokenWriteNs[i]);
        }
        s += "],\"t_done_ns\":";
        appendInt(s, tDone);
        s += ",\"n_prompt\":";
        appendInt(s, m_ctx.nPrompt);
        s += ",\"n_out\":";
        appendInt(s, nOut);
        s += ",\"fault\":";
        if (m_ctx.fault == FaultKind::None)
            s += "null";
        else {
            s += '"';
            s += faultName(m_ctx.fault);
            s += '"';
        }
        s += '}';
        m_core.groundTruth.append(s);
        m_ctx.tokenWriteNs.clear();
    }

    ServerCore &m_core;
    Stream m_stream;
    net::steady_timer m_timer;
    beast::flat_buffer m_buf;
    std::optional<http::request_parser<http::string_body>> m_parser;
    std::string m_raw;
    std::string m_out;
    RequestContext m_ctx;
    std::shared_ptr<SimRequest> m_req;
    bool m_writing = false;
    bool m_closed = false;
    bool m_timerActive = false;
    bool m_errorEnded = false;

    // Shared with scheduler threads.
    std::mutex m_mu;
    int m_ready = 0;
    bool m_admitted = false;
    bool m_finished = false;
    bool m_flushPosted = false;
    std::int64_t m_pendingSchedNs = 0;
    std::uint64_t m_tag = 0;
};

} // namespace Throughline::SimDetail
