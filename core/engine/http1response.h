#pragma once
// An HTTP/1.1 response read incrementally, for the engine's direct read path (the worker reads plain-HTTP
// sockets libcurl connected, docs/metrics.md "Read paths"): status line, headers, then the body — chunked,
// Content-Length or until the connection closes — handed on as it arrives with the chunk framing removed.
// Interim 1xx responses are skipped. Lines may end in CRLF or a bare LF (as libcurl accepts). Body pieces
// point into the caller's buffer: no copy, no allocation per byte once the headers are read.
//
// Not handled (the direct path is not chosen for them, Worker): TLS, HTTP/2, proxies, HEAD requests,
// pipelining (bytes after the end of a response make the connection not reusable).
//
// Thread affinity: one instance per transfer, used by one worker thread.

#include <cstddef>
#include <cstdint>
#include <string>

namespace Throughline {

class Http1ResponseReader
{
public:
    enum class Outcome { NeedMore, Done, Failed };
    // What went wrong, so the caller can name it as libcurl would (worker: CURLcode and its text).
    enum class Failure { None, NotHttp, BadHeaders, BadChunk, ClosedEarly, NothingReceived, Aborted };
    // Receives each piece of body in order; returning false aborts the response (Failure::Aborted).
    using BodySink = bool (*)(void *context, const char *data, std::size_t len);

    void reset();
    // Feeds the bytes of one read. Stops at the end of the response; bytes after it are counted in
    // trailingBytes() (the connection is then not reusable).
    Outcome feed(const char *data, std::size_t len, BodySink sink, void *context);
    // The peer closed the connection: the end of a body delimited by close, else a failure.
    Outcome finishAtClose();

    int status() const { return m_status; } // 0 until the status line of the final response is read
    int minorVersion() const { return m_minorVersion; } // HTTP/1.x
    bool headersDone() const { return m_headersDone; }  // of the final response
    bool done() const { return m_state == State::Done; }
    bool anyBytes() const { return m_anyBytes; } // any byte of any response, interim ones included
    std::uint64_t bodyBytes() const { return m_bodyBytes; }
    // The connection may carry the next request: HTTP/1.1 without "Connection: close" (HTTP/1.0 with
    // "Connection: keep-alive"), the body delimited by length, and nothing after the response.
    bool reusable() const;
    std::size_t trailingBytes() const { return m_trailingBytes; }
    Failure failure() const { return m_failure; }
    const std::string &error() const { return m_error; } // names the problem; empty unless Failed

private:
    enum class State {
        StatusLine,
        Headers,
        Body,
        ChunkSize,
        ChunkData,
        ChunkDataEnd,
        Trailers,
        Done,
        Failed
    };
    enum class Framing { None, Length, Chunked, UntilClose };
    static constexpr std::size_t kMaxHeaderBytes = 64 * 1024;

    Outcome fail(Failure f, std::string message);
    // Line-based states: takes one whole line (without its terminator) once it is complete.
    bool takeLine(const char *&p, const char *end, std::string &line);
    Outcome onLine(const std::string &line);
    Outcome onStatusLine(const std::string &line);
    Outcome onHeaderLine(const std::string &line);
    Outcome onHeadersEnd();
    Outcome onChunkSizeLine(const std::string &line);

    State m_state = State::StatusLine;
    Framing m_framing = Framing::None;
    std::string m_line; // the line being assembled (line-based states only)
    std::size_t m_headerBytes = 0;
    int m_status = 0;
    int m_minorVersion = 1;
    bool m_headersDone = false;
    bool m_connectionClose = false;
    bool m_connectionKeepAlive = false;
    bool m_chunked = false;
    bool m_haveLength = false;
    std::uint64_t m_contentLength = 0;
    std::uint64_t m_remaining = 0; // of the body (Length) or of the current chunk (ChunkData)
    std::uint64_t m_bodyBytes = 0;
    std::size_t m_trailingBytes = 0;
    bool m_anyBytes = false;
    Failure m_failure = Failure::None;
    std::string m_error;
};

} // namespace Throughline
