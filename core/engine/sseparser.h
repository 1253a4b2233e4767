#pragma once
// Incremental Server-Sent Events reassembly: the engine's hot path.
//
// feed() is called from the curl write callback with the raw bytes of one read and the time of that read.
// It only splits lines, copies `data:` payloads into a reusable buffer and records event boundaries with the
// read's timestamp — no JSON parsing, no per-event heap allocation (buffers keep their capacity across
// drains). Classification happens later, off the hot path, via drain().
//
// SSE rules implemented (WHATWG "event stream interpretation"): lines end in CRLF, LF or CR (a CR at the end
// of one read followed by LF at the start of the next is one terminator); lines starting with ':' are
// comments; `data` fields (one optional space after the colon) of one event are joined with '\n'; a blank
// line dispatches the event if it has a data field; other fields (event, id, retry) are ignored; pending data
// at end of stream is discarded (reported by hasUnterminatedEvent()).
//
// Thread affinity: one instance per request, used by exactly one worker thread.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

class SseParser
{
public:
    // Completed event awaiting classification; data points into the parser's buffer, valid until the next
    // feed()/drain()/reset().
    struct Event {
        std::string_view data;
        std::int64_t tNs = 0;
    };

    // maxEventBytes bounds one event's data and any single line; beyond it the parser enters the overflow
    // state (feed() returns false) and stops buffering.
    explicit SseParser(std::size_t maxEventBytes = 1 << 20);

    // Hot path. Returns false once the stream is unusable (an event or a line exceeded maxEventBytes).
    bool feed(const char *bytes, std::size_t len, std::int64_t tNs);

    // Number of completed events since the last drain.
    std::size_t pendingEvents() const { return m_bounds.size(); }

    // Calls fn(const Event&) for every completed event in arrival order, then forgets them (capacity kept).
    template <typename Fn>
    void drain(Fn &&fn)
    {
        for (const Bound &b : m_bounds)
            fn(Event{std::string_view(m_done.data() + b.offset, b.length), b.tNs});
        m_bounds.clear();
        compact();
    }

    bool overflowed() const { return m_overflow; }
    // True when the stream ended (as far as the caller knows) with an event that had data but no blank line,
    // or with an unterminated line.
    bool hasUnterminatedEvent() const { return m_eventHasData || !m_line.empty(); }
    std::size_t bytesFed() const { return m_bytesFed; }
    // Heap bytes held (for RSS accounting in benchmarks).
    std::size_t capacityBytes() const;

    void reset();
    void setMaxEventBytes(std::size_t n) { m_maxEventBytes = n; }
    // Pre-size the boundary list (e.g. for the expected number of events between drains).
    void reserveEvents(std::size_t n) { m_bounds.reserve(n); }

private:
    struct Bound {
        std::uint32_t offset;
        std::uint32_t length;
        std::int64_t tNs;
    };

    void processLine(const char *p, std::size_t n, std::int64_t tNs);
    void compact();

    std::size_t m_maxEventBytes;
    std::string m_line; // carry-over of an incomplete line from the previous read
    std::string m_done; // payloads of completed events (and, at its tail, the event being built)
    std::vector<Bound> m_bounds;
    std::size_t m_eventStart = 0; // offset in m_done where the event being built starts
    bool m_eventHasData = false;
    bool m_lastWasCr = false; // previous read ended in CR: a leading LF belongs to that terminator
    bool m_overflow = false;
    std::size_t m_bytesFed = 0;
};

} // namespace Throughline
