#include "core/engine/worker.h"

#include "core/engine/http1request.h"
#include "core/engine/secrets.h"
#include "core/engine/workertransfer.h"

#include <curl/curl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <thread>

namespace Throughline {

namespace {

// Above this many open streams on one worker, loopback connections spread their source address (onSockopt).
constexpr std::size_t kSpreadAboveOpenStreams = 512;

// Reads first (see Worker::run()): per-request work — starts (~60 µs of CPU each on loopback: setup, then
// libcurl's send, which runs the server side's TCP receive too), completions (~40 µs: record, metrics
// hand-off, the next closed-loop request) and event classification (~0.7 µs per event) — runs in short
// slices, and only while no socket is ready, so a server's burst of writes is read (and timestamped) as it
// arrives instead of after a lump of that work. While reads keep coming (thousands of streams: a server's
// burst can last longer than its gaps), starts get a short slice once the oldest waiting one is
// kMaxStartDeferralNs late (send lateness stays bounded, a ramp keeps its rate), and the rest of the work
// a slice every kMaxWorkDeferralNs (a saturated client still makes progress).
constexpr std::int64_t kIdleSliceNs = 150'000;
constexpr std::int64_t kForcedSliceNs = 300'000;
constexpr std::int64_t kStartSliceNs = 200'000;
constexpr std::int64_t kMaxStartDeferralNs = 2'000'000;
constexpr std::int64_t kMaxWorkDeferralNs = 10'000'000;
constexpr std::size_t kMinDrainPerSlice = 32; // transfers classified per slice even past its deadline
// While reading a batch of ready sockets, the sockets of transfers still waiting for their first token are
// looked at (one cheap epoll_wait on their own set) every this many reads (~100 µs).
constexpr int kPriorityCheckEvery = 16;
constexpr int kClassifyAtOnceMaxReads = 16;

// Worker::setCancelCostForTesting(): µs added to each in-flight transfer's cancellation (tests only).
std::atomic<std::int64_t> g_cancelCostUs{0};

std::int64_t secondsToNs(double s)
{
    return static_cast<std::int64_t>(s * 1e9);
}

ErrorClass classifyCurl(CURLcode c, bool anyBytes)
{
    switch (c) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_INTERFACE_FAILED:
        return ErrorClass::Connect;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        return ErrorClass::Tls;
    case CURLE_OPERATION_TIMEDOUT:
        return anyBytes ? ErrorClass::StallMidStream : ErrorClass::TimeoutBeforeFirstToken;
    default:
        return anyBytes ? ErrorClass::DisconnectMidStream : ErrorClass::Connect;
    }
}

} // namespace

Worker::Worker(int index, Clock::time_point t0, CompletionFn onComplete)
    : m_index(index)
    , m_t0(t0)
    , m_onComplete(std::move(onComplete))
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_ALL); });
    m_multi = curl_multi_init();
    auto *multi = static_cast<CURLM *>(m_multi);
    // Keep every connection of the run in the cache so keep-alive survives between load points.
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, 65536L);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 0L);
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_MULTIPLEX));
    m_epoll = epoll_create1(EPOLL_CLOEXEC);
    m_wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = m_wakeFd;
    epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wakeFd, &ev);
    // Sockets of transfers still waiting for their first content event live in their own epoll set, which
    // sits inside the main one (it reports readable when any of them is): the loop looks at it between
    // small groups of ordinary reads, so a first token is read (and timestamped) ahead of a backlog.
    m_epollPriority = epoll_create1(EPOLL_CLOEXEC);
    ev.data.fd = m_epollPriority;
    epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_epollPriority, &ev);
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, &Worker::onSocket);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, &Worker::onTimer);
    curl_multi_setopt(multi, CURLMOPT_TIMERDATA, this);
}

Worker::~Worker()
{
    stop();
    for (auto &[origin, idle] : m_idleConnections)
        for (Connection *c : idle)
            closeConnection(c);
    m_idleConnections.clear();
    for (Transfer *t : m_free) {
        curl_easy_cleanup(t->easy);
        delete t;
    }
    curl_multi_cleanup(static_cast<CURLM *>(m_multi));
    close(m_wakeFd);
    close(m_epollPriority);
    close(m_epoll);
}

std::int64_t Worker::nowNs() const
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - m_t0).count();
}

void Worker::start()
{
    m_stop = false;
    m_thread = std::thread([this] {
        // Named so per-thread tools (top -H, perf --comm) tell workers apart from the rest of the process.
        const std::string name = "tl-worker-" + std::to_string(m_index);
        pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
        m_tid.store(gettid(), std::memory_order_relaxed);
        run();
    });
}

void Worker::stop()
{
    if (!m_thread.joinable())
        return;
    m_stop = true;
    wake();
    m_thread.join();
}

void Worker::submit(WorkItem item)
{
    m_inFlight.fetch_add(1, std::memory_order_relaxed);
    {
        std::lock_guard lock(m_inboxMutex);
        m_inbox.push_back(std::move(item));
    }
    wake();
}

void Worker::cancelAll()
{
    m_cancel = true;
    wake();
}

void Worker::wake()
{
    const std::uint64_t one = 1;
    // EAGAIN means the counter is already non-zero: the worker is being woken anyway.
    [[maybe_unused]] const ssize_t n = ::write(m_wakeFd, &one, sizeof one);
}

int Worker::onSocket(void *easy, int fd, int what, void *user, void *socketData)
{
    auto *w = static_cast<Worker *>(user);
    // A direct-path socket is the worker's own once connected: libcurl's last word on it (its connect-only
    // transfer ending) changes nothing.
    if (static_cast<std::size_t>(fd) < w->m_fdWatch.size() &&
        w->m_fdWatch[static_cast<std::size_t>(fd)].direct)
        return 0;
    if (what == CURL_POLL_REMOVE) {
        // The descriptor may already be closed; ENOENT/EBADF are expected then.
        if (static_cast<std::size_t>(fd) < w->m_fdWatch.size()) {
            FdWatch &fw = w->m_fdWatch[static_cast<std::size_t>(fd)];
            if (fw.registered)
                epoll_ctl(fw.priority ? w->m_epollPriority : w->m_epoll, EPOLL_CTL_DEL, fd, nullptr);
            fw = FdWatch{};
        }
        return 0;
    }
    const std::uint32_t events =
        ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
    bool priority = w->fdWatch(fd).priority;
    if (!socketData) {
        // A transfer starts using this socket (a new connection, or one reused from the cache: libcurl stops
        // watching idle ones). Until its first content event it is read before the other ready sockets (while
        // first-token priority is on).
        Transfer *t = nullptr;
        curl_easy_getinfo(static_cast<CURL *>(easy), CURLINFO_PRIVATE, reinterpret_cast<char **>(&t));
        if (t) {
            t->fd = fd;
            priority = w->m_priorityOn && !t->firstContentSeen;
        }
        // Any non-null marker: libcurl hands it back for this socket until CURL_POLL_REMOVE.
        curl_multi_assign(static_cast<CURLM *>(w->m_multi), fd, w);
    }
    w->watchFd(fd, events, priority);
    return 0;
}

int Worker::onTimer(void *, long timeoutMs, void *user)
{
    auto *w = static_cast<Worker *>(user);
    w->m_curlDeadlineNs = timeoutMs < 0 ? -1 : w->nowNs() + static_cast<std::int64_t>(timeoutMs) * 1'000'000;
    return 0;
}

std::optional<ThreadCpuWait> Worker::cpuWait() const
{
    const pid_t tid = m_tid.load(std::memory_order_relaxed);
    return tid > 0 ? threadCpuWait(tid) : std::nullopt;
}

std::vector<double> Worker::takeLoopLagMs()
{
    std::lock_guard lock(m_lagMutex);
    std::vector<double> out;
    out.swap(m_loopLagMs);
    return out;
}

std::size_t Worker::onWrite(char *data, std::size_t size, std::size_t n, void *user)
{
    // Hot path: timestamp, append, find boundaries. Nothing else.
    auto *t = static_cast<Transfer *>(user);
    const std::size_t len = size * n;
    const std::int64_t now = t->worker->nowNs();
    t->lastByteNs = now;
    if (t->record.tFirstByte == kNoTime) {
        long code = 0;
        curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &code);
        t->status = static_cast<int>(code);
    }
    // 0 makes libcurl end the transfer with CURLE_WRITE_ERROR (→ MalformedStream: an oversize event).
    return acceptBody(t, data, len, now) ? len : 0;
}

bool Worker::acceptBody(Transfer *t, const char *data, std::size_t len, std::int64_t now)
{
    if (t->record.tFirstByte == kNoTime)
        t->record.tFirstByte = now;
    if (t->status < 200 || t->status >= 300) {
        if (t->errorBody.size() < 2048)
            t->errorBody.append(data, std::min(len, 2048 - t->errorBody.size()));
        return true;
    }
    if (!t->parser.feed(data, len, now))
        return false; // oversize event
    if (!t->dirty && t->parser.pendingEvents() > 0) {
        t->dirty = true;
        t->worker->m_dirty.push_back(t);
    }
    return true;
}

int Worker::onSockopt(void *user, int fd, int purpose)
{
    auto *t = static_cast<Transfer *>(user);
    Worker *w = t->worker;
    if (purpose != CURLSOCKTYPE_IPCXN || !isLoopbackUrl(t->request.url))
        return CURL_SOCKOPT_OK;
    // Many streams, or a server that closes after every stream (llama.cpp): spread the source address over
    // 127.0.0.2–127.0.0.9. Each source has its own port space, so the kernel's ephemeral-port search at
    // connect() stays short (with one source it walks past every port in use: O(open connections) per
    // connect) and TIME_WAIT sockets get 8× the room. Binding here, not through CURLOPT_INTERFACE, keeps
    // libcurl's connection reuse untouched; IP_BIND_ADDRESS_NO_PORT leaves the port choice to connect().
    const bool spread =
        w->m_spreadForced.load() || w->m_spreadActive.load() || w->m_active.size() >= kSpreadAboveOpenStreams;
    int domain = 0;
    socklen_t len = sizeof domain;
    if (!spread || getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0 || domain != AF_INET)
        return CURL_SOCKOPT_OK;
    const int one = 1;
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    sockaddr_in src{};
    src.sin_family = AF_INET;
    src.sin_addr.s_addr = htonl(0x7f000002u + (w->m_nextSource++ % 8)); // 127.0.0.2 + i
    // A failed bind is harmless: connect() then picks 127.0.0.1 as usual.
    [[maybe_unused]] const int rc = bind(fd, reinterpret_cast<const sockaddr *>(&src), sizeof src);
    return CURL_SOCKOPT_OK;
}

int Worker::onPrereq(void *user, char *, char *, int, int)
{
    auto *t = static_cast<Transfer *>(user);
    t->record.tWire = t->worker->nowNs();
    return CURL_PREREQFUNC_OK;
}

void Worker::addTransfer(WorkItem &&item)
{
    Transfer *t;
    if (!m_free.empty()) {
        t = m_free.back();
        m_free.pop_back();
        curl_easy_reset(t->easy);
    } else {
        t = new Transfer;
        t->worker = this;
        t->easy = curl_easy_init();
    }
    t->direct = false;
    t->conn = nullptr;
    t->connReused = t->retried = t->newConnection = false;
    t->firstResponseByteNs = kNoTime;
    t->request = std::move(item.request);
    t->record = std::move(item.record);
    t->options = std::move(item.options);
    t->tag = item.tag;
    t->parser.reset();
    t->parser.setMaxEventBytes(t->options->maxEventBytes);
    t->acc = std::make_unique<StreamAccumulator>(t->record, t->options->storeText);
    t->errorBody.clear();
    t->status = 0;
    t->dirty = false;
    t->firstContentSeen = false;
    t->forcedError = ErrorClass::None;
    t->forcedDetail.clear();
    t->fd = -1;
    // One event per token plus role/finish/usage/[DONE]: sized once, no regrowth while streaming.
    t->acc->reserveEvents(static_cast<std::size_t>(std::max(t->record.intendedOsl, 0)) + 8);
    if (startDirect(t))
        return;

    CURL *e = t->easy;
    curl_easy_setopt(e, CURLOPT_URL, t->request.url.c_str());
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->request.body.c_str());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(t->request.body.size()));
    t->headers = nullptr;
    for (const std::string &h : t->request.headers)
        t->headers = curl_slist_append(t->headers, h.c_str());
    t->headers = curl_slist_append(t->headers, "Expect:"); // no 100-continue round trip on large prompts
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Worker::onWrite);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(e, CURLOPT_PREREQFUNCTION, &Worker::onPrereq);
    curl_easy_setopt(e, CURLOPT_PREREQDATA, t);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(e, CURLOPT_BUFFERSIZE, 16384L);
    switch (t->options->httpVersion) {
    case Endpoint::HttpVersion::Http11:
        // Explicit: libcurl's own default would negotiate h2 with https servers that offer it.
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
        break;
    case Endpoint::HttpVersion::Http2:
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
        curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
        break;
    case Endpoint::HttpVersion::H2cPriorKnowledge:
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE));
        curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
        break;
    }
    curl_easy_setopt(e, CURLOPT_NOPROXY, "localhost,127.0.0.0/8,::1");
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(t->options->connectTimeoutS * 1000));
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, nullptr); // identity: compression would delay events
    if (!t->options->caFile.empty())
        curl_easy_setopt(e, CURLOPT_CAINFO, t->options->caFile.c_str());
    if (t->options->insecure) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    curl_easy_setopt(e, CURLOPT_SOCKOPTFUNCTION, &Worker::onSockopt);
    curl_easy_setopt(e, CURLOPT_SOCKOPTDATA, t);

    t->record.tSend = nowNs();
    t->activeIndex = m_active.size();
    m_active.push_back(t);
    curl_multi_add_handle(static_cast<CURLM *>(m_multi), e);
}

void Worker::drainEvents(std::int64_t deadlineNs)
{
    // From the back (order does not matter: each transfer's events keep their own timestamps), so what is
    // left past the deadline stays in m_dirty for the next slice.
    std::size_t done = 0;
    while (!m_dirty.empty() && (done < kMinDrainPerSlice || nowNs() < deadlineNs)) {
        Transfer *t = m_dirty.back();
        m_dirty.pop_back();
        ++done;
        t->dirty = false;
        t->parser.drain([t](const SseParser::Event &ev) { t->acc->onEvent(ev.data, ev.tNs); });
        if (!t->firstContentSeen && t->acc->contentEvents() > 0) {
            t->firstContentSeen = true;
            setFdPriority(t->fd, false);
        }
    }
}

void Worker::finishTransfer(Transfer *t, int curlCode)
{
    auto *multi = static_cast<CURLM *>(m_multi);
    RequestRecord &r = t->record;
    r.tEnd = nowNs();
    if (t->dirty) {
        t->dirty = false;
        m_dirty.erase(std::remove(m_dirty.begin(), m_dirty.end(), t), m_dirty.end());
    }
    t->parser.drain([t](const SseParser::Event &ev) { t->acc->onEvent(ev.data, ev.tNs); });
    t->acc->finish();

    long connects = 0;
    if (t->direct) {
        directTimings(*t);
        connects = t->newConnection ? 1 : 0;
    } else {
        curlTimings(*t);
        curl_easy_getinfo(t->easy, CURLINFO_NUM_CONNECTS, &connects);
    }
    if (connects > 0)
        m_newConnections.fetch_add(static_cast<std::uint64_t>(connects));
    if (isLoopbackUrl(t->request.url)) {
        ++m_completedLoopback;
        if (connects > 0)
            ++m_newConnLoopback;
        // Auto-detect servers closing after every stream (llama.cpp): ≥ 90 % new connections over 64
        // requests.
        if (!m_spreadActive.load() && m_completedLoopback >= 64 &&
            m_newConnLoopback * 10 >= m_completedLoopback * 9)
            m_spreadActive = true;
    }

    const std::string &key = t->options->apiKey;
    const bool anyBytes = r.tFirstByte != kNoTime;
    // A failure observed by curl or forced by us overrides stream-level judgements (except server error
    // events).
    if (t->forcedError != ErrorClass::None) {
        r.error = t->forcedError;
        r.errorDetail = t->forcedDetail;
    } else if (curlCode == CURLE_WRITE_ERROR && t->parser.overflowed()) {
        r.error = ErrorClass::MalformedStream;
        r.errorDetail = "SSE event larger than " + std::to_string(t->options->maxEventBytes) + " bytes";
    } else if (curlCode != CURLE_OK) {
        if (r.error != ErrorClass::ServerErrorEvent) {
            r.error = classifyCurl(static_cast<CURLcode>(curlCode), anyBytes);
            r.errorDetail = redactSecrets(curl_easy_strerror(static_cast<CURLcode>(curlCode)), key);
        }
    } else if (r.httpStatus < 200 || r.httpStatus >= 300) {
        r.error = ErrorClass::HttpStatus;
        r.errorDetail =
            "HTTP " + std::to_string(r.httpStatus) + ": " + redactSecrets(t->errorBody.substr(0, 512), key);
    } else if (r.error == ErrorClass::None && t->parser.hasUnterminatedEvent()) {
        r.error = ErrorClass::MalformedStream;
        r.errorDetail = "stream ended inside an SSE event";
    } else if (r.error == ErrorClass::None && t->options->forcedLength && r.intendedOsl > 0) {
        const bool noContent = t->acc->contentEvents() == 0;
        const bool shortByUsage = r.nOutSource == TokenCountSource::Usage && r.nOut < r.intendedOsl;
        if (noContent || shortByUsage) {
            r.error = ErrorClass::ShortOutput;
            r.errorDetail = "received " + std::to_string(r.nOut) + " of " + std::to_string(r.intendedOsl) +
                            " requested output tokens";
        }
    }
    if (!r.errorDetail.empty())
        r.errorDetail = redactSecrets(r.errorDetail, key);

    if (t->direct)
        releaseConnection(t,
                          curlCode == CURLE_OK && t->forcedError == ErrorClass::None && t->http.reusable());
    else
        curl_multi_remove_handle(multi, t->easy);
    t->fd = -1;
    curl_slist_free_all(t->headers);
    t->headers = nullptr;
    Transfer *last = m_active.back();
    m_active[t->activeIndex] = last;
    last->activeIndex = t->activeIndex;
    m_active.pop_back();

    RequestRecord done = std::move(t->record);
    const std::uint64_t tag = t->tag;
    t->acc.reset();
    t->record = RequestRecord();
    t->request = HttpRequest();
    t->options.reset();
    // Drop big buffers (Generation-length bodies) rather than keep them on the free list.
    if (t->parser.capacityBytes() > 256 * 1024)
        t->parser = SseParser();
    m_free.push_back(t);
    m_inFlight.fetch_sub(1, std::memory_order_relaxed);
    if (m_onComplete)
        m_onComplete(std::move(done), tag, m_index);
}

void Worker::checkTimeouts(std::int64_t now)
{
    auto *multi = static_cast<CURLM *>(m_multi);
    std::vector<Transfer *> expired;
    for (Transfer *t : m_active) {
        const TransferOptions &o = *t->options;
        const RequestRecord &r = t->record;
        if (!t->firstContentSeen && now - r.tSend > secondsToNs(o.firstTokenTimeoutS)) {
            t->forcedError = ErrorClass::TimeoutBeforeFirstToken;
            t->forcedDetail = "no content event within " + std::to_string(o.firstTokenTimeoutS) + " s";
        } else if (t->firstContentSeen && t->lastByteNs != kNoTime &&
                   now - t->lastByteNs > secondsToNs(o.stallTimeoutS)) {
            t->forcedError = ErrorClass::StallMidStream;
            t->forcedDetail = "no bytes for " + std::to_string(o.stallTimeoutS) + " s after the first token";
        } else if (now - r.tSend > secondsToNs(o.requestTimeoutS)) {
            t->forcedError = ErrorClass::HarnessCancelled;
            t->forcedDetail = "request timeout";
        } else {
            continue;
        }
        expired.push_back(t);
    }
    for (Transfer *t : expired)
        finishTransfer(t, CURLE_OK);
    (void)multi;
}

void Worker::cancelEverything()
{
    std::vector<WorkItem> queued;
    {
        std::lock_guard lock(m_inboxMutex);
        queued.swap(m_inbox);
    }
    // Items taken from the inbox but not started yet (bounded starts per turn).
    for (std::size_t i = m_inboxNext; i < m_inboxLocal.size(); ++i)
        queued.push_back(std::move(m_inboxLocal[i]));
    m_inboxLocal.clear();
    m_inboxNext = 0;
    for (WorkItem &w : queued) {
        w.record.error = ErrorClass::HarnessCancelled;
        w.record.errorDetail = "cancelled before sending";
        m_inFlight.fetch_sub(1, std::memory_order_relaxed);
        if (m_onComplete)
            m_onComplete(std::move(w.record), w.tag, m_index);
    }
    const std::vector<Transfer *> active = m_active;
    const std::int64_t extraUs = g_cancelCostUs.load(std::memory_order_relaxed);
    for (Transfer *t : active) {
        if (extraUs > 0)
            std::this_thread::sleep_for(std::chrono::microseconds(extraUs));
        t->forcedError = ErrorClass::HarnessCancelled;
        t->forcedDetail = "cancelled";
        finishTransfer(t, CURLE_OK);
    }
}

void Worker::setCancelCostForTesting(std::chrono::microseconds perTransfer)
{
    g_cancelCostUs.store(perTransfer.count(), std::memory_order_relaxed);
}

void Worker::collectFinished(std::int64_t deadlineNs)
{
    auto *multi = static_cast<CURLM *>(m_multi);
    int msgs = 0;
    // At least one, then until the slice's deadline; what is left stays in libcurl's message queue.
    m_moreFinished = false;
    bool first = true;
    while (first || nowNs() < deadlineNs) {
        CURLMsg *m = curl_multi_info_read(multi, &msgs);
        if (!m)
            return;
        first = false;
        if (m->msg != CURLMSG_DONE)
            continue;
        Transfer *t = nullptr;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char **>(&t));
        if (t && t->direct && t->conn && t->conn->easy == m->easy_handle)
            onDirectConnected(t, m->data.result); // a direct-path connection is up (or failed)
        else if (t && !t->direct)
            finishTransfer(t, m->data.result);
    }
    m_moreFinished = msgs > 0;
}

bool Worker::workPending() const
{
    return m_inboxNext < m_inboxLocal.size() || m_moreFinished || !m_dirty.empty() ||
           (m_curlDeadlineNs >= 0 && m_curlDeadlineNs <= nowNs());
}

void Worker::startQueued(std::int64_t deadlineNs)
{
    // At least one, then until the deadline. libcurl arms a 0 ms timer for each added handle; the timer
    // action right after sends it, so each start's cost lands inside the slice.
    bool first = true;
    while (m_inboxNext < m_inboxLocal.size() && (first || nowNs() < deadlineNs)) {
        first = false;
        addTransfer(std::move(m_inboxLocal[m_inboxNext++]));
        if (m_curlDeadlineNs >= 0 && nowNs() >= m_curlDeadlineNs) {
            m_curlDeadlineNs = -1;
            curlAction(CURL_SOCKET_TIMEOUT, 0);
        }
    }
    if (m_inboxNext == m_inboxLocal.size()) {
        m_inboxLocal.clear();
        m_inboxNext = 0;
    }
}

bool Worker::startsLate(std::int64_t nowNs) const
{
    return m_inboxNext < m_inboxLocal.size() &&
           nowNs - m_inboxLocal[m_inboxNext].record.tSched >= kMaxStartDeferralNs;
}

void Worker::runWorkSlice(std::int64_t budgetNs)
{
    const std::int64_t deadline = nowNs() + budgetNs;
    startQueued(deadline);
    if (m_curlDeadlineNs >= 0 && nowNs() >= m_curlDeadlineNs) {
        m_curlDeadlineNs = -1;
        curlAction(CURL_SOCKET_TIMEOUT, 0);
    }
    collectFinished(deadline);
    drainEvents(deadline);
    const std::int64_t now = nowNs();
    if (now - m_lastTimeoutCheckNs > 100'000'000) {
        checkTimeouts(now);
        m_lastTimeoutCheckNs = now;
    }
}

void Worker::socketAction(int fd, std::uint32_t epollEvents)
{
    if (Transfer *t = fdWatch(fd).direct) {
        directSocket(t, epollEvents); // measures its reads' delay itself, from their receive stamps
        return;
    }
    if (epollEvents & EPOLLIN)
        m_readDelay.add(nowNs() - m_batchReadyByNs);
    const int flags = ((epollEvents & EPOLLIN) ? CURL_CSELECT_IN : 0) |
                      ((epollEvents & EPOLLOUT) ? CURL_CSELECT_OUT : 0) |
                      ((epollEvents & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
    curlAction(fd, flags);
}

void Worker::curlAction(int fd, int flags)
{
    int running = m_curlRunning;
    curl_multi_socket_action(static_cast<CURLM *>(m_multi), fd, flags, &running);
    // Fewer transfers alive: one finished and its message waits in libcurl's queue (collected in a slice).
    if (running < m_curlRunning)
        m_moreFinished = true;
    m_curlRunning = running;
}

void Worker::applyFirstTokenPriority()
{
    const bool on = m_priorityWanted.load(std::memory_order_relaxed);
    if (on == m_priorityOn)
        return;
    m_priorityOn = on;
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = m_epollPriority;
    if (on) {
        // The priority set goes back into the main one; transfers still waiting for their first token move
        // into it.
        epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_epollPriority, &ev);
        for (Transfer *t : m_active)
            if (!t->firstContentSeen)
                setFdPriority(t->fd, true);
    } else {
        // Every socket back into the ordinary set, and the (now empty) priority set out of it: the loop never
        // sees or checks it.
        for (std::size_t fd = 0; fd < m_fdWatch.size(); ++fd)
            if (m_fdWatch[fd].registered && m_fdWatch[fd].priority)
                watchFd(static_cast<int>(fd), m_fdWatch[fd].events, false);
        epoll_ctl(m_epoll, EPOLL_CTL_DEL, m_epollPriority, nullptr);
    }
}

void Worker::run()
{
    m_lastTimeoutCheckNs = nowNs();
    constexpr int kPollMs = 50;
    constexpr int kMaxEvents = 512;
    epoll_event events[kMaxEvents];
    std::int64_t lastSliceNs = nowNs();
    std::int64_t lastStartSliceNs = lastSliceNs;
    std::int64_t lastWaitReturnNs = lastSliceNs;
    while (!m_stop.load()) {
        if (m_cancel.exchange(false))
            cancelEverything();
        {
            std::lock_guard lock(m_inboxMutex);
            if (m_inboxLocal.empty())
                m_inboxLocal.swap(m_inbox);
            else
                std::move(m_inbox.begin(), m_inbox.end(), std::back_inserter(m_inboxLocal));
            m_inbox.clear();
        }
        // After taking the inbox (its lock orders this after a setFirstTokenPriority() that preceded a
        // submit()), before any of those transfers starts.
        applyFirstTokenPriority();

        // 1. Read what is ready. With work pending only look (no wait); else sleep until libcurl's timer or
        // a socket or a wake-up.
        int waitMs = kPollMs;
        if (workPending()) {
            waitMs = 0;
        } else if (m_curlDeadlineNs >= 0) {
            const std::int64_t untilNs = m_curlDeadlineNs - nowNs();
            waitMs = untilNs <= 0
                         ? 0
                         : static_cast<int>(std::min<std::int64_t>(kPollMs, (untilNs + 999'999) / 1'000'000));
        }
        const std::int64_t before = nowNs();
        const int ready = epoll_wait(m_epoll, events, kMaxEvents, waitMs);
        const std::int64_t returned = nowNs();
        // A wait that slept returned because something became ready just then; one that did not found
        // sockets that became ready at some moment after the previous wait returned (they were read then,
        // or not ready): taking that moment makes each read's delay an upper bound.
        const bool slept = waitMs > 0 && returned - before > 20'000;
        m_batchReadyByNs = slept ? returned : lastWaitReturnNs;
        lastWaitReturnNs = returned;
        if (ready > 0)
            m_stampClock.calibrate([this] { return nowNs(); });
        if (ready == 0 && waitMs > 0) {
            // Woke up later than the timeout: the thread was starved (CPU-bound client).
            const double lagMs = static_cast<double>(returned - before) / 1e6 - waitMs;
            if (lagMs > 0) {
                std::lock_guard lock(m_lagMutex);
                if (m_loopLagMs.size() < 100000)
                    m_loopLagMs.push_back(lagMs);
            }
        }
        int socketsRead = 0;
        int ordinaryReads = 0;
        // Off: the priority set is not in m_epoll (never reported) and is never looked at between reads.
        const bool priorityOn = m_priorityOn;
        for (int i = 0; i < ready; ++i) {
            const int fd = events[i].data.fd;
            if (fd == m_wakeFd) {
                std::uint64_t count = 0;
                [[maybe_unused]] const ssize_t n = ::read(m_wakeFd, &count, sizeof count);
                continue;
            }
            // Transfers waiting for their first token: when their set shows up in this batch, and after every
            // few ordinary reads (their set may have become ready behind a long batch).
            if (fd == m_epollPriority) {
                socketsRead += readPrioritySockets();
                continue;
            }
            if (priorityOn && ordinaryReads > 0 && ordinaryReads % kPriorityCheckEvery == 0)
                socketsRead += readPrioritySockets();
            socketAction(fd, events[i].events);
            ++socketsRead;
            ++ordinaryReads;
        }

        // Events of a small batch are classified at once (~0.7 µs each; saves looking at the sockets again
        // only to find nothing); after a big batch the client is behind, and a slice does it later.
        if (socketsRead > 0 && socketsRead <= kClassifyAtOnceMaxReads)
            drainEvents(0);

        // 2. Per-request work in one short slice — only when nothing was ready (the loop comes back here
        // after at most one more look at the sockets), or when reads have kept it waiting too long.
        const std::int64_t now = nowNs();
        if (socketsRead == 0 || now - lastSliceNs >= kMaxWorkDeferralNs) {
            runWorkSlice(socketsRead == 0 ? kIdleSliceNs : kForcedSliceNs);
            lastSliceNs = nowNs();
            lastStartSliceNs = lastSliceNs;
        } else if (startsLate(now) && now - lastStartSliceNs >= kMaxStartDeferralNs) {
            startQueued(now + kStartSliceNs);
            lastStartSliceNs = nowNs();
        }
    }
    cancelEverything();
}

} // namespace Throughline
