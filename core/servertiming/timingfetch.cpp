#include "core/servertiming/timingfetch.h"

#include <curl/curl.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace Throughline {

namespace {

size_t appendBody(char *data, size_t size, size_t n, void *out)
{
    auto *s = static_cast<std::string *>(out);
    if (s->size() > (64u << 20))
        return 0; // a timing document is not this large: stop rather than fill memory
    s->append(data, size * n);
    return size * n;
}

} // namespace

Result<std::string> fetchTimingUrl(const std::string &url, const std::vector<std::string> &headers,
                                   double timeoutS)
{
    CURL *e = curl_easy_init();
    if (!e)
        return makeError(ErrorCode::Internal, "curl_easy_init failed");
    std::string body;
    curl_slist *list = nullptr;
    for (const std::string &h : headers)
        list = curl_slist_append(list, h.c_str());
    curl_easy_setopt(e, CURLOPT_URL, url.c_str());
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, long(timeoutS * 1000));
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    const CURLcode rc = curl_easy_perform(e);
    long status = 0;
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(list);
    curl_easy_cleanup(e);
    if (rc != CURLE_OK)
        return makeError(ErrorCode::Network, "GET " + url + ": " + curl_easy_strerror(rc));
    if (status < 200 || status >= 300)
        return makeError(ErrorCode::Network, "GET " + url + ": HTTP " + std::to_string(status));
    return body;
}

Result<std::string> readTimingFile(const std::string &path, long long &offset)
{
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return makeError(ErrorCode::Io,
                         "cannot read the server timing file " + path + ": " + std::strerror(errno));
    std::string out;
    if (std::fseek(f, long(offset), SEEK_SET) == 0) {
        char buf[1 << 16];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
            out.append(buf, n);
    }
    std::fclose(f);
    const size_t lastNewline = out.rfind('\n');
    if (lastNewline == std::string::npos)
        return std::string(); // no complete line yet
    out.resize(lastNewline + 1);
    offset += static_cast<long long>(out.size());
    return out;
}

} // namespace Throughline
