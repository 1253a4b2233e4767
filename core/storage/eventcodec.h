#pragma once
// Compact binary form of a request's stream events (table request_events, one blob per request).
//
// Layout: byte 0 = format (1). Then per event one unsigned LEB128 varint
//   v = zigzag(Δt_µs) << 4 | kind << 1 | hasTokens
// followed, when hasTokens, by a varint token count. Δt is taken between µs-floored absolute times
// (first event relative to the reference time, normally t_send), so rounding never accumulates:
// every decoded time is within 1 µs of the original. Typical decode gaps (1–130 ms) cost 3 bytes.

#include "core/engine/requestrecord.h"

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

class EventCodec
{
public:
    static constexpr std::uint8_t kFormat = 1;

    // Appends the encoding of `events` to `out` (cleared first). refNs = kNoTime is treated as 0.
    static void encode(const std::vector<StreamEvent> &events, std::int64_t refNs, std::string &out);
    // Decodes; returns false on a malformed blob (truncated varint, unknown format).
    static bool decode(const void *data, std::size_t size, std::int64_t refNs, std::vector<StreamEvent> &out);
};

} // namespace Throughline
