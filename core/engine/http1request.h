#pragma once
// The direct read path's request side (Worker, docs/metrics.md "Read paths"): which requests it may carry,
// where they go, and their bytes on the wire. It sends what libcurl would for the same HttpRequest: the
// request line, Host, the request's own header lines (a "Name:" line without a value removes that header, as
// with CURLOPT_HTTPHEADER), Content-Length and the body.
//
// Thread affinity: pure functions.

#include "core/engine/requestbuilder.h"

#include <optional>
#include <string>

namespace Throughline {

struct Http1Target {
    std::string origin;     // "host:port": connections are reused per origin
    std::string hostHeader; // as in the URL, the port only when not 80
    std::string path;       // path and query, "/" when the URL has none
};

// A plain-http URL's target; nullopt for https and anything the direct path does not read (userinfo,
// fragments, unparsable URLs).
std::optional<Http1Target> http1Target(const std::string &url);

// Loopback (127.x, localhost, [::1]): never proxied (the engine sets CURLOPT_NOPROXY for it), and where the
// worker spreads source addresses.
bool isLoopbackUrl(const std::string &url);

// Would libcurl send this URL through a proxy? Loopback never (the engine sets CURLOPT_NOPROXY for it);
// otherwise when http_proxy or all_proxy (any case) is set and no_proxy does not simply say "*".
bool proxyMayApply(const std::string &url);

std::string http1RequestBytes(const HttpRequest &request, const Http1Target &target);

} // namespace Throughline
