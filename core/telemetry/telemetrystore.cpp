#include "core/telemetry/telemetrystore.h"

#include "core/telemetry/commonseries.h"
#include "core/telemetry/histogramquantile.h"
#include "core/telemetry/prometheusparser.h"
#include "core/telemetry/ringbuffer.h"

#include <algorithm>
#include <cmath>

namespace Throughline {

struct TelemetryStore::Series {
    TelemetrySeries meta; // samples live in the ring
    RingBuffer<TelemetrySample> ring;
    bool hasPrev = false; // counters: previous cumulative value
    double prev = 0.0;
    std::int64_t prevT = 0;

    explicit Series(std::size_t cap)
        : ring(cap)
    {
    }
};

struct TelemetryStore::Histogram {
    TelemetryHistogram meta;
    RingBuffer<HistogramSnapshot> ring; // raw snapshots, kept for mapped histograms only
    bool keepSnapshots = false;
    bool hasPrev = false;
    HistogramSnapshot prev;

    explicit Histogram(std::size_t cap)
        : ring(cap)
    {
    }
};

struct TelemetryStore::Source {
    TelemetrySourceStatus status;
    MetricNameMap map;
    bool hasIngested = false;
    std::int64_t lastIngestNs = 0;
};

namespace {

// Labels that name the model, the host or the device rather than a separate series; dropped from common
// series so that one server's kv_cache_usage is one series (GPU index, engine, rank labels stay).
bool isNoiseLabel(const std::string &key)
{
    static const char *const kNoise[] = {
        "model_name", "name",     "UUID",      "uuid",       "device",
        "modelName",  "Hostname", "hostname",  "pci_bus_id", "DCGM_FI_DRIVER_VERSION",
        "instance",   "job",      "container", "namespace",  "pod"};
    for (const char *n : kNoise)
        if (key == n)
            return true;
    return false;
}

LabelSet identityLabels(const LabelSet &labels, bool common, bool dropLe)
{
    LabelSet out;
    out.reserve(labels.size());
    for (const auto &kv : labels) {
        if (dropLe && kv.first == "le")
            continue;
        if (common && isNoiseLabel(kv.first))
            continue;
        out.push_back(kv);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string makeKey(int source, const std::string &name, const LabelSet &labels)
{
    std::string key = std::to_string(source);
    key += '\x1f';
    key += name;
    for (const auto &[k, v] : labels) {
        key += '\x1f';
        key += k;
        key += '=';
        key += v;
    }
    return key;
}

bool endsWith(const std::string &s, const std::string &suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct Candidate {
    int priority = 0;
    std::string name, sourceMetric, unit;
    LabelSet labels;
    bool common = false;
    MetricType type = MetricType::Gauge;
    double value = 0.0;
    double scale = 1.0;
};

struct HistAccumulator {
    int priority = 0;
    std::string name, sourceMetric, unit;
    LabelSet labels;
    bool common = false;
    double scale = 1.0;
    std::vector<std::pair<double, double>> buckets; // (le, cumulative count)
    double sum = std::numeric_limits<double>::quiet_NaN();
    double count = std::numeric_limits<double>::quiet_NaN();
};

} // namespace

TelemetryStore::TelemetryStore(TelemetryStoreOptions options)
    : m_options(options)
{
}
TelemetryStore::~TelemetryStore() = default;

int TelemetryStore::addSource(std::string url, std::string backendId, MetricNameMap map)
{
    auto src = std::make_unique<Source>();
    src->status.url = std::move(url);
    src->status.backendId = std::move(backendId);
    src->map = std::move(map);
    m_sources.push_back(std::move(src));
    return static_cast<int>(m_sources.size()) - 1;
}

TelemetryStore::Series *TelemetryStore::seriesFor(int source, const std::string &name,
                                                  const std::string &sourceMetric, const std::string &unit,
                                                  LabelSet labels, bool common)
{
    const std::string key = makeKey(source, name, labels);
    auto it = m_series.find(key);
    if (it != m_series.end())
        return it->second.get();
    if (!common) {
        if (m_ownNameSeries >= m_options.maxSeries) {
            ++m_droppedSeries;
            return nullptr;
        }
        ++m_ownNameSeries;
    }
    auto s = std::make_unique<Series>(m_options.maxSamplesPerSeries);
    s->meta.name = name;
    s->meta.sourceMetric = sourceMetric;
    s->meta.unit = unit;
    s->meta.labels = std::move(labels);
    s->meta.source = source;
    s->meta.common = common;
    Series *raw = s.get();
    m_series.emplace(key, std::move(s));
    return raw;
}

void TelemetryStore::push(Series &s, std::int64_t tNs, double value)
{
    if (std::isnan(value))
        return;
    s.ring.push(TelemetrySample{tNs, value});
}

void TelemetryStore::ingest(int source, std::int64_t tNs, const ParsedExposition &parsed)
{
    if (source < 0 || source >= static_cast<int>(m_sources.size()))
        return;
    Source &src = *m_sources[static_cast<std::size_t>(source)];
    const double sinceLastS = src.hasIngested ? double(tNs - src.lastIngestNs) / 1e9 : -1.0;

    std::map<std::string, Candidate> candidates;
    std::map<std::string, HistAccumulator> hists;

    for (const PromSample &sample : parsed.samples) {
        const MetricMapping *mapping = src.map.find(sample.family);
        const MetricType type = mapping && mapping->treatAs ? *mapping->treatAs : sample.type;
        const bool common = mapping != nullptr;
        const std::string name = common ? mapping->common : sample.family;
        const int priority = common ? mapping->priority : 0;

        const bool histLike = type == MetricType::Histogram || type == MetricType::Summary;
        const bool quantileSample = type == MetricType::Summary && sample.name == sample.family;
        if (histLike && !quantileSample) {
            if (endsWith(sample.name, "_created"))
                continue;
            LabelSet labels = identityLabels(sample.labels, common, /*dropLe=*/true);
            const std::string key = makeKey(source, name, labels);
            auto it = hists.find(key);
            if (it != hists.end() && it->second.sourceMetric != sample.family) {
                if (it->second.priority <= priority)
                    continue; // a preferred name already feeds this series
                hists.erase(it);
                it = hists.end();
            }
            if (it == hists.end()) {
                HistAccumulator acc;
                acc.priority = priority;
                acc.name = name;
                acc.sourceMetric = sample.family;
                acc.unit = common ? mapping->unit : std::string();
                acc.labels = std::move(labels);
                acc.common = common;
                acc.scale = common ? mapping->scale : 1.0;
                it = hists.emplace(key, std::move(acc)).first;
            }
            HistAccumulator &acc = it->second;
            if (endsWith(sample.name, "_bucket")) {
                const std::string *le = sample.label("le");
                double bound = 0.0;
                if (le && PrometheusParser::parseValue(*le, bound))
                    acc.buckets.emplace_back(bound, sample.value);
            } else if (endsWith(sample.name, "_sum")) {
                acc.sum = sample.value;
            } else if (endsWith(sample.name, "_count")) {
                acc.count = sample.value;
            }
            continue;
        }

        Candidate c;
        c.priority = priority;
        c.name = name;
        c.sourceMetric = sample.family;
        c.unit = common ? mapping->unit : std::string();
        c.labels = identityLabels(sample.labels, common, false);
        c.common = common;
        c.type = quantileSample ? MetricType::Gauge : type;
        c.value = sample.value;
        c.scale = common ? mapping->scale : 1.0;
        const std::string key = makeKey(source, name, c.labels);
        auto it = candidates.find(key);
        if (it != candidates.end() && it->second.priority <= c.priority)
            continue; // first wins among equals; lower priority number wins otherwise
        candidates[key] = std::move(c);
    }

    for (auto &[key, c] : candidates) {
        const bool isRate = c.type == MetricType::Counter || c.type == MetricType::Delta;
        std::string unit = c.unit;
        if (unit.empty() && isRate)
            unit = "1/s";
        Series *s = seriesFor(source, c.name, c.sourceMetric, unit, c.labels, c.common);
        if (!s)
            continue;
        switch (c.type) {
        case MetricType::Counter:
            if (std::isnan(c.value))
                break; // keep the last good value as the base of the next rate
            if (s->hasPrev && tNs > s->prevT) {
                double dv = c.value - s->prev;
                if (dv < 0)
                    dv = c.value; // counter reset: the server restarted from 0
                push(*s, tNs, dv / (double(tNs - s->prevT) / 1e9) * c.scale);
            }
            s->hasPrev = true;
            s->prev = c.value;
            s->prevT = tNs;
            break;
        case MetricType::Delta:
            if (sinceLastS > 0)
                push(*s, tNs, c.value / sinceLastS * c.scale);
            break;
        default:
            push(*s, tNs, c.value * c.scale);
            break;
        }
    }

    for (auto &[key, acc] : hists) {
        std::sort(acc.buckets.begin(), acc.buckets.end());
        HistogramSnapshot snap;
        snap.tNs = tNs;
        snap.sum = acc.sum;
        snap.count = std::isnan(acc.count) && !acc.buckets.empty() ? acc.buckets.back().second : acc.count;
        std::vector<double> bounds;
        for (const auto &[le, n] : acc.buckets) {
            bounds.push_back(le);
            snap.cumulativeCounts.push_back(n);
        }

        auto hit = m_histograms.find(key);
        if (hit == m_histograms.end()) {
            auto h = std::make_unique<Histogram>(m_options.maxHistogramSnapshots);
            h->meta.name = acc.name;
            h->meta.sourceMetric = acc.sourceMetric;
            h->meta.labels = acc.labels;
            h->meta.source = source;
            h->meta.upperBounds = bounds;
            h->keepSnapshots = acc.common && !bounds.empty();
            hit = m_histograms.emplace(key, std::move(h)).first;
        }
        Histogram &h = *hit->second;
        const bool sameBounds = h.meta.upperBounds == bounds;
        if (h.hasPrev && tNs > h.prev.tNs && !std::isnan(snap.count)) {
            double dCount = snap.count - h.prev.count;
            double dSum = snap.sum - h.prev.sum;
            std::vector<double> dCum = snap.cumulativeCounts;
            const bool reset = dCount < 0 || !sameBounds;
            if (reset) {
                dCount = snap.count;
                dSum = snap.sum;
            } else {
                for (std::size_t i = 0; i < dCum.size() && i < h.prev.cumulativeCounts.size(); ++i)
                    dCum[i] -= h.prev.cumulativeCounts[i];
            }
            const double dtS = double(tNs - h.prev.tNs) / 1e9;
            if (Series *r =
                    seriesFor(source, acc.name + "_rate", acc.sourceMetric, "1/s", acc.labels, acc.common))
                push(*r, tNs, dCount / dtS);
            if (dCount > 0) {
                if (Series *m = seriesFor(source, acc.name + "_mean", acc.sourceMetric, acc.unit, acc.labels,
                                          acc.common))
                    push(*m, tNs, dSum / dCount * acc.scale);
                if (acc.common && !bounds.empty()) {
                    static const std::pair<double, const char *> kQuantiles[] = {
                        {0.5, "_p50"}, {0.9, "_p90"}, {0.99, "_p99"}};
                    for (const auto &[q, suffix] : kQuantiles)
                        if (Series *p = seriesFor(source, acc.name + suffix, acc.sourceMetric, acc.unit,
                                                  acc.labels, true))
                            push(*p, tNs, histogramQuantile(q, bounds, dCum) * acc.scale);
                }
            }
        }
        if (!sameBounds) { // buckets changed (server restarted with another layout): start over
            h.meta.upperBounds = bounds;
            h.ring = RingBuffer<HistogramSnapshot>(m_options.maxHistogramSnapshots);
        }
        h.hasPrev = true;
        h.prev = snap;
        if (h.keepSnapshots)
            h.ring.push(std::move(snap));
    }

    src.hasIngested = true;
    src.lastIngestNs = tNs;
    src.status.malformedLines += parsed.malformedCount();
    if (!parsed.issues.empty())
        src.status.lastMalformedLine = parsed.issues.back().line;
}

void TelemetryStore::recordScrape(int source, std::int64_t tNs, bool ok, double durationMs,
                                  const std::string &error)
{
    if (source < 0 || source >= static_cast<int>(m_sources.size()))
        return;
    Source &src = *m_sources[static_cast<std::size_t>(source)];
    if (ok) {
        ++src.status.scrapesOk;
        src.status.lastError.clear();
        src.status.lastOkNs = tNs;
    } else {
        ++src.status.scrapesFailed;
        src.status.lastError = error;
    }
    if (Series *up = seriesFor(source, CommonSeries::kScrapeUp, {}, "", {}, true))
        push(*up, tNs, ok ? 1.0 : 0.0);
    if (ok)
        if (Series *d = seriesFor(source, CommonSeries::kScrapeDurationMs, {}, "ms", {}, true))
            push(*d, tNs, durationMs);
}

TelemetrySnapshot TelemetryStore::snapshot(std::int64_t sinceNs) const
{
    TelemetrySnapshot out;
    const bool all = sinceNs == std::numeric_limits<std::int64_t>::min();
    out.series.reserve(m_series.size());
    for (const auto &[key, s] : m_series) {
        TelemetrySeries copy = s->meta;
        copy.droppedSamples = s->ring.dropped();
        s->ring.forEach([&](const TelemetrySample &smp) {
            if (smp.tNs > sinceNs)
                copy.samples.push_back(smp);
        });
        if (all || !copy.samples.empty())
            out.series.push_back(std::move(copy));
    }
    for (const auto &[key, h] : m_histograms) {
        if (!h->keepSnapshots)
            continue;
        TelemetryHistogram copy = h->meta;
        copy.droppedSnapshots = h->ring.dropped();
        h->ring.forEach([&](const HistogramSnapshot &snap) {
            if (snap.tNs > sinceNs)
                copy.snapshots.push_back(snap);
        });
        if (all || !copy.snapshots.empty())
            out.histograms.push_back(std::move(copy));
    }
    for (const auto &src : m_sources)
        out.sources.push_back(src->status);
    out.droppedSeries = m_droppedSeries;
    return out;
}

std::size_t TelemetryStore::seriesCount() const
{
    return m_series.size();
}

} // namespace Throughline
