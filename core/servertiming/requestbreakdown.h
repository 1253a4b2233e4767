#pragma once
// Where one request's time went: the client's queue and connection, the network each way, the server's
// front end, queue, prefill, KV transfer and decode, and what is left (docs/server-timing.md). Each part is
// measured (a difference of two timestamps on one clock, or a duration the server publishes; parts that
// cross clocks use the fitted alignment and carry its bound), derived (a remainder) or unknown.
// Plain values; no thread affinity.

#include "core/servertiming/clockfit.h"
#include "core/servertiming/servertiming.h"

#include <array>
#include <cstdint>
#include <string>

namespace Throughline {

enum class BreakdownPart {
    ClientQueue,  // t_sched → t_send: the client's own queue
    ConnectSend,  // t_send → t_wire: connection (new or reused) and hand-off to the socket
    NetworkUp,    // t_wire → server arrival (aligned clocks)
    ServerFront,  // server arrival → the engine's queue (HTTP, tokenising, routing)
    ServerQueue,  // waiting to be scheduled
    Prefill,      // scheduled → first token (SGLang: the scheduler's queue included)
    KvTransfer,   // disaggregated: prefill pool → decode pool
    NetworkDown,  // server sent the first token → the client read it (network + the client's read delay)
    Decode,       // first token (after the KV transfer when disaggregated) → last token, on the server
    StreamTail,   // the client's last token → end of the transfer
    Unattributed, // derived: t_sched → t_end minus every part above that is known
};
inline constexpr int kBreakdownParts = 11;

enum class PartStatus { Unknown, Measured, Derived };

// "client_queue", … (results.json / points.csv / requests.csv keys, with "_ms").
const char *breakdownPartKey(BreakdownPart part);
const char *partStatusKey(PartStatus status);

struct PartValue {
    double ms = kNoValue;
    PartStatus status = PartStatus::Unknown;
    bool aligned = false; // crosses the two clocks: ± the fit's bound
};

// The client's side of one request on the run clock, nanoseconds (kNoTime = -1 when not reached).
struct ClientTimes {
    std::string requestId; // X-Request-Id
    std::uint64_t seq = 0;
    std::int64_t tSched = -1, tSend = -1, tWire = -1, tFirstToken = -1, tLastToken = -1, tEnd = -1;
    int nOut = -1;
    bool ok = false;
};

struct RequestBreakdown {
    std::uint64_t seq = 0;
    std::array<PartValue, kBreakdownParts> parts{};
    double alignBoundMs = kNoValue; // ± on the aligned parts; kNoValue when no part is aligned
    std::string problem;            // the server's timing was missing or malformed (names request and field)

    PartValue &operator[](BreakdownPart p) { return parts[size_t(p)]; }
    const PartValue &operator[](BreakdownPart p) const { return parts[size_t(p)]; }
};

// The breakdown of one request: `server` may be null (no timing: only client parts and the remainder);
// `fit` is used for the cross-clock parts when valid and the server's clock has timestamps.
RequestBreakdown buildBreakdown(const ClientTimes &client, const ServerTiming *server, const ClockFit &fit);

} // namespace Throughline
