#include "core/engine/http1request.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace Throughline {

namespace {

bool startsWithIgnoringCase(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), s.begin(),
                                                   [](char a, char b) { return (a | 0x20) == (b | 0x20); });
}

bool envSet(const char *name)
{
    const char *v = std::getenv(name);
    return v && *v;
}

// "Name:" (nothing after the colon): the request asks for that header to be left out.
bool removesHeader(std::string_view line)
{
    return !line.empty() && line.back() == ':';
}

} // namespace

std::optional<Http1Target> http1Target(const std::string &url)
{
    constexpr std::string_view kScheme = "http://";
    if (!startsWithIgnoringCase(url, kScheme))
        return std::nullopt;
    const std::string_view rest = std::string_view(url).substr(kScheme.size());
    const std::size_t slash = rest.find_first_of("/?#");
    const std::string_view authority = rest.substr(0, slash);
    std::string_view path = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
    if (authority.empty() || authority.find('@') != std::string_view::npos ||
        path.find('#') != std::string_view::npos || path.find_first_of(" \r\n") != std::string_view::npos)
        return std::nullopt;
    std::string_view host = authority;
    std::string_view port = "80";
    const std::size_t colon = authority.rfind(':');
    const std::size_t bracket = authority.rfind(']');
    if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
        host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
        if (port.empty() || port.size() > 5 ||
            !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
    }
    if (host.empty())
        return std::nullopt;
    Http1Target t;
    t.origin = std::string(host) + ":" + std::string(port);
    t.hostHeader = port == "80" ? std::string(host) : std::string(authority);
    t.path = path.front() == '?' ? "/" + std::string(path) : std::string(path);
    return t;
}

bool isLoopbackUrl(const std::string &url)
{
    const auto p = url.find("://");
    const std::string_view rest =
        p == std::string::npos ? std::string_view(url) : std::string_view(url).substr(p + 3);
    return rest.rfind("127.", 0) == 0 || rest.rfind("localhost", 0) == 0 || rest.rfind("[::1]", 0) == 0;
}

bool proxyMayApply(const std::string &url)
{
    if (isLoopbackUrl(url))
        return false;
    if (!envSet("http_proxy") && !envSet("all_proxy") && !envSet("ALL_PROXY"))
        return false; // libcurl ignores HTTP_PROXY in upper case (httpoxy)
    const char *noProxy = std::getenv("no_proxy") ? std::getenv("no_proxy") : std::getenv("NO_PROXY");
    return !(noProxy && std::string_view(noProxy) == "*");
}

std::string http1RequestBytes(const HttpRequest &request, const Http1Target &target)
{
    bool ownHost = false;
    std::size_t headerBytes = 0;
    for (const std::string &h : request.headers) {
        headerBytes += h.size() + 2;
        ownHost = ownHost || startsWithIgnoringCase(h, "host:");
    }
    std::string out;
    out.reserve(64 + target.path.size() + target.hostHeader.size() + headerBytes + request.body.size());
    out.append("POST ").append(target.path).append(" HTTP/1.1\r\n");
    if (!ownHost)
        out.append("Host: ").append(target.hostHeader).append("\r\n");
    for (const std::string &h : request.headers)
        if (!removesHeader(h))
            out.append(h).append("\r\n");
    out.append("Content-Length: ").append(std::to_string(request.body.size())).append("\r\n\r\n");
    out.append(request.body);
    return out;
}

} // namespace Throughline
