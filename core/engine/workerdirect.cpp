// Worker: the direct read path (docs/metrics.md "Read paths"). Plain-HTTP/1.1 requests without a proxy are
// written and read by the worker itself on keep-alive sockets that libcurl connected (CURLOPT_CONNECT_ONLY:
// resolving, connecting, the source-address spreading of onSockopt and connect timeouts stay libcurl's).
// What it saves per read against libcurl's transfers: the poll(0) libcurl 7.88 makes after every recv and
// its per-transfer state machine; each read is one recvmsg, timestamped once — by the kernel's receive
// stamp where the socket has one (core/engine/receivestamp.h) — its body bytes going to the same SSE parser
// as libcurl's write callback. Worker thread only.
#include "core/engine/http1request.h"
#include "core/engine/receivestamp.h"
#include "core/engine/workertransfer.h"

#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

namespace Throughline {

namespace {

constexpr std::size_t kReadBufferBytes = 64 * 1024;
// A read that fills the buffer is followed by another, up to this many, before the loop turns again.
constexpr int kMaxReadsPerWake = 4;

// The CURLcode libcurl reports for the same failure, so both paths classify and word it alike.
CURLcode curlCodeOf(Http1ResponseReader::Failure f)
{
    switch (f) {
    case Http1ResponseReader::Failure::NotHttp:
        return CURLE_UNSUPPORTED_PROTOCOL;
    case Http1ResponseReader::Failure::BadHeaders:
        return CURLE_WEIRD_SERVER_REPLY;
    case Http1ResponseReader::Failure::BadChunk:
        return CURLE_RECV_ERROR;
    case Http1ResponseReader::Failure::ClosedEarly:
        return CURLE_PARTIAL_FILE;
    case Http1ResponseReader::Failure::NothingReceived:
        return CURLE_GOT_NOTHING;
    case Http1ResponseReader::Failure::Aborted:
        return CURLE_WRITE_ERROR;
    case Http1ResponseReader::Failure::None:
        break;
    }
    return CURLE_OK;
}

// An idle keep-alive connection the server has not closed (nor written to) in the meantime.
bool stillOpen(int fd)
{
    char byte = 0;
    const ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

} // namespace

bool Worker::startDirect(Transfer *t)
{
    const TransferOptions &o = *t->options;
    if (o.readPath != Endpoint::ReadPath::Auto || o.httpVersion != Endpoint::HttpVersion::Http11 ||
        proxyMayApply(t->request.url))
        return false;
    const std::optional<Http1Target> target = http1Target(t->request.url);
    if (!target)
        return false;
    t->direct = true;
    t->record.readPath = RequestRecord::ReadPath::DirectHttp1;
    t->origin = target->origin;
    t->wire = http1RequestBytes(t->request, *target);
    t->http.reset();
    t->readNs = kNoTime;
    t->record.tSend = nowNs();
    t->activeIndex = m_active.size();
    m_active.push_back(t);
    attachConnection(t);
    return true;
}

void Worker::attachConnection(Transfer *t)
{
    auto it = m_idleConnections.find(t->origin);
    while (it != m_idleConnections.end() && !it->second.empty()) {
        Connection *c = it->second.back();
        it->second.pop_back();
        if (stillOpen(c->fd)) {
            t->conn = c;
            t->connReused = true;
            sendRequest(t);
            return;
        }
        closeConnection(c);
    }
    openConnection(t);
}

void Worker::openConnection(Transfer *t)
{
    auto *c = new Connection;
    c->origin = t->origin;
    c->easy = curl_easy_init();
    CURL *e = c->easy;
    curl_easy_setopt(e, CURLOPT_URL, t->request.url.c_str());
    curl_easy_setopt(e, CURLOPT_CONNECT_ONLY, 1L);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(e, CURLOPT_NOPROXY, "localhost,127.0.0.0/8,::1");
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(t->options->connectTimeoutS * 1000));
    curl_easy_setopt(e, CURLOPT_SOCKOPTFUNCTION, &Worker::onSockopt);
    curl_easy_setopt(e, CURLOPT_SOCKOPTDATA, t);
    t->conn = c;
    t->connReused = false;
    curl_multi_add_handle(static_cast<CURLM *>(m_multi), e);
}

void Worker::onDirectConnected(Transfer *t, int curlCode)
{
    Connection *c = t->conn;
    if (curlCode != CURLE_OK) {
        finishTransfer(t, curlCode);
        return;
    }
    curl_socket_t fd = CURL_SOCKET_BAD;
    curl_easy_getinfo(c->easy, CURLINFO_ACTIVESOCKET, &fd);
    if (fd == CURL_SOCKET_BAD) {
        finishTransfer(t, CURLE_COULDNT_CONNECT);
        return;
    }
    // libcurl watched the socket while connecting; from here on the worker does.
    unwatchFd(fd);
    c->fd = fd;
    // Refused (never seen on Linux), the reads carry no stamp and are timed when read, as libcurl's.
    [[maybe_unused]] const bool stamped = enableReceiveStamps(fd);
    c->connected = true;
    t->newConnection = true;
    curl_off_t us = 0;
    if (curl_easy_getinfo(c->easy, CURLINFO_CONNECT_TIME_T, &us) == CURLE_OK && us > 0)
        t->record.curl.connectNs = static_cast<std::int64_t>(us) * 1000;
    sendRequest(t);
}

void Worker::sendRequest(Transfer *t)
{
    t->fd = t->conn->fd;
    fdWatch(t->fd).direct = t;
    t->wireSent = 0;
    t->record.tWire = nowNs();
    if (writeSome(t))
        watchFd(t->fd, t->wireSent < t->wire.size() ? EPOLLIN | EPOLLOUT : EPOLLIN,
                m_priorityOn && !t->firstContentSeen);
}

bool Worker::writeSome(Transfer *t)
{
    while (t->wireSent < t->wire.size()) {
        const ssize_t n = send(t->fd, t->wire.data() + t->wireSent, t->wire.size() - t->wireSent,
                               MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            t->wireSent += static_cast<std::size_t>(n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return true;
        } else {
            directFailed(t, CURLE_SEND_ERROR);
            return false;
        }
    }
    return true;
}

void Worker::directSocket(Transfer *t, std::uint32_t epollEvents)
{
    if ((epollEvents & EPOLLOUT) && t->wireSent < t->wire.size()) {
        if (!writeSome(t))
            return;
        if (t->wireSent == t->wire.size())
            watchFd(t->fd, EPOLLIN, fdWatch(t->fd).priority);
    }
    if (!(epollEvents & (EPOLLIN | EPOLLERR | EPOLLHUP)))
        return;
    if (m_readBuffer.size() < kReadBufferBytes)
        m_readBuffer.resize(kReadBufferBytes);
    for (int i = 0; i < kMaxReadsPerWake; ++i) {
        const StampedRead r = receiveStamped(t->fd, m_readBuffer.data(), m_readBuffer.size());
        const ssize_t n = r.bytes;
        if (n > 0) {
            // One timestamp per read, as libcurl's write callback gets: every event completed by it carries
            // it.
            t->readNs = readTime(t, r.stampRealNs);
            if (i == 0)
                m_readDelay.add(std::max<std::int64_t>(0, t->readNs - m_batchReadyByNs));
            t->lastByteNs = t->readNs;
            if (t->firstResponseByteNs == kNoTime)
                t->firstResponseByteNs = t->readNs;
            const auto outcome =
                t->http.feed(m_readBuffer.data(), static_cast<std::size_t>(n), &Worker::onDirectBody, t);
            if (outcome == Http1ResponseReader::Outcome::Done) {
                finishTransfer(t, CURLE_OK);
                return;
            }
            if (outcome == Http1ResponseReader::Outcome::Failed) {
                directFailed(t, curlCodeOf(t->http.failure()));
                return;
            }
            if (static_cast<std::size_t>(n) < m_readBuffer.size())
                return; // the socket is drained (level-triggered: more data wakes the loop again)
            continue;
        }
        if (n == 0) {
            if (t->http.finishAtClose() == Http1ResponseReader::Outcome::Done)
                finishTransfer(t, CURLE_OK);
            else
                directFailed(t, curlCodeOf(t->http.failure()));
            return;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            directFailed(t, CURLE_RECV_ERROR);
        return;
    }
}

std::int64_t Worker::readTime(const Transfer *t, std::int64_t stampRealNs) const
{
    const std::int64_t now = nowNs();
    if (stampRealNs < 0)
        return now;
    // The stamp on the worker's clock, kept within what is certain: not after the read, not before the
    // request left or the stream's previous read (a realtime clock stepped between two wake-ups).
    const std::int64_t notBefore =
        t->readNs == kNoTime ? t->record.tWire : std::max(t->record.tWire, t->readNs);
    return std::clamp(m_stampClock.toCallerNs(stampRealNs), std::min(notBefore, now), now);
}

bool Worker::onDirectBody(void *transfer, const char *data, std::size_t len)
{
    auto *t = static_cast<Transfer *>(transfer);
    if (t->record.tFirstByte == kNoTime)
        t->status = t->http.status();
    return acceptBody(t, data, len, t->readNs);
}

void Worker::directFailed(Transfer *t, int curlCode)
{
    // A kept-alive connection the server closed before this request reached it (its idle timeout, a
    // restart): nothing of a response came, so the request goes once more on a new connection — what
    // libcurl does for a reused connection that fails this way.
    if (t->connReused && !t->retried && !t->http.anyBytes()) {
        t->retried = true;
        Connection *stale = t->conn;
        t->conn = nullptr;
        closeConnection(stale);
        t->fd = -1;
        t->http.reset();
        openConnection(t);
        return;
    }
    finishTransfer(t, curlCode);
}

void Worker::releaseConnection(Transfer *t, bool reuse)
{
    Connection *c = t->conn;
    t->conn = nullptr;
    if (!c)
        return;
    if (!reuse || !c->connected) {
        closeConnection(c);
        return;
    }
    // Idle: nobody reads it until the next request to its origin (stillOpen() looks at it then).
    unwatchFd(c->fd);
    curl_easy_setopt(c->easy, CURLOPT_PRIVATE, nullptr);
    m_idleConnections[c->origin].push_back(c);
}

void Worker::closeConnection(Connection *c)
{
    if (c->fd >= 0)
        unwatchFd(c->fd);
    // Removing the connect-only handle closes its socket (libcurl owns the descriptor).
    curl_multi_remove_handle(static_cast<CURLM *>(m_multi), c->easy);
    curl_easy_cleanup(c->easy);
    delete c;
}

} // namespace Throughline
