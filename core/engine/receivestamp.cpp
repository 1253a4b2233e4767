#include "core/engine/receivestamp.h"

#include <sys/socket.h>

#include <cstring>
#include <ctime>

namespace Throughline {

bool enableReceiveStamps(int fd)
{
    const int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) == 0;
}

StampedRead receiveStamped(int fd, char *buf, std::size_t len)
{
    iovec io{buf, len};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
    msghdr m{};
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    StampedRead out;
    out.bytes = recvmsg(fd, &m, MSG_DONTWAIT);
    if (out.bytes <= 0)
        return out;
    for (cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
            timespec ts{};
            std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
            out.stampRealNs = std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
        }
    }
    return out;
}

std::int64_t StampClock::realtimeNs()
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

} // namespace Throughline
