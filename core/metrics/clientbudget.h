#pragma once
// The client's own error budget per load point (docs/metrics.md "The client's error budget"), in wall-clock
// time whatever the simulator's time scale: how long the send path was blocked, and how much delay the
// client added to the timestamps of what it read. `client_bound` is judged on these (pointaggregate.cpp).
// "Blocked", not "stalled": stalls are the server's (core/engine/stalldetector.h).

#include "core/engine/requestrecord.h"

#include <cstdint>
#include <span>
#include <string>

namespace Throughline {

// A request handed to libcurl within this of its intended send time does not count as blocking. 5 ms, not
// less: the engine itself defers a start by up to 2 ms behind ready reads (worker.cpp kMaxStartDeferralNs),
// and a hand-off wakes two threads (the scheduler at t_sched, then the worker), each of which may wait out
// another task's time slice on a busy machine. Measured at 1 ms on a shared 2-core machine (load 5, client
// at nice 19 beside four busy loops at nice 19): an idle client's send lateness p99 reached 5 ms at λ = 20
// on the scale-20 simulator, one wake-up at a time — lateness, not a backlog.
inline constexpr std::int64_t kSendBlockedGraceNs = 5'000'000;

// Time during which at least one request was due for longer than the grace and not yet sent: the union of
// [t_sched + grace, t_send] over the records (warm-up included: its sends are real). The records' clock is
// the result's; pass wall-clock records for a wall-clock figure.
std::int64_t sendBlockedNs(std::span<const RequestRecord> records,
                           std::int64_t graceNs = kSendBlockedGraceNs);

// Client-added delay estimate per read: the p99 of how long ready sockets waited inside the workers plus
// the average wait of the worker threads for a CPU at each wake-up (what a starved process adds before its
// loop runs at all). Either part NaN (not measured) counts as 0 unless both are, then NaN.
double addedDelayEstimateMs(double readDelayP99Ms, double cpuWaitPerWakeMs);

// Which read path carried the records' responses: "direct-http1", "libcurl", "mixed"; "" without records
// (ClientObservations::readPath, docs/metrics.md "Read paths").
std::string readPathName(std::span<const RequestRecord> records);

} // namespace Throughline
