#pragma once
// A loopback HTTP server for read-path conformance tests: it answers every request with exactly the bytes
// it is given (status line, headers, framing and all — nothing added), on its own thread, and keeps the
// bytes of every request it read. A response that does not say "Connection: close" keeps the connection
// open for the next request. Plain POSIX sockets, so the bytes on the wire are the test's, not a library's.

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

// A listening TCP socket on 127.0.0.1 at a port the kernel picks; its address in `at`.
inline int listenOnLoopback(sockaddr_in &at, int backlog)
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    at = {};
    at.sin_family = AF_INET;
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr *>(&at), sizeof at);
    listen(fd, backlog);
    socklen_t len = sizeof at;
    getsockname(fd, reinterpret_cast<sockaddr *>(&at), &len);
    return fd;
}

class RawHttpServer
{
public:
    RawHttpServer()
    {
        sockaddr_in a{};
        m_listen = listenOnLoopback(a, 64);
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] { run(); });
    }
    ~RawHttpServer()
    {
        m_stop = true;
        m_thread.join();
        for (const Conn &c : m_conns)
            close(c.fd);
        close(m_listen);
    }
    int port() const { return m_port; }
    void setResponse(std::string bytes)
    {
        std::lock_guard lock(m_mutex);
        m_response = std::move(bytes);
    }
    // From now on each response in parts, part i sent once beforePart(i) returns (on the server's thread):
    // a test holds a part back until it wants it on the wire, and can note when it went.
    void setResponseParts(std::vector<std::string> parts, std::function<void(std::size_t)> beforePart)
    {
        std::lock_guard lock(m_mutex);
        m_parts = std::move(parts);
        m_beforePart = std::move(beforePart);
    }
    std::vector<std::string> requests()
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }
    int connections() const { return m_accepted.load(); }

private:
    struct Conn {
        int fd;
        std::string in;
    };

    void run()
    {
        while (!m_stop) {
            std::vector<pollfd> fds{{m_listen, POLLIN, 0}};
            for (const Conn &c : m_conns)
                fds.push_back({c.fd, POLLIN, 0});
            if (poll(fds.data(), fds.size(), 20) <= 0)
                continue;
            if (fds[0].revents & POLLIN) {
                const int fd = accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
                if (fd >= 0) {
                    m_conns.push_back({fd, {}});
                    ++m_accepted;
                }
            }
            for (std::size_t i = 1; i < fds.size(); ++i)
                if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
                    serve(fds[i].fd);
            std::erase_if(m_conns, [](const Conn &c) { return c.fd < 0; });
        }
    }

    void serve(int fd)
    {
        Conn *c = nullptr;
        for (Conn &x : m_conns)
            if (x.fd == fd)
                c = &x;
        char buf[65536];
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) {
            close(fd);
            c->fd = -1;
            return;
        }
        c->in.append(buf, static_cast<std::size_t>(n));
        const std::size_t end = c->in.find("\r\n\r\n");
        if (end == std::string::npos)
            return;
        std::size_t bodyLen = 0;
        const std::size_t cl = c->in.find("Content-Length: ");
        if (cl != std::string::npos && cl < end)
            bodyLen = std::stoul(c->in.substr(cl + 16));
        if (c->in.size() < end + 4 + bodyLen)
            return;
        std::vector<std::string> parts;
        std::function<void(std::size_t)> beforePart;
        {
            std::lock_guard lock(m_mutex);
            m_requests.push_back(c->in.substr(0, end + 4 + bodyLen));
            parts = m_parts.empty() ? std::vector<std::string>{m_response} : m_parts;
            beforePart = m_beforePart;
        }
        c->in.erase(0, end + 4 + bodyLen);
        std::string response;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (beforePart)
                beforePart(i);
            sendAll(fd, parts[i]);
            response += parts[i];
        }
        if (response.find("Connection: close\r\n") != std::string::npos) {
            close(fd);
            c->fd = -1;
        }
    }

    static void sendAll(int fd, const std::string &bytes)
    {
        for (std::size_t sent = 0; sent < bytes.size();) {
            const ssize_t w = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (w <= 0)
                break;
            sent += static_cast<std::size_t>(w);
        }
    }

    int m_listen = -1;
    int m_port = 0;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_accepted{0};
    std::vector<Conn> m_conns;
    std::mutex m_mutex;
    std::string m_response;
    std::vector<std::string> m_parts;
    std::function<void(std::size_t)> m_beforePart;
    std::vector<std::string> m_requests;
};
