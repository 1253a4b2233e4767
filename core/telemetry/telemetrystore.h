#pragma once
// Turns parsed scrapes into bounded time series on the run clock.
//
// - Gauges (and untyped/info): one sample per scrape, value × mapping scale. NaN values are skipped.
// - Counters: rate between consecutive scrapes, (v − v_prev)/Δt; a decrease means the server restarted and
//   the counter began again at 0, so the rate is v/Δt (Prometheus' reset rule). First scrape: no sample.
// - Delta samples (TRT-LLM JSON sums): value / time since the previous scrape of the same source.
// - Histograms and summaries: per interval, Δsum/Δcount → "<name>_mean", Δcount/Δt → "<name>_rate";
//   mapped histograms also get "<name>_p50/_p90/_p99" (bucket interpolation) and keep raw cumulative
//   snapshots (TelemetryHistogram) for per-point quantiles. Summary quantiles are kept as gauges.
// - Mapped families become common series (metricnamemap.h) with identifying labels only; others keep their
//   own name and all labels.
// Memory is bounded: a ring buffer per series (maxSamplesPerSeries) and a cap on series kept under their own
// names (maxSeries; common series are always admitted). Not thread-safe: the scraper guards it with a mutex.

#include "core/telemetry/metricnamemap.h"
#include "core/telemetry/parsedexposition.h"
#include "core/telemetry/telemetrysnapshot.h"

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace Throughline {

struct TelemetryStoreOptions {
    std::size_t maxSamplesPerSeries = 7200; // 2 h at the default 1 s interval
    std::size_t maxSeries = 2000;
    std::size_t maxHistogramSnapshots = 7200;
};

class TelemetryStore
{
public:
    explicit TelemetryStore(TelemetryStoreOptions options = {});
    ~TelemetryStore();
    TelemetryStore(const TelemetryStore &) = delete;
    TelemetryStore &operator=(const TelemetryStore &) = delete;

    // Registers a scrape target; returns its source index (0, 1, …).
    int addSource(std::string url, std::string backendId, MetricNameMap map);

    // One successful scrape of `source` at run time tNs (non-decreasing per source).
    void ingest(int source, std::int64_t tNs, const ParsedExposition &parsed);
    // Outcome of a scrape attempt (success or failure): updates status and the scrape_up/duration series.
    void recordScrape(int source, std::int64_t tNs, bool ok, double durationMs, const std::string &error);

    // Copy of everything with samples after sinceNs (all when sinceNs is the minimum).
    TelemetrySnapshot snapshot(std::int64_t sinceNs = std::numeric_limits<std::int64_t>::min()) const;
    std::size_t seriesCount() const;

private:
    struct Series;
    struct Histogram;
    struct Source;

    Series *seriesFor(int source, const std::string &name, const std::string &sourceMetric,
                      const std::string &unit, LabelSet labels, bool common);
    void push(Series &s, std::int64_t tNs, double value);

    TelemetryStoreOptions m_options;
    std::vector<std::unique_ptr<Source>> m_sources;
    std::map<std::string, std::unique_ptr<Series>> m_series; // by key (source, name, labels)
    std::map<std::string, std::unique_ptr<Histogram>> m_histograms;
    std::size_t m_ownNameSeries = 0;
    std::uint64_t m_droppedSeries = 0;
};

} // namespace Throughline
