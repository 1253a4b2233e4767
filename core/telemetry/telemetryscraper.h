#pragma once
// Scrapes a list of telemetry URLs during a run, on its own thread, into a TelemetryStore.
//
// Thread affinity: start()/stop()/snapshot() from any thread (the engine's controller); the scraping itself
// runs on one std::thread owned by this object, using one libcurl multi handle with one easy handle per
// target, so all targets of a round are fetched in parallel and a slow or dead URL cannot delay the others.
// Scrapes never touch the load: separate handles and connections, short timeouts (default 800 ms transfer,
// 300 ms connect), NOPROXY for loopback, failures only counted (status + "scrape_up" = 0) and the series
// continue. A round starts every `interval` (default 1 s) from start(); a round longer than the interval
// skips the missed ticks instead of bursting.
//
// Timestamps are on the run clock: steady_clock ns relative to the t=0 passed to start(); a sample's time is
// the moment the server began answering (round start + curl's starttransfer time), which is when the server
// rendered the exposition.

#include "core/campaign/backendpreset.h"
#include "core/telemetry/telemetrystore.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace Throughline {

struct ScrapeTarget {
    std::string url;
    TelemetrySource::Format format = TelemetrySource::Format::Prometheus; // JSON bodies are detected anyway
    std::string backendId; // selects the name map (metricnamemap.h); empty = every table (e.g. DCGM exporter)
};

struct ScraperOptions {
    std::chrono::milliseconds interval{1000};
    std::chrono::milliseconds timeout{800}; // whole transfer, per target
    std::chrono::milliseconds connectTimeout{300};
    std::size_t maxBodyBytes = 32u << 20; // a larger body fails the scrape
    TelemetryStoreOptions store;
};

class TelemetryScraper
{
public:
    explicit TelemetryScraper(std::vector<ScrapeTarget> targets, ScraperOptions options = {});
    ~TelemetryScraper(); // stops and joins
    TelemetryScraper(const TelemetryScraper &) = delete;
    TelemetryScraper &operator=(const TelemetryScraper &) = delete;

    // Starts the scraping thread; the first round runs immediately. runT0 is the run's t=0. No-op if running.
    void start(std::chrono::steady_clock::time_point runT0);
    // Stops after the current transfer (bounded by the timeout) and joins. Idempotent.
    void stop();
    bool isRunning() const { return m_thread.joinable(); }

    // One synchronous round, for callers that drive scraping from their own loop. Not while running.
    void scrapeOnce(std::chrono::steady_clock::time_point runT0);

    // Copy of the series so far (samples after sinceNs). Safe from any thread, also after stop().
    TelemetrySnapshot snapshot(std::int64_t sinceNs = std::numeric_limits<std::int64_t>::min()) const;
    int roundsCompleted() const { return m_rounds.load(); }
    const std::vector<ScrapeTarget> &targets() const { return m_targets; }

    // Targets for one endpoint: every base URL (the endpoint and its replicas, without /v1) × every
    // telemetry path of the backend preset, plus extra URLs (e.g. DCGM exporters) scraped with all maps.
    static std::vector<ScrapeTarget> targetsFor(const std::vector<std::string> &baseUrls,
                                                const BackendPreset &preset,
                                                const std::vector<std::string> &extraUrls = {});

    struct Handle; // internal (per-target curl state); public only for the C write callback

private:
    void run(std::chrono::steady_clock::time_point runT0);
    void round(std::chrono::steady_clock::time_point runT0);

    std::vector<ScrapeTarget> m_targets;
    ScraperOptions m_options;
    std::vector<std::unique_ptr<Handle>> m_handles; // used only by the scraping thread (or scrapeOnce)
    void *m_multi = nullptr;                        // CURLM*, same affinity as m_handles

    mutable std::mutex m_storeMutex;
    TelemetryStore m_store; // guarded by m_storeMutex

    std::mutex m_stopMutex;
    std::condition_variable m_stopCv;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_rounds{0};
    std::thread m_thread;
};

} // namespace Throughline
