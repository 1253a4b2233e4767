// Session, connection half: TLS handshake, reading a request (100-continue, size limits), routing it,
// answering with a complete response, and handing generation requests to the scheduler. The streaming half
// is simsessionstream.cpp.

#include <utility> // before any Boost include (Boost 1.74 Asio under C++20/GCC 12)

#include "core/sim/simsession.h"

#include "core/sim/simadminendpoints.h"
#include "core/sim/simcountendpoints.h"
#include "core/sim/simrequestparser.h"

namespace Throughline::SimDetail {

template <class Stream>
Session<Stream>::Session(ServerCore &core, Stream &&stream)
    : m_core(core)
    , m_stream(std::move(stream))
    , m_timer(m_stream.get_executor())
{
    m_core.open.fetch_add(1, std::memory_order_relaxed);
}

template <class Stream>
Session<Stream>::~Session()
{
    if (m_req)
        m_req->cancelled.store(true, std::memory_order_relaxed);
    m_core.open.fetch_sub(1, std::memory_order_relaxed);
}

template <class Stream>
void Session<Stream>::run()
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

template <class Stream>
void Session<Stream>::close()
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

template <class Stream>
void Session<Stream>::doReadHeader()
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

template <class Stream>
void Session<Stream>::onHeader(beast::error_code ec)
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

template <class Stream>
void Session<Stream>::doReadBody()
{
    http::async_read(m_stream, m_buf, *m_parser,
                     [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                         if (ec)
                             return self->onReadError(ec);
                         self->onRequest();
                     });
}

template <class Stream>
void Session<Stream>::onReadError(beast::error_code ec)
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

template <class Stream>
void Session<Stream>::writeSimple(int status, std::string_view contentType, const std::string &body,
                                  bool keepAlive, const std::string &requestId)
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

template <class Stream>
void Session<Stream>::onRequest()
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
        return writeSimple(503, "application/json",
                           errorBody(503, "Server is starting (model loading)", "ServiceUnavailableError"),
                           keepAlive, requestId);
    if (target == "/health" || target == "/ready") {
        if (!isGet)
            return writeSimple(405, "application/json",
                               errorBody(405, "Method not allowed", "BadRequestError"), keepAlive, requestId);
        return writeSimple(200, "application/json", healthBody(m_core), keepAlive, requestId);
    }
    if (target == "/v1/models")
        return writeSimple(200, "application/json", modelsBody(m_core), keepAlive, requestId);
    if (target == "/metrics") {
        return writeSimple(
            200, "text/plain; version=0.0.4; charset=utf-8",
            m_core.metrics.render(m_core.scheduler->gauges(), m_core.modelName, m_core.opt.legacyMetricNames),
            keepAlive, requestId);
    }
    if (target == "/perf_metrics" && m_core.timing == TimingEmit::TrtllmPerf && isGet)
        return writeSimple(200, "application/json", perfMetricsBody(), keepAlive, requestId);
    if (target == "/v1/completions" || target == "/v1/chat/completions") {
        if (!isPost)
            return writeSimple(405, "application/json",
                               errorBody(405, "Method not allowed; use POST", "BadRequestError"), keepAlive,
                               requestId);
        return startGeneration(target == "/v1/chat/completions" ? Api::Chat : Api::Completions, req.body(),
                               keepAlive, requestId);
    }
    if (const CountAnswer a = countEndpoint(m_core, target, req.body()); a.handled) {
        if (!isPost)
            return writeSimple(405, "application/json",
                               errorBody(405, "Method not allowed; use POST", "BadRequestError"), keepAlive,
                               requestId);
        return writeSimple(a.status, "application/json", a.body, keepAlive, requestId);
    }
    writeSimple(404, "application/json", errorBody(404, "Not Found: " + target, "NotFoundError"), keepAlive,
                requestId);
}

template <class Stream>
void Session<Stream>::badRequest(const std::string &msg, bool keepAlive, const std::string &requestId,
                                 int status, const char *param)
{
    writeSimple(status, "application/json", errorBody(status, msg, errorType(status), param), keepAlive,
                requestId);
}

template <class Stream>
void Session<Stream>::startGeneration(Api api, const std::string &body, bool keepAlive,
                                      const std::string &requestId)
{
    RequestContext ctx;
    std::vector<std::uint64_t> prefixHashes;
    if (auto err = parseGenerationRequest(m_core, api, body, ctx, prefixHashes))
        return badRequest(err->message, keepAlive, requestId, err->status, err->param);
    ctx.requestId = requestId;
    ctx.keepAlive = keepAlive;

    // Injected HTTP errors answer at once; the request still counts (metrics, ground truth).
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
    r->tag = ctx.seq;
    r->arrivalNs = ctx.tAcceptNs;
    {
        std::lock_guard lk(m_mu);
        m_tag = r->tag;
        m_ready = 0;
        m_admitted = false;
        m_finished = false;
        m_pendingSchedNs = 0;
        m_tAdmitted = m_tFirstToken = m_tLastToken = 0;
    }
    ctx.tSubmitNs = nowNs();
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

template <class Stream>
std::string Session<Stream>::perfMetricsBody()
{
    std::deque<std::string> entries;
    {
        std::lock_guard lk(m_core.perfMu);
        entries.swap(m_core.perfEntries);
    }
    std::string body = "[";
    for (size_t i = 0; i < entries.size(); ++i) {
        if (i)
            body += ',';
        body += entries[i];
    }
    body += ']';
    return body;
}

// The only instantiation of the whole class: the members defined above, the vtable, and the inline ones.
template class Session<PlainStream>;
template class Session<TlsStream>;

} // namespace Throughline::SimDetail
