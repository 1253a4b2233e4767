#pragma once
// Test support: plain-socket loopback helpers shared by the engine tests (127.0.0.1 only).
//   unusedLoopbackPort()  a port nobody listens on: bound, read back, released (a dead URL, or a port for
//                         nginx to bind right after).
//   acceptsOnLoopback()   whether something accepts TCP connections on the port.
//   LoopbackHttpServer    answers every connection once, on its own thread: reads the request (first
//                         ≤ 4 KiB), sends reply(), closes; counts the connections served.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <utility>

namespace Throughline {

inline int unusedLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

inline bool acceptsOnLoopback(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

class LoopbackHttpServer
{
public:
    // reply() runs on the server thread, once per connection, and returns the whole HTTP response.
    explicit LoopbackHttpServer(std::function<std::string()> reply)
        : m_reply(std::move(reply))
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        ::setsockopt(m_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_fd, reinterpret_cast<sockaddr *>(&a), sizeof a);
        ::listen(m_fd, 16);
        socklen_t len = sizeof a;
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&a), &len);
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~LoopbackHttpServer()
    {
        m_stop = true;
        ::shutdown(m_fd, SHUT_RDWR);
        ::close(m_fd);
        m_thread.join();
    }
    LoopbackHttpServer(const LoopbackHttpServer &) = delete;
    LoopbackHttpServer &operator=(const LoopbackHttpServer &) = delete;

    int port() const { return m_port; }
    int served() const { return m_served.load(); }

private:
    void serve()
    {
        for (;;) {
            const int c = ::accept(m_fd, nullptr, nullptr);
            if (c < 0 || m_stop.load()) {
                if (c >= 0)
                    ::close(c);
                return;
            }
            char buf[4096];
            (void)::recv(c, buf, sizeof buf, 0);
            const std::string reply = m_reply();
            (void)::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
            ::close(c);
            ++m_served;
        }
    }

    std::function<std::string()> m_reply;
    int m_fd = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_served{0};
    std::thread m_thread;
};

} // namespace Throughline
