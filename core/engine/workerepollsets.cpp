// Worker: its two epoll sets — which socket is watched in which, moves between them, and reads from the
// first-token set (first-token priority, LoadPlan::firstTokenPriority). Worker thread, except
// setFirstTokenPriority().
#include "core/engine/worker.h"

#include <sys/epoll.h>

#include <algorithm>
#include <cerrno>

namespace Throughline {

Worker::FdWatch &Worker::fdWatch(int fd)
{
    if (static_cast<std::size_t>(fd) >= m_fdWatch.size())
        m_fdWatch.resize(static_cast<std::size_t>(fd) + 1024);
    return m_fdWatch[static_cast<std::size_t>(fd)];
}

void Worker::watchFd(int fd, std::uint32_t events, bool priority)
{
    FdWatch &w = fdWatch(fd);
    epoll_event ev{};
    ev.events = events;
    ev.data.fd = fd;
    if (w.registered && w.priority != priority) {
        epoll_ctl(w.priority ? m_epollPriority : m_epoll, EPOLL_CTL_DEL, fd, nullptr);
        w.registered = false;
    }
    const int set = priority ? m_epollPriority : m_epoll;
    if (w.registered) {
        if (epoll_ctl(set, EPOLL_CTL_MOD, fd, &ev) != 0 && errno == ENOENT)
            epoll_ctl(set, EPOLL_CTL_ADD, fd, &ev);
    } else if (epoll_ctl(set, EPOLL_CTL_ADD, fd, &ev) != 0 && errno == EEXIST) {
        epoll_ctl(set, EPOLL_CTL_MOD, fd, &ev);
    }
    w.events = events;
    w.registered = true;
    w.priority = priority;
}

void Worker::unwatchFd(int fd)
{
    if (fd < 0 || static_cast<std::size_t>(fd) >= m_fdWatch.size())
        return;
    FdWatch &w = m_fdWatch[static_cast<std::size_t>(fd)];
    if (w.registered)
        epoll_ctl(w.priority ? m_epollPriority : m_epoll, EPOLL_CTL_DEL, fd, nullptr);
    w = FdWatch{};
}

void Worker::setFdPriority(int fd, bool priority)
{
    if (fd < 0 || static_cast<std::size_t>(fd) >= m_fdWatch.size())
        return;
    const FdWatch &w = m_fdWatch[static_cast<std::size_t>(fd)];
    if (w.registered && w.priority != priority)
        watchFd(fd, w.events, priority);
}

int Worker::readPrioritySockets()
{
    constexpr int kMax = 64;
    epoll_event events[kMax];
    const int ready = epoll_wait(m_epollPriority, events, kMax, 0);
    for (int i = 0; i < ready; ++i)
        socketAction(events[i].data.fd, events[i].events);
    if (ready > 0) // single writer: no read-modify-write needed
        m_prioritySocketReads.store(m_prioritySocketReads.load(std::memory_order_relaxed) +
                                        static_cast<std::uint64_t>(ready),
                                    std::memory_order_relaxed);
    return std::max(ready, 0);
}

void Worker::setFirstTokenPriority(bool on)
{
    m_priorityWanted.store(on, std::memory_order_relaxed);
    wake();
}

} // namespace Throughline
