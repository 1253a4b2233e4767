#pragma once
// Kernel receive timestamps for the direct read path (docs/metrics.md "Read paths"): with SO_TIMESTAMPNS on
// a TCP socket, each recvmsg carries the time the last segment it returned reached the socket. An event's
// time then no longer depends on when the worker got round to reading it — a worker busy with 2,048 ready
// sockets, or one that waited for a CPU, still dates each single-segment event at its arrival. One read
// carries one stamp: events completed by earlier segments of the same read get the later segment's time,
// never an earlier one, so no event is ever dated before it arrived. Any thread; Linux only.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace Throughline {

// Asks the kernel to stamp what this socket receives; false if it refuses (the reads then carry no stamp).
bool enableReceiveStamps(int fd);

struct StampedRead {
    ssize_t bytes = -1;            // as recv: > 0 read, 0 closed, -1 with errno
    std::int64_t stampRealNs = -1; // CLOCK_REALTIME of the last segment read, -1 without one
};

// One non-blocking recvmsg into buf with its receive stamp.
StampedRead receiveStamped(int fd, char *buf, std::size_t len);

// Converts the stamps of one wake-up to the caller's clock: the realtime clock read, then the caller's, once
// per batch of reads, so the conversion costs two clock reads per wake-up, not per read. Read in that order
// the few tens of ns between them err on the late side: a stamp is never moved earlier.
class StampClock
{
public:
    template <class NowNs>
    void calibrate(NowNs callerNowNs)
    {
        const std::int64_t real = realtimeNs();
        m_realMinusCallerNs = real - callerNowNs();
    }
    std::int64_t toCallerNs(std::int64_t stampRealNs) const { return stampRealNs - m_realMinusCallerNs; }

private:
    static std::int64_t realtimeNs();
    std::int64_t m_realMinusCallerNs = 0;
};

} // namespace Throughline
