#pragma once
// One HTTP/1.1 connection of the simulated endpoint (plain TCP or TLS): reads requests, answers /health,
// /ready, /v1/models and /metrics, hands generation requests to the BatchScheduler and streams the tokens it
// produces (SSE or one JSON body), applying injected faults. Internal to SimServer (simserver.cpp creates
// one per accepted connection).
//
// Thread affinity: the session's strand, except the RequestSink callbacks (scheduler threads) which only
// record under m_mu and post a flush.
//
// Only declarations here, so that the Beast-heavy member definitions compile once: they live in
// simsession.cpp (connection: reading, routing, plain responses, submitting) and simsessionstream.cpp
// (scheduler progress → written tokens, faults, request end), each instantiating them for the two stream
// types below. Body parsing and formatting are Beast-free: simrequestparser, simcompletionformat,
// simadminendpoints, simgroundtruthrecord.

#include <utility> // before any Boost include (Boost 1.74 Asio under C++20/GCC 12)

#include "core/sim/simhttp.h" // error replies, also of the acceptor (simserver.cpp)
#include "core/sim/simrequestcontext.h"
#include "core/sim/simservercore.h"

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <chrono>
#include <optional>

namespace Throughline::SimDetail {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>>, public RequestSink
{
public:
    Session(ServerCore &core, Stream &&stream);
    ~Session() override;

    void run();

    // --- RequestSink (scheduler threads; simsessionstream.cpp) ---
    void onAdmitted(std::uint64_t tag, std::int64_t) override;
    void onTokens(std::uint64_t tag, int generated, std::int64_t scheduledNs) override;
    void onFinished(std::uint64_t tag, int generated, std::int64_t scheduledNs) override;

private:
    static std::chrono::steady_clock::duration timeout(double s)
    {
        return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(s));
    }

    // --- Connection (simsession.cpp) ---
    void close();
    void doReadHeader();
    void onHeader(beast::error_code ec);
    void doReadBody();
    void onReadError(beast::error_code ec);
    // Writes a complete response; then reads the next request or closes.
    void writeSimple(int status, std::string_view contentType, const std::string &body, bool keepAlive,
                     const std::string &requestId = {});
    void onRequest();
    void badRequest(const std::string &msg, bool keepAlive, const std::string &requestId, int status = 400,
                    const char *param = nullptr);
    void startGeneration(Api api, const std::string &body, bool keepAlive, const std::string &requestId);
    // GET /perf_metrics (TensorRT-LLM): the finished requests' entries, drained.
    std::string perfMetricsBody();

    // --- Streaming (simsessionstream.cpp) ---
    // New tokens are ready to write; the earliest scheduled time of a not yet written batch is kept (its
    // write lateness is measured from there). Caller holds m_mu.
    void noteGeneratedLocked(int generated, std::int64_t scheduledNs);
    void postFlushLocked();
    void startTimer(double seconds);
    void flush();
    void onWrite(beast::error_code ec, bool closeAfter);
    void finishAndClose(const char *reason);
    // Ground truth + metrics for the current request (once).
    void logDone(std::int64_t tDone, int nOut, const std::string &finish);

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
    // Server timing from the scheduler (steady ns, 0 = not yet): first admission, first and last token.
    std::int64_t m_tAdmitted = 0;
    std::int64_t m_tFirstToken = 0;
    std::int64_t m_tLastToken = 0;
};

// The two stream types SimServer serves; their members are instantiated in simsession.cpp and
// simsessionstream.cpp only.
using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;
extern template class Session<PlainStream>;
extern template class Session<TlsStream>;

} // namespace Throughline::SimDetail
