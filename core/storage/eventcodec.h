#pragma once
// Compact binary form of a request's stream events (table request_events, one blob per request).
//
// Layout: byte 0 = format (1). Then per event one unsigned LEB128 varint
//   v = zigzag(Δt_µs) << 4 | kind << 1 | hasTokens
// followed, when hasTokens, by a varint token count. Δt is taken between µs-floored absolute times
// (first event relative to the reference time, normally t_send), so rounding never accumulates:
// every decoded time is within 1 µs of the original. Typical decode gaps (1–130 ms) cost 3 bytes.

#include "core/engine/requestrecord.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

class EventCodec
{
public:
    static constexpr std::uint8_t kFormat = 1;

    // Upper bound of the encoding's size for `events` events (format byte + 10 + 5 bytes per event).
    static constexpr std::size_t maxEncodedSize(std::size_t events) { return 1 + events * 15; }
    // First and last content event times (kNoTime when none) and the number of content events
    // (ARCHITECTURE.md "Content event"), gathered in the same pass as the encoding.
    struct ContentSpan {
        std::int64_t firstNs = kNoTime, lastNs = kNoTime;
        int count = 0;
    };
    // Writes the encoding of `events` to `out` (room for maxEncodedSize(events.size()) bytes) and returns its
    // length. refNs = kNoTime is treated as 0. The writer's hot path: one pass over the events, no
    // allocation, no zero-filling.
    static std::size_t encode(const std::vector<StreamEvent> &events, std::int64_t refNs, char *out,
                              ContentSpan &content);
    // The same into `out` (replaced).
    static void encode(const std::vector<StreamEvent> &events, std::int64_t refNs, std::string &out);
    // Decodes; returns false on a malformed blob (truncated varint, unknown format).
    static bool decode(const void *data, std::size_t size, std::int64_t refNs, std::vector<StreamEvent> &out);
};

} // namespace Throughline
