#include "core/engine/http1response.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace Throughline {

namespace {

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return (x | 0x20) == (y | 0x20); });
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// Does a comma-separated header value hold this token (any case)?
bool listHas(std::string_view value, std::string_view token)
{
    while (!value.empty()) {
        const std::size_t comma = value.find(',');
        if (equalsIgnoringCase(trimmed(value.substr(0, comma)), token))
            return true;
        if (comma == std::string_view::npos)
            break;
        value.remove_prefix(comma + 1);
    }
    return false;
}

// The last coding of a Transfer-Encoding list (RFC 9112 §6.3: chunked must be last to frame the body).
std::string_view lastCoding(std::string_view value)
{
    const std::size_t comma = value.rfind(',');
    return trimmed(comma == std::string_view::npos ? value : value.substr(comma + 1));
}

bool parseDecimal(std::string_view s, std::uint64_t &out)
{
    if (s.empty() || s.size() > 18)
        return false;
    std::uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    out = v;
    return true;
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

void Http1ResponseReader::reset()
{
    *this = Http1ResponseReader();
}

bool Http1ResponseReader::reusable() const
{
    if (m_state != State::Done || m_trailingBytes > 0 || m_framing == Framing::UntilClose)
        return false;
    return m_minorVersion >= 1 ? !m_connectionClose : m_connectionKeepAlive && !m_connectionClose;
}

Http1ResponseReader::Outcome Http1ResponseReader::fail(Failure f, std::string message)
{
    m_state = State::Failed;
    m_failure = f;
    m_error = std::move(message);
    return Outcome::Failed;
}

bool Http1ResponseReader::takeLine(const char *&p, const char *end, std::string &line)
{
    const void *nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    const char *stop = nl ? static_cast<const char *>(nl) : end;
    line.append(p, stop);
    p = nl ? stop + 1 : end;
    if (!nl)
        return false;
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    return true;
}

Http1ResponseReader::Outcome Http1ResponseReader::feed(const char *data, std::size_t len, BodySink sink,
                                                       void *context)
{
    if (m_state == State::Done) {
        m_trailingBytes += len;
        return Outcome::Done;
    }
    if (m_state == State::Failed)
        return Outcome::Failed;
    if (len > 0)
        m_anyBytes = true;
    const char *p = data;
    const char *end = data + len;
    while (p < end) {
        switch (m_state) {
        case State::Body:
        case State::ChunkData: {
            std::size_t n = static_cast<std::size_t>(end - p);
            if (m_framing != Framing::UntilClose)
                n = static_cast<std::size_t>(std::min<std::uint64_t>(n, m_remaining));
            m_bodyBytes += n;
            if (!sink(context, p, n))
                return fail(Failure::Aborted, "the response was aborted by its reader");
            p += n;
            if (m_framing == Framing::UntilClose)
                break;
            m_remaining -= n;
            if (m_remaining == 0)
                m_state = m_state == State::Body ? State::Done : State::ChunkDataEnd;
            break;
        }
        case State::Done:
            m_trailingBytes += static_cast<std::size_t>(end - p);
            return Outcome::Done;
        default: {
            const char *start = p;
            const bool whole = takeLine(p, end, m_line);
            if (m_state == State::StatusLine || m_state == State::Headers || m_state == State::Trailers) {
                m_headerBytes += static_cast<std::size_t>(p - start);
                if (m_headerBytes > kMaxHeaderBytes)
                    return fail(Failure::BadHeaders, "response headers larger than 64 KiB");
            } else if (m_line.size() > 4096) {
                return fail(Failure::BadChunk, "chunk size line longer than 4 KiB");
            }
            if (!whole)
                break;
            const Outcome o = onLine(m_line);
            m_line.clear();
            if (o == Outcome::Failed)
                return o;
            break;
        }
        }
        if (m_state == State::Failed)
            return Outcome::Failed;
    }
    if (m_state == State::Done)
        return Outcome::Done;
    return Outcome::NeedMore;
}

Http1ResponseReader::Outcome Http1ResponseReader::onLine(const std::string &line)
{
    switch (m_state) {
    case State::StatusLine:
        return onStatusLine(line);
    case State::Headers:
        return onHeaderLine(line);
    case State::ChunkSize:
        return onChunkSizeLine(line);
    case State::ChunkDataEnd:
        if (!line.empty())
            return fail(Failure::BadChunk, "chunk data longer than its size");
        m_state = State::ChunkSize;
        return Outcome::NeedMore;
    case State::Trailers:
        if (line.empty())
            m_state = State::Done;
        return m_state == State::Done ? Outcome::Done : Outcome::NeedMore;
    default:
        return Outcome::NeedMore;
    }
}

Http1ResponseReader::Outcome Http1ResponseReader::onStatusLine(const std::string &line)
{
    // "HTTP/1.1 200 OK": version, a space, three digits, then an optional reason.
    const std::string_view s(line);
    if (s.substr(0, 5) != "HTTP/")
        return fail(Failure::NotHttp, "not an HTTP response: \"" + line.substr(0, 64) + "\"");
    if (s.size() < 12 || s.substr(0, 7) != "HTTP/1." || (s[7] != '0' && s[7] != '1') || s[8] != ' ' ||
        !std::all_of(s.begin() + 9, s.begin() + 12, [](char c) { return c >= '0' && c <= '9'; }) ||
        (s.size() > 12 && s[12] != ' '))
        return fail(Failure::BadHeaders, "malformed status line \"" + line.substr(0, 64) + "\"");
    m_minorVersion = s[7] - '0';
    m_status = (s[9] - '0') * 100 + (s[10] - '0') * 10 + (s[11] - '0');
    m_state = State::Headers;
    return Outcome::NeedMore;
}

Http1ResponseReader::Outcome Http1ResponseReader::onHeaderLine(const std::string &line)
{
    if (line.empty())
        return onHeadersEnd();
    if (line.front() == ' ' || line.front() == '\t')
        return fail(Failure::BadHeaders, "folded header line (obsolete line folding)");
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos || colon == 0)
        return fail(Failure::BadHeaders, "malformed header line \"" + line.substr(0, 64) + "\"");
    const std::string_view name(line.data(), colon);
    const std::string_view value = trimmed(std::string_view(line).substr(colon + 1));
    if (equalsIgnoringCase(name, "content-length")) {
        std::uint64_t n = 0;
        if (!parseDecimal(value, n) || (m_haveLength && n != m_contentLength))
            return fail(Failure::BadHeaders,
                        "invalid Content-Length \"" + std::string(value.substr(0, 32)) + "\"");
        m_haveLength = true;
        m_contentLength = n;
    } else if (equalsIgnoringCase(name, "transfer-encoding")) {
        m_chunked = equalsIgnoringCase(lastCoding(value), "chunked");
    } else if (equalsIgnoringCase(name, "connection")) {
        m_connectionClose = m_connectionClose || listHas(value, "close");
        m_connectionKeepAlive = m_connectionKeepAlive || listHas(value, "keep-alive");
    }
    return Outcome::NeedMore;
}

Http1ResponseReader::Outcome Http1ResponseReader::onHeadersEnd()
{
    if (m_status >= 100 && m_status < 200 && m_status != 101) {
        // An interim response (100 Continue, 103 Early Hints): the final one follows.
        const bool any = m_anyBytes;
        const std::size_t headerBytes = m_headerBytes;
        reset();
        m_anyBytes = any;
        m_headerBytes = headerBytes;
        return Outcome::NeedMore;
    }
    m_headersDone = true;
    if (m_status == 204 || m_status == 304 || m_status == 101) {
        m_framing = Framing::None;
        m_state = State::Done;
        return Outcome::Done;
    }
    if (m_chunked) {
        // Transfer-Encoding overrides Content-Length (RFC 9112 §6.3).
        m_framing = Framing::Chunked;
        m_state = State::ChunkSize;
    } else if (m_haveLength) {
        m_framing = Framing::Length;
        m_remaining = m_contentLength;
        m_state = m_remaining == 0 ? State::Done : State::Body;
    } else {
        m_framing = Framing::UntilClose;
        m_state = State::Body;
    }
    return m_state == State::Done ? Outcome::Done : Outcome::NeedMore;
}

Http1ResponseReader::Outcome Http1ResponseReader::onChunkSizeLine(const std::string &line)
{
    // "1a3f" or "1a3f;ext=value"; the size in hex, at most 15 digits.
    std::string_view s = trimmed(std::string_view(line).substr(0, line.find(';')));
    if (s.empty() || s.size() > 15)
        return fail(Failure::BadChunk, "invalid chunk size line \"" + line.substr(0, 32) + "\"");
    std::uint64_t size = 0;
    for (char c : s) {
        const int d = hexDigit(c);
        if (d < 0)
            return fail(Failure::BadChunk, "invalid chunk size line \"" + line.substr(0, 32) + "\"");
        size = size * 16 + static_cast<std::uint64_t>(d);
    }
    if (size == 0) {
        m_state = State::Trailers;
    } else {
        m_remaining = size;
        m_state = State::ChunkData;
    }
    return Outcome::NeedMore;
}

Http1ResponseReader::Outcome Http1ResponseReader::finishAtClose()
{
    if (m_state == State::Done)
        return Outcome::Done;
    if (m_state == State::Failed)
        return Outcome::Failed;
    if (m_state == State::Body && m_framing == Framing::UntilClose) {
        m_state = State::Done;
        return Outcome::Done;
    }
    if (!m_anyBytes)
        return fail(Failure::NothingReceived, "the server closed the connection without a response");
    return fail(Failure::ClosedEarly, headersDone() ? "the connection closed before the response body ended"
                                                    : "the connection closed inside the response headers");
}

} // namespace Throughline
