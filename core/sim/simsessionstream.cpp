// Session, streaming half: the scheduler's progress callbacks, writing the tokens they announce (SSE chunks
// or one JSON body) with the injected mid-stream faults, and the end of a request (metrics, ground truth,
// next request or close). The connection half is simsession.cpp.

#include <utility> // before any Boost include (Boost 1.74 Asio under C++20/GCC 12)

#include "core/sim/simsession.h"

#include "core/sim/simcompletionformat.h"
#include "core/sim/simgroundtruthrecord.h"
#include "core/sim/simservertiming.h"

#include <algorithm>
#include <cstdio>

namespace Throughline::SimDetail {

template <class Stream>
void Session<Stream>::onAdmitted(std::uint64_t tag, std::int64_t admittedNs)
{
    std::lock_guard lk(m_mu);
    if (tag != m_tag)
        return;
    m_admitted = true;
    if (m_tAdmitted == 0) // disaggregated: the prefill pool's admission, the end of the queue
        m_tAdmitted = std::max(admittedNs, m_ctx.tSubmitNs); // a step planned before the request came
    postFlushLocked();
}

template <class Stream>
void Session<Stream>::onTokens(std::uint64_t tag, int generated, std::int64_t scheduledNs)
{
    std::lock_guard lk(m_mu);
    if (tag != m_tag)
        return;
    noteGeneratedLocked(generated, scheduledNs);
    if (generated >= 1 && m_tFirstToken == 0) // the step that finished the prefill sampled it
        m_tFirstToken = std::max(scheduledNs, m_tAdmitted);
    postFlushLocked();
}

template <class Stream>
void Session<Stream>::onFinished(std::uint64_t tag, int generated, std::int64_t scheduledNs)
{
    std::lock_guard lk(m_mu);
    if (tag != m_tag)
        return;
    noteGeneratedLocked(generated, scheduledNs);
    m_finished = true;
    if (m_tFirstToken == 0 && generated >= 1)
        m_tFirstToken = std::max(scheduledNs, m_tAdmitted);
    m_tLastToken = scheduledNs;
    postFlushLocked();
}

template <class Stream>
void Session<Stream>::noteGeneratedLocked(int generated, std::int64_t scheduledNs)
{
    if (generated <= m_ready)
        return;
    if (m_pendingSchedNs == 0)
        m_pendingSchedNs = scheduledNs;
    m_ready = generated;
}

template <class Stream>
void Session<Stream>::postFlushLocked()
{
    if (m_flushPosted)
        return;
    m_flushPosted = true;
    net::post(m_stream.get_executor(), [self = this->shared_from_this()] { self->flush(); });
}

template <class Stream>
void Session<Stream>::startTimer(double seconds)
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

template <class Stream>
void Session<Stream>::flush()
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
        m_ctx.tAdmittedNs = m_tAdmitted;
        m_ctx.tFirstTokenNs = m_tFirstToken;
        m_ctx.tLastTokenNs = m_tLastToken;
    }
    if (m_closed || !m_req || m_writing || m_timerActive || m_ctx.responseDone)
        return;
    if (m_ctx.nCached >= 0 && admitted)
        m_ctx.nCached = m_req->cachedTokens.load(std::memory_order_relaxed); // set before Admitted
    if (finished && m_req->readyNs > 0) { // disaggregated: written by the prefill pool before the hand-off
        m_ctx.tKvStartNs = m_ctx.tFirstTokenNs;
        m_ctx.tKvEndNs = m_req->readyNs;
    }
    // The server timing member of the closing chunk or body. When the first token goes out in this very
    // write, its send time is now.
    auto timingMember = [this](bool usageChunk, bool body) {
        if (m_core.timing == TimingEmit::None)
            return std::string();
        if (m_ctx.tFirstWriteNs != 0)
            return inlineTimingMember(m_core, m_ctx, usageChunk, body);
        RequestContext c = m_ctx;
        c.tFirstWriteNs = nowNs();
        return inlineTimingMember(m_core, c, usageChunk, body);
    };
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
                appendRoleChunk(payload, m_core, m_ctx);
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
                    payload += "data: {\"error\":{\"message\":\"Injected fault: engine error mid-stream\","
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
            // The last chunk carries the server's timing unless a usage chunk follows it.
            const bool usageChunkFollows = m_ctx.includeUsage && m_ctx.api == Api::Chat;
            const bool last = m_ctx.sent == m_ctx.nOut && finished;
            appendTokenChunk(payload, m_core, m_ctx, m_ctx.sent,
                             last && !usageChunkFollows ? timingMember(m_ctx.includeUsage, false)
                                                        : std::string());
        }
        if (!m_ctx.responseDone && !closeAfter && finished && m_ctx.sent >= ready) {
            if (m_ctx.includeUsage && m_ctx.api == Api::Chat)
                appendUsageChunk(payload, m_core, m_ctx, m_ctx.sent, timingMember(true, false));
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
        m_out = m_core.response(200, "OK", "application/json",
                                nonStreamBody(m_core, m_ctx, timingMember(true, true)), m_ctx.keepAlive,
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
    // The fetched formats record the request as it finishes, before its last bytes go out: a client that
    // fetches right after reading the end finds it.
    if (m_ctx.responseDone && !m_errorEnded && m_core.timing != TimingEmit::None && m_ctx.sent > 0) {
        RequestContext c = m_ctx;
        if (c.tFirstWriteNs == 0)
            c.tFirstWriteNs = nowNs();
        if (m_core.timing == TimingEmit::DynamoTrace)
            m_core.requestTrace.append(dynamoTraceRow(m_core, c), true);
        if (m_core.timing == TimingEmit::TrtllmPerf) {
            std::string entry = trtllmPerfEntry(m_core, c);
            std::lock_guard lk(m_core.perfMu);
            m_core.perfEntries.push_back(std::move(entry));
            while (int(m_core.perfEntries.size()) > std::max(1, m_core.opt.perfMetricsMaxRequests))
                m_core.perfEntries.pop_front(); // the bounded deque drops the oldest
        }
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

template <class Stream>
void Session<Stream>::onWrite(beast::error_code ec, bool closeAfter)
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

template <class Stream>
void Session<Stream>::finishAndClose(const char *reason)
{
    if (m_req) {
        m_req->cancelled.store(true, std::memory_order_relaxed);
        logDone(nowNs(), m_ctx.sent, reason);
        m_req.reset();
    }
    close();
}

template <class Stream>
void Session<Stream>::logDone(std::int64_t tDone, int nOut, const std::string &finish)
{
    const double ttft = m_ctx.tFirstWriteNs ? double(m_ctx.tFirstWriteNs - m_ctx.tAcceptNs) / 1e9 : -1.0;
    m_core.metrics.addRequest(m_ctx.nPrompt, nOut, ttft, {}, double(tDone - m_ctx.tAcceptNs) / 1e9, finish);
    if (!m_core.groundTruth.isOpen())
        return;
    m_core.groundTruth.append(groundTruthRecord(m_ctx, tDone, nOut));
    m_ctx.tokenWriteNs.clear();
}

// The members defined here, one by one: the class as a whole is instantiated in simsession.cpp, and a
// specialisation may be explicitly instantiated only once in the program.
#define THROUGHLINE_SIM_SESSION_STREAMING(S)                                                                 \
    template void Session<S>::onAdmitted(std::uint64_t, std::int64_t);                                       \
    template void Session<S>::onTokens(std::uint64_t, int, std::int64_t);                                    \
    template void Session<S>::onFinished(std::uint64_t, int, std::int64_t);                                  \
    template void Session<S>::noteGeneratedLocked(int, std::int64_t);                                        \
    template void Session<S>::postFlushLocked();                                                             \
    template void Session<S>::startTimer(double);                                                            \
    template void Session<S>::flush();                                                                       \
    template void Session<S>::onWrite(beast::error_code, bool);                                              \
    template void Session<S>::finishAndClose(const char *);                                                  \
    template void Session<S>::logDone(std::int64_t, int, const std::string &);
THROUGHLINE_SIM_SESSION_STREAMING(PlainStream)
THROUGHLINE_SIM_SESSION_STREAMING(TlsStream)
#undef THROUGHLINE_SIM_SESSION_STREAMING

} // namespace Throughline::SimDetail
