#pragma once
// One load-engine worker: a thread running its own libcurl multi handle driven by curl_multi_socket_action
// over an epoll set (woken through an eventfd when work is handed over). Only sockets that are ready are
// touched, so a loop turn costs O(ready), not O(open streams) — what lets one process hold 16,384 streams.
// Transfers stream SSE; the write callback only timestamps, appends and finds event boundaries
// (SseParser); events are classified later, still on this thread but outside the callback.
// Two read paths (docs/metrics.md "Read paths"): plain-HTTP/1.1 requests without a proxy are written and
// read by the worker itself on keep-alive sockets libcurl connected (CURLOPT_CONNECT_ONLY; workerdirect.cpp:
// one recv per ready socket, no poll after it, no transfer state machine); everything else — TLS, HTTP/2,
// proxies, or TransferOptions::readPath Libcurl — goes through libcurl's transfers.
// Reads come first: ready sockets are read (and their events timestamped) before any per-request work
// (starts, completions, classification), which runs in short slices while no socket is ready; and sockets of
// transfers still waiting for their first token are read ahead of the other ready ones (see worker.cpp) —
// unless setFirstTokenPriority(false): then every socket stays in the one ordinary set.
//
// Thread affinity: submit(), cancelAll(), inFlight() and stop() may be called from any thread; the
// completion callback runs on this worker's thread. Connections stay in the multi handle's cache across load
// points (keep-alive), so the worker lives for the whole run.

#include "core/campaign/endpoint.h"
#include "core/engine/processstats.h"
#include "core/engine/readdelayhistogram.h"
#include "core/engine/receivestamp.h"
#include "core/engine/requestbuilder.h"
#include "core/engine/requestrecord.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace Throughline {

// Per-scenario transfer settings (shared by all requests of a point).
struct TransferOptions {
    std::string caFile;
    bool insecure = false;
    double connectTimeoutS = 10;
    double firstTokenTimeoutS = 600; // no content event within this after t_send → TimeoutBeforeFirstToken
    double stallTimeoutS = 60;       // no byte for this long after the first token → StallMidStream
    double requestTimeoutS = 1800;   // whole request → HarnessCancelled ("request timeout")
    bool forcedLength = true;        // judge ShortOutput against intendedOsl when usage reports N_out
    bool storeText = false;
    std::size_t maxEventBytes = 1 << 20;
    // CURLOPT_HTTP_VERSION; with HTTP/2 (ALPN or h2c prior knowledge) requests also set CURLOPT_PIPEWAIT, so
    // concurrent streams wait for a multiplexed connection rather than each opening one. Filled from
    // Endpoint::httpVersion by whoever builds the options (RunController).
    Endpoint::HttpVersion httpVersion = Endpoint::HttpVersion::Http11;
    std::string apiKey; // only to redact error excerpts; never logged
    // Endpoint::readPath: Auto reads plain-HTTP/1.1 responses itself where it can, Libcurl never does.
    Endpoint::ReadPath readPath = Endpoint::ReadPath::Auto;
};

struct WorkItem {
    HttpRequest request;
    RequestRecord record; // seq, indices, warm-up flag, intended lengths, tSched already set
    std::shared_ptr<const TransferOptions> options;
    std::uint64_t tag = 0; // caller's cookie (e.g. closed-loop slot), passed back on completion
};

class Worker
{
public:
    using Clock = std::chrono::steady_clock;
    // Called on the worker thread for every finished request (success or failure).
    using CompletionFn = std::function<void(RequestRecord &&record, std::uint64_t tag, int workerIndex)>;

    Worker(int index, Clock::time_point t0, CompletionFn onComplete);
    ~Worker();
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    void start();
    void stop(); // cancels in-flight transfers (HarnessCancelled), joins the thread

    void submit(WorkItem item);
    // Cancels queued and in-flight transfers; each completes with HarnessCancelled within one loop turn.
    // That turn is not short at scale: every in-flight stream's socket is closed, ~50–150 µs each on
    // loopback, so 8,192 streams on one worker take about a second or more (bench_streams hold).
    void cancelAll();
    // Test seam: extra time the cancellation of each in-flight transfer takes (any thread; 0 = none, the
    // default). Lets a test reproduce, with a few streams, how long cancelling thousands takes.
    static void setCancelCostForTesting(std::chrono::microseconds perTransfer);

    int inFlight() const { return m_inFlight.load(std::memory_order_relaxed); }
    int index() const { return m_index; }
    std::int64_t nowNs() const;

    // Loop lag samples (ms): how late each poll wake-up was relative to its deadline. Swapped out by the
    // caller.
    std::vector<double> takeLoopLagMs();
    // The client's error budget (docs/metrics.md): how long each ready socket waited in this worker before
    // it was read — counts since the last take added into `into` (ReadDelayHistogram buckets). Any thread.
    void takeReadDelays(std::vector<std::uint64_t> &into) { m_readDelay.takeInto(into); }
    // This worker thread's scheduler accounting so far (time runnable but waiting for a CPU); nullopt
    // before the thread runs or without kernel support. Any thread.
    std::optional<ThreadCpuWait> cpuWait() const;
    // Force source-address spreading over 127.0.0.2–127.0.0.9 for loopback URLs (auto-enabled when the
    // server closes the connection after every stream, and while this worker holds many open streams).
    void setSpreadLoopbackSources(bool on) { m_spreadForced.store(on); }
    bool spreadingLoopbackSources() const { return m_spreadActive.load(); }
    std::uint64_t newConnections() const { return m_newConnections.load(); }
    // First-token priority (LoadPlan::firstTokenPriority, default on): sockets of transfers still waiting for
    // their first content event sit in a second epoll set that is read ahead of the others (tighter TTFT;
    // its effect on later-chunk tails depends on the client's load). Off: one epoll set, no second-set
    // checks, no moves between sets. Any thread; takes effect on the worker's next loop turn, before it
    // starts any transfer submitted after this call.
    void setFirstTokenPriority(bool on);
    bool firstTokenPriority() const { return m_priorityWanted.load(std::memory_order_relaxed); }
    // Sockets handed to libcurl from the priority set so far (0 while first-token priority is off). Any
    // thread.
    std::uint64_t prioritySocketReads() const
    {
        return m_prioritySocketReads.load(std::memory_order_relaxed);
    }

    struct Transfer;   // defined in workertransfer.h
    struct Connection; // a direct-path keep-alive connection (workertransfer.h)

private:
    void run();
    void addTransfer(WorkItem &&item);
    void finishTransfer(Transfer *t, int curlCode);
    void drainEvents(std::int64_t deadlineNs);
    void checkTimeouts(std::int64_t nowNs);
    void cancelEverything();
    void wake();
    void collectFinished(std::int64_t deadlineNs);
    bool workPending() const;
    void runWorkSlice(std::int64_t budgetNs);
    void startQueued(std::int64_t deadlineNs);
    bool startsLate(std::int64_t nowNs) const;
    struct FdWatch {
        std::uint32_t events = 0; // EPOLLIN/EPOLLOUT as libcurl (or the direct path) asked
        bool registered = false;  // in one of the two epoll sets
        bool priority = false;    // that set is m_epollPriority (its transfer has no content event yet)
        Transfer *direct =
            nullptr; // the direct-path transfer reading this socket (libcurl does not watch it)
    };
    FdWatch &fdWatch(int fd);
    void watchFd(int fd, std::uint32_t events, bool priority);
    void unwatchFd(int fd); // out of both sets, FdWatch cleared

    // The direct read path (workerdirect.cpp).
    bool startDirect(Transfer *t); // false: not eligible, use libcurl
    void attachConnection(Transfer *t);
    void openConnection(Transfer *t);
    void onDirectConnected(Transfer *t, int curlCode);
    void sendRequest(Transfer *t);
    bool writeSome(Transfer *t); // false: the transfer failed (and is finished)
    void directSocket(Transfer *t, std::uint32_t epollEvents);
    // A direct read's time: its receive stamp on this clock (within what is certain), else now.
    std::int64_t readTime(const Transfer *t, std::int64_t stampRealNs) const;
    void directFailed(Transfer *t, int curlCode);
    void releaseConnection(Transfer *t, bool reuse);
    void closeConnection(Connection *c);
    static bool acceptBody(Transfer *t, const char *data, std::size_t len, std::int64_t nowNs);
    static bool onDirectBody(void *transfer, const char *data, std::size_t len);
    void setFdPriority(int fd, bool priority);
    void socketAction(int fd, std::uint32_t epollEvents);
    void curlAction(int fd, int curlSelectFlags); // curl_multi_socket_action; notes finished transfers
    int readPrioritySockets();                    // returns how many sockets it handed to libcurl
    void applyFirstTokenPriority();               // m_priorityWanted → m_priorityOn (worker thread)
    static int onSocket(void *easy, int fd, int what, void *user, void *socketData);
    static int onTimer(void *multi, long timeoutMs, void *user);
    static std::size_t onWrite(char *data, std::size_t size, std::size_t n, void *user);
    static int onSockopt(void *user, int fd, int purpose);
    static int onPrereq(void *user, char *, char *, int, int);

    int m_index;
    Clock::time_point m_t0;
    CompletionFn m_onComplete;
    void *m_multi = nullptr; // CURLM*
    int m_epoll = -1;
    int m_wakeFd = -1;              // eventfd in m_epoll: submit/cancel/stop from other threads
    int m_epollPriority = -1;       // sockets of transfers before their first content event (in m_epoll)
    std::vector<FdWatch> m_fdWatch; // by descriptor; worker thread

    // First-token priority: m_epollPriority is in m_epoll only while m_priorityOn.
    std::atomic<bool> m_priorityWanted{true};            // setFirstTokenPriority(); any thread
    bool m_priorityOn = true;                            // what the loop does; worker thread
    std::atomic<std::uint64_t> m_prioritySocketReads{0}; // written by the worker thread only

    std::int64_t m_curlDeadlineNs =
        -1; // when libcurl wants CURL_SOCKET_TIMEOUT (-1: no timer); worker thread
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_cancel{false};
    std::atomic<int> m_inFlight{0};

    std::mutex m_inboxMutex;
    std::vector<WorkItem> m_inbox;
    std::vector<WorkItem> m_inboxLocal; // taken from m_inbox under the lock; started from m_inboxNext on
    std::size_t m_inboxNext = 0;        // (a few per work slice; worker thread)
    bool m_moreFinished = false;        // completions (may) wait in libcurl's message queue
    int m_curlRunning = 0;              // libcurl's running-transfer count after the last action
    std::int64_t m_lastTimeoutCheckNs = 0;

    std::vector<Transfer *> m_active;
    std::vector<Transfer *> m_free;  // recycled transfers (easy handle + buffers keep their capacity)
    std::vector<Transfer *> m_dirty; // transfers with completed events awaiting classification (this thread)
    std::mutex m_lagMutex;
    std::vector<double> m_loopLagMs;
    ReadDelayHistogram m_readDelay;
    // The latest moment the sockets of the current epoll batch can have become ready: the wait's return
    // when it slept, else the previous wait's return (worker thread). A read's delay is measured from it.
    std::int64_t m_batchReadyByNs = 0;
    StampClock m_stampClock;     // the direct path's receive stamps on this clock, calibrated per wake-up
    std::atomic<pid_t> m_tid{0}; // the worker thread's id (for its schedstat), 0 before it runs

    std::atomic<bool> m_spreadForced{false};
    std::atomic<bool> m_spreadActive{false};
    std::atomic<std::uint64_t> m_newConnections{0};
    // Idle direct-path connections by origin ("host:port"), most recently used last (worker thread).
    std::unordered_map<std::string, std::vector<Connection *>> m_idleConnections;
    std::vector<char> m_readBuffer; // the direct path's one receive buffer (worker thread)
    std::uint64_t m_completedLoopback = 0;
    std::uint64_t m_newConnLoopback = 0;
    unsigned m_nextSource = 0;
};

} // namespace Throughline
