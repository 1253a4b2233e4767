#pragma once
// Worker's per-request state, shared by worker.cpp (libcurl transfers) and workerdirect.cpp (the direct read
// path). Internal to core/engine. Thread affinity: the owning worker's thread.

#include "core/engine/http1response.h"
#include "core/engine/sseparser.h"
#include "core/engine/streamaccumulator.h"
#include "core/engine/worker.h"

#include <curl/curl.h>

namespace Throughline {

struct Worker::Transfer {
    Worker *worker = nullptr;
    CURL *easy = nullptr;
    curl_slist *headers = nullptr;
    HttpRequest request;
    RequestRecord record;
    std::shared_ptr<const TransferOptions> options;
    std::uint64_t tag = 0;
    SseParser parser;
    std::unique_ptr<StreamAccumulator> acc;
    std::string errorBody; // first bytes of a non-2xx body (redacted before it leaves)
    std::int64_t lastByteNs = kNoTime;
    int status = 0;     // HTTP status once known
    bool dirty = false; // queued in m_dirty
    bool firstContentSeen = false;
    ErrorClass forcedError = ErrorClass::None; // set by timeouts/cancel before curl finishes
    std::string forcedDetail;
    std::size_t activeIndex = 0; // position in Worker::m_active (swap-removal keeps finishing O(1))
    int fd = -1; // the socket libcurl registered for this transfer (onSocket), -1 before/after

    // The direct read path (workerdirect.cpp); `easy` is then unused.
    bool direct = false;
    Connection *conn = nullptr; // while the transfer holds one
    bool connReused = false;    // conn carried an earlier request (a stale one is retried once)
    bool retried = false;
    bool newConnection = false; // this transfer's request opened a connection
    std::string origin;         // "host:port"
    std::string wire;           // the request's bytes
    std::size_t wireSent = 0;
    Http1ResponseReader http;
    std::int64_t firstResponseByteNs = kNoTime; // headers included (libcurl's STARTTRANSFER)
    std::int64_t readNs = kNoTime;              // the current read's timestamp (onDirectBody)
};

// A keep-alive connection of the direct path. Its CONNECT_ONLY handle stays in the multi handle for the
// connection's life: removing it would close the socket.
struct Worker::Connection {
    CURL *easy = nullptr;
    int fd = -1; // CURLINFO_ACTIVESOCKET once connected
    std::string origin;
    bool connected = false;
};

// The response's status, protocol and phase timings into t.record when the transfer finishes
// (workertimings.cpp): from libcurl's easy handle, or on the direct path from the worker's own timestamps.
void curlTimings(Worker::Transfer &t);
void directTimings(Worker::Transfer &t);

} // namespace Throughline
