#pragma once
// Minimal libcurl client for the simulator tests: one blocking request with per-read timestamps, and a
// closed-loop streaming driver on curl-multi. Loopback only.

#include <curl/curl.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace SimTest {

inline double nowS()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Reply {
    long status = 0;
    CURLcode code = CURLE_OK;
    std::string headers;
    std::string body;
    double tSend = 0;
    std::vector<std::pair<double, std::string>> reads; // (time, bytes) per write callback
    // SSE events with their arrival time (time of the read that completed them).
    std::vector<std::pair<double, std::string>> events() const
    {
        std::vector<std::pair<double, std::string>> out;
        std::string buf;
        for (const auto &[t, bytes] : reads) {
            buf += bytes;
            size_t pos;
            while ((pos = buf.find("\n\n")) != std::string::npos) {
                out.emplace_back(t, buf.substr(0, pos));
                buf.erase(0, pos + 2);
            }
        }
        return out;
    }
    std::string header(const std::string &name) const
    {
        std::string lower = headers;
        for (auto &c : lower)
            c = char(tolower(c));
        std::string key = name;
        for (auto &c : key)
            c = char(tolower(c));
        auto p = lower.find("\n" + key + ":");
        if (p == std::string::npos)
            return {};
        p += key.size() + 2;
        auto e = headers.find("\r\n", p);
        std::string v = headers.substr(p, e - p);
        while (!v.empty() && v.front() == ' ')
            v.erase(0, 1);
        return v;
    }
};

inline size_t onWrite(char *p, size_t s, size_t n, void *ud)
{
    auto *r = static_cast<Reply *>(ud);
    r->body.append(p, s * n);
    r->reads.emplace_back(nowS(), std::string(p, s * n));
    return s * n;
}
inline size_t onHeader(char *p, size_t s, size_t n, void *ud)
{
    static_cast<Reply *>(ud)->headers.append(p, s * n);
    return s * n;
}

struct Options {
    std::vector<std::string> headers;
    std::string caFile;
    long timeoutMs = 30000;
    std::string method; // default: POST if body else GET
};

inline Reply request(const std::string &url, const std::string &body = {}, const Options &o = {})
{
    Reply r;
    CURL *c = curl_easy_init();
    curl_slist *hl = nullptr;
    hl = curl_slist_append(hl, "Content-Type: application/json");
    hl = curl_slist_append(hl, "Expect:");
    for (const auto &h : o.headers)
        hl = curl_slist_append(hl, h.c_str());
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, onWrite);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &r);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, o.timeoutMs);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    if (!body.empty() || o.method == "POST") {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.c_str());
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, long(body.size()));
    }
    if (!o.caFile.empty())
        curl_easy_setopt(c, CURLOPT_CAINFO, o.caFile.c_str());
    r.tSend = nowS();
    r.code = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
    return r;
}

// Closed loop: `concurrency` streaming requests in flight; each finished one is replaced at once until
// `stopAt`; then the in-flight ones finish. Counts content events ("text":" in completions chunks) per
// second.
struct LoopResult {
    std::vector<double> eventTimes; // arrival time of every content event
    std::vector<double> ttft;       // first content event − send, per completed request
    std::vector<double> sendTimes;  // per completed request
    int completed = 0;
    int failed = 0;
};

inline LoopResult closedLoop(const std::string &url, const std::function<std::string()> &makeBody,
                             int concurrency, double durationS, const std::function<void(double)> &tick = {})
{
    struct Slot {
        CURL *easy = nullptr;
        std::string body;
        std::string buf;
        size_t scanned = 0;
        double tSend = 0;
        double tFirst = 0;
        LoopResult *res = nullptr;
    };
    LoopResult res;
    CURLM *multi = curl_multi_init();
    std::vector<Slot> slots;
    slots.resize(size_t(concurrency));
    curl_slist *hl = nullptr;
    hl = curl_slist_append(hl, "Content-Type: application/json");
    hl = curl_slist_append(hl, "Expect:");
    auto write = +[](char *p, size_t s, size_t n, void *ud) -> size_t {
        auto *sl = static_cast<Slot *>(ud);
        const double t = nowS();
        sl->buf.append(p, s * n);
        size_t pos = sl->scanned;
        const std::string key = "\"text\":\"";
        while ((pos = sl->buf.find(key, pos)) != std::string::npos) {
            // the event is complete once its blank line arrived
            const size_t end = sl->buf.find("\n\n", pos);
            if (end == std::string::npos)
                break;
            if (sl->tFirst == 0)
                sl->tFirst = t;
            sl->res->eventTimes.push_back(t);
            pos = end;
        }
        sl->scanned = pos == std::string::npos ? sl->buf.size() : pos;
        return s * n;
    };
    const double t0 = nowS();
    auto launch = [&](Slot &sl) {
        sl.body = makeBody();
        sl.buf.clear();
        sl.scanned = 0;
        sl.tFirst = 0;
        sl.res = &res;
        if (!sl.easy)
            sl.easy = curl_easy_init();
        else
            curl_easy_reset(sl.easy);
        curl_easy_setopt(sl.easy, CURLOPT_URL, url.c_str());
        curl_easy_setopt(sl.easy, CURLOPT_HTTPHEADER, hl);
        curl_easy_setopt(sl.easy, CURLOPT_POSTFIELDS, sl.body.c_str());
        curl_easy_setopt(sl.easy, CURLOPT_WRITEFUNCTION, write);
        curl_easy_setopt(sl.easy, CURLOPT_WRITEDATA, &sl);
        curl_easy_setopt(sl.easy, CURLOPT_PRIVATE, &sl);
        curl_easy_setopt(sl.easy, CURLOPT_NOSIGNAL, 1L);
        sl.tSend = nowS();
        curl_multi_add_handle(multi, sl.easy);
    };
    for (auto &sl : slots)
        launch(sl);
    int running = concurrency;
    double lastTick = t0;
    while (running > 0) {
        curl_multi_perform(multi, &running);
        CURLMsg *m;
        int left;
        while ((m = curl_multi_info_read(multi, &left))) {
            if (m->msg != CURLMSG_DONE)
                continue;
            Slot *sl = nullptr;
            curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char **>(&sl));
            long status = 0;
            curl_easy_getinfo(m->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            const bool ok = m->data.result == CURLE_OK && status == 200;
            curl_multi_remove_handle(multi, m->easy_handle);
            if (ok) {
                res.completed++;
                res.ttft.push_back(sl->tFirst > 0 ? sl->tFirst - sl->tSend : -1);
                res.sendTimes.push_back(sl->tSend);
            } else {
                res.failed++;
            }
            if (nowS() - t0 < durationS) {
                launch(*sl);
                running++;
            }
        }
        const double t = nowS();
        if (tick && t - lastTick >= 0.1) {
            lastTick = t;
            tick(t - t0);
        }
        if (running > 0)
            curl_multi_poll(multi, nullptr, 0, 20, nullptr);
    }
    for (auto &sl : slots)
        if (sl.easy)
            curl_easy_cleanup(sl.easy);
    curl_slist_free_all(hl);
    curl_multi_cleanup(multi);
    return res;
}

} // namespace SimTest
