#include "core/telemetry/telemetryscraper.h"

#include "core/telemetry/prometheusparser.h"
#include "core/telemetry/trtllmstatsparser.h"

#include <curl/curl.h>

#include <mutex>

namespace Throughline {

struct TelemetryScraper::Handle {
    CURL *easy = nullptr;
    int source = 0;
    std::string body;
    bool overflow = false;
    std::size_t maxBody = 0;
    char errorBuffer[CURL_ERROR_SIZE] = {};
};

namespace {

std::size_t writeBody(char *data, std::size_t size, std::size_t n, void *user)
{
    auto *h = static_cast<TelemetryScraper::Handle *>(user);
    const std::size_t len = size * n;
    if (h->body.size() + len > h->maxBody) {
        h->overflow = true;
        return 0; // aborts the transfer (CURLE_WRITE_ERROR)
    }
    h->body.append(data, len);
    return len;
}

void globalInitOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string stripTrailing(std::string url)
{
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    if (url.size() >= 3 && url.compare(url.size() - 3, 3, "/v1") == 0)
        url.resize(url.size() - 3);
    return url;
}

bool looksLikeJson(const std::string &body)
{
    for (char c : body) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        return c == '[' || c == '{';
    }
    return false;
}

} // namespace

TelemetryScraper::TelemetryScraper(std::vector<ScrapeTarget> targets, ScraperOptions options)
    : m_targets(std::move(targets))
    , m_options(options)
    , m_store(options.store)
{
    globalInitOnce();
    m_multi = curl_multi_init();
    for (const ScrapeTarget &t : m_targets) {
        auto h = std::make_unique<Handle>();
        h->source = m_store.addSource(t.url, t.backendId, MetricNameMap::forBackend(t.backendId));
        h->maxBody = m_options.maxBodyBytes;
        h->easy = curl_easy_init();
        CURL *e = h->easy;
        curl_easy_setopt(e, CURLOPT_URL, t.url.c_str());
        curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L); // threads: no SIGALRM-based DNS timeouts
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(m_options.timeout.count()));
        curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(m_options.connectTimeout.count()));
        curl_easy_setopt(e, CURLOPT_NOPROXY,
                         "localhost,127.0.0.1,::1");      // never send loopback through a proxy
        curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, ""); // gzip/deflate if offered
        curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &writeBody);
        curl_easy_setopt(e, CURLOPT_WRITEDATA, h.get());
        curl_easy_setopt(e, CURLOPT_ERRORBUFFER, h->errorBuffer);
        curl_easy_setopt(e, CURLOPT_PRIVATE, h.get());
        curl_easy_setopt(e, CURLOPT_USERAGENT, "throughline-telemetry");
        m_handles.push_back(std::move(h));
    }
}

TelemetryScraper::~TelemetryScraper()
{
    stop();
    for (auto &h : m_handles)
        curl_easy_cleanup(h->easy);
    curl_multi_cleanup(static_cast<CURLM *>(m_multi));
}

void TelemetryScraper::start(std::chrono::steady_clock::time_point runT0)
{
    if (m_thread.joinable())
        return;
    m_stop = false;
    m_thread = std::thread([this, runT0] { run(runT0); });
}

void TelemetryScraper::stop()
{
    {
        std::lock_guard lock(m_stopMutex);
        m_stop = true;
    }
    m_stopCv.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void TelemetryScraper::scrapeOnce(std::chrono::steady_clock::time_point runT0)
{
    if (m_thread.joinable())
        return;
    m_stop = false;
    round(runT0);
}

void TelemetryScraper::run(std::chrono::steady_clock::time_point runT0)
{
    auto next = std::chrono::steady_clock::now();
    while (!m_stop) {
        round(runT0);
        next += m_options.interval;
        const auto now = std::chrono::steady_clock::now();
        while (next <= now) // a slow round skips ticks rather than bursting
            next += m_options.interval;
        std::unique_lock lock(m_stopMutex);
        m_stopCv.wait_until(lock, next, [this] { return m_stop.load(); });
    }
}

void TelemetryScraper::round(std::chrono::steady_clock::time_point runT0)
{
    if (m_handles.empty())
        return;
    CURLM *multi = static_cast<CURLM *>(m_multi);
    for (auto &h : m_handles) {
        h->body.clear();
        h->overflow = false;
        h->errorBuffer[0] = '\0';
        curl_multi_add_handle(multi, h->easy);
    }
    const auto roundStart = std::chrono::steady_clock::now();
    const std::int64_t roundStartNs =
        std::chrono::duration_cast<std::chrono::nanoseconds>(roundStart - runT0).count();

    int running = 0;
    do {
        if (curl_multi_perform(multi, &running) != CURLM_OK)
            break;
        if (running > 0)
            curl_multi_poll(multi, nullptr, 0, 50, nullptr); // 50 ms: re-check m_stop regularly
    } while (running > 0 && !m_stop);

    std::vector<std::pair<Handle *, CURLcode>> done;
    int queued = 0;
    while (CURLMsg *msg = curl_multi_info_read(multi, &queued)) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        Handle *h = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char **>(&h));
        done.emplace_back(h, msg->data.result);
    }
    for (auto &h : m_handles)
        curl_multi_remove_handle(multi, h->easy);
    if (m_stop && running > 0)
        return; // interrupted by stop(): unfinished transfers are neither successes nor failures

    for (auto &[h, code] : done) {
        long status = 0;
        curl_off_t startTransferUs = 0, totalUs = 0;
        curl_easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_getinfo(h->easy, CURLINFO_STARTTRANSFER_TIME_T, &startTransferUs);
        curl_easy_getinfo(h->easy, CURLINFO_TOTAL_TIME_T, &totalUs);
        const std::int64_t tNs = roundStartNs + (startTransferUs > 0 ? startTransferUs : totalUs) * 1000;
        const double durationMs = double(totalUs) / 1000.0;
        const std::string &url = m_targets[static_cast<std::size_t>(h->source)].url;

        std::string error;
        if (code != CURLE_OK) {
            error = h->overflow ? "body larger than " + std::to_string(h->maxBody) + " bytes"
                                : std::string(h->errorBuffer[0] ? h->errorBuffer : curl_easy_strerror(code));
        } else if (status < 200 || status > 299) {
            error = "HTTP " + std::to_string(status);
        }
        if (!error.empty()) {
            std::lock_guard lock(m_storeMutex);
            m_store.recordScrape(h->source, tNs, false, durationMs, error + " from " + url);
            continue;
        }

        // Parse outside the lock: snapshot() callers never wait for a parse.
        const ScrapeTarget &target = m_targets[static_cast<std::size_t>(h->source)];
        ParsedExposition parsed;
        if (target.format == TelemetrySource::Format::TrtllmJson || looksLikeJson(h->body)) {
            auto r = TrtllmStatsParser::parse(h->body);
            if (!r) {
                std::lock_guard lock(m_storeMutex);
                m_store.recordScrape(h->source, tNs, false, durationMs, r.error().message + " (" + url + ")");
                continue;
            }
            parsed = std::move(r).value();
        } else {
            parsed = PrometheusParser::parse(h->body);
        }
        std::lock_guard lock(m_storeMutex);
        m_store.recordScrape(h->source, tNs, true, durationMs, {});
        m_store.ingest(h->source, tNs, parsed);
    }
    ++m_rounds;
}

TelemetrySnapshot TelemetryScraper::snapshot(std::int64_t sinceNs) const
{
    std::lock_guard lock(m_storeMutex);
    return m_store.snapshot(sinceNs);
}

std::vector<ScrapeTarget> TelemetryScraper::targetsFor(const std::vector<std::string> &baseUrls,
                                                       const BackendPreset &preset,
                                                       const std::vector<std::string> &extraUrls)
{
    std::vector<ScrapeTarget> out;
    for (const std::string &base : baseUrls) {
        const std::string root = stripTrailing(base);
        for (const TelemetrySource &src : preset.telemetry) {
            std::string path = src.path;
            if (!path.empty() && path.front() != '/')
                path.insert(path.begin(), '/');
            out.push_back(ScrapeTarget{root + path, src.format, preset.id});
        }
    }
    for (const std::string &url : extraUrls)
        out.push_back(ScrapeTarget{url, TelemetrySource::Format::Prometheus, std::string()});
    return out;
}

} // namespace Throughline
