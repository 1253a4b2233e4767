#pragma once
// Plain value types of scraped telemetry, handed across threads as immutable copies (storage, UI, reports).
// Times are steady_clock nanoseconds relative to the run's t=0 (the client's time axis).

#include "core/telemetry/promsample.h"

#include <cstdint>
#include <string>
#include <vector>

namespace Throughline {

struct TelemetrySample {
    std::int64_t tNs = 0; // run clock
    double value = 0.0;   // in the series' unit
};

struct TelemetrySeries {
    std::string name;         // common series name (commonseries.h) or the metric's own name (+ "_mean", …)
    std::string sourceMetric; // family as the server exposed it, e.g. vllm:gpu_cache_usage_perc
    std::string unit;         // "ratio", "requests", "tokens/s", "W", "C", "1/s", "s", "" when unknown
    LabelSet
        labels; // identifying labels, sorted by key (model_name, UUID, hostname … dropped for common series)
    int source = 0;                       // index of the scrape target
    bool common = false;                  // true when name is a common series
    std::vector<TelemetrySample> samples; // ascending time
    std::uint64_t droppedSamples = 0;     // oldest samples overwritten by the ring buffer

    const std::string *label(const std::string &key) const;
};

// Cumulative histogram state at one scrape (as exposed: counts never decrease except on a server restart).
struct HistogramSnapshot {
    std::int64_t tNs = 0;
    std::vector<double> cumulativeCounts; // same length as TelemetryHistogram::upperBounds
    double sum = 0.0;
    double count = 0.0;
};

// Raw snapshots of a mapped histogram (server TTFT/ITL/E2E/queue), so that any window's distribution can be
// recomputed as the difference of two snapshots.
struct TelemetryHistogram {
    std::string name; // common series name, e.g. server_ttft_s
    std::string sourceMetric;
    LabelSet labels;
    int source = 0;
    std::vector<double> upperBounds; // ascending, last is +Inf
    std::vector<HistogramSnapshot> snapshots;
    std::uint64_t droppedSnapshots = 0;
};

struct TelemetrySourceStatus {
    std::string url;
    std::string backendId;
    int scrapesOk = 0;
    int scrapesFailed = 0;
    int malformedLines = 0;    // total over all scrapes
    std::string lastError;     // empty when the last scrape succeeded
    int lastMalformedLine = 0; // line number of the last malformed line seen (0 = none)
    std::int64_t lastOkNs = -1;
};

struct TelemetrySnapshot {
    std::vector<TelemetrySeries> series;
    std::vector<TelemetryHistogram> histograms;
    std::vector<TelemetrySourceStatus> sources;
    std::uint64_t droppedSeries = 0; // series refused because of the series cap

    // First series with this name (and source when >= 0), or nullptr.
    const TelemetrySeries *find(const std::string &name, int source = -1) const;
    // Every series with this name (one per GPU, engine, source …).
    std::vector<const TelemetrySeries *> findAll(const std::string &name) const;
    const TelemetryHistogram *findHistogram(const std::string &name, int source = -1) const;
};

} // namespace Throughline
