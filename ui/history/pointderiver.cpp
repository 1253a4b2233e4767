#include "ui/history/pointderiver.h"

#include "core/metrics/outputthroughput.h"
#include "core/metrics/pointresult.h"
#include "core/metrics/requestmetrics.h"
#include "core/storage/eventcodec.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace Throughline {

namespace {

constexpr int kRow = 100; // SQLITE_ROW

// Translates the strings marked with QT_TRANSLATE_NOOP in this file.
QString trd(const char *text)
{
    return QCoreApplication::translate("Throughline::PointDeriver", text);
}

double num(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : kNaN;
}

double positive(double v)
{
    return std::isfinite(v) && v > 0 ? v : kNaN;
}

int divisor(const ScenarioRow &s, DeriveVariant::Gpus gpus)
{
    switch (gpus) {
    case DeriveVariant::Gpus::None:
        return 1;
    case DeriveVariant::Gpus::Decode:
        return s.decodeGpus > 0 ? s.decodeGpus : s.gpus;
    case DeriveVariant::Gpus::All:
        break;
    }
    return s.gpus;
}

} // namespace

QString DeriveVariant::label() const
{
    if (!rederive)
        return trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "stored, %1")).arg(statKey());
    const QString window =
        this->window == Window::Steady
            ? trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "steady-state window"))
            : trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "whole run (vLLM/AIPerf)"));
    const QString per = gpus == Gpus::All ? trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "per GPU"))
                        : gpus == Gpus::Decode
                            ? trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "per decode GPU"))
                            : trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "total, not per GPU"));
    return trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "re-derived %1, %2, %3"))
        .arg(statKey(), window, per);
}

double DerivedValues::value(const std::string &metric) const
{
    if (metric == "output_tps_per_gpu")
        return outputTpsPerGpu;
    if (metric == "output_tps")
        return outputTps;
    if (metric == "request_rate")
        return requestRate;
    if (metric == "ttft_ms")
        return ttftMs;
    if (metric == "tpot_ms")
        return tpotMs;
    if (metric == "e2e_ms")
        return e2eMs;
    return kNaN;
}

QString DeriveVariant::throughputVariant() const
{
    return window == Window::Steady ? u"steady"_qs : u"whole"_qs;
}

DerivedValues PointDeriver::stored(const PointRow &point, const ScenarioRow &scenario,
                                   const DeriveVariant &variant)
{
    auto parsed = PointResult::fromJson(point.aggregates);
    if (parsed)
        return fromResult(*parsed, scenario.gpus, scenario.decodeGpus, variant);
    // Only the indexed copies are usable.
    DerivedValues v;
    v.gpus = scenario.gpus;
    v.outputTpsPerGpu = point.outputTpsPerGpu;
    if (variant.percentile == 90) {
        v.ttftMs = point.ttftMsP90;
        v.tpotMs = point.tpotMsP90;
    }
    return v;
}

DerivedValues PointDeriver::fromResult(const PointResult &p, int gpus, int decodeGpus,
                                       const DeriveVariant &variant)
{
    DerivedValues v;
    // Stored values have one divisor per column; the window/divisor choices apply to re-derivation only.
    const DeriveVariant::Gpus per = variant.rederive ? variant.gpus : DeriveVariant::Gpus::All;
    ScenarioRow counts;
    counts.gpus = gpus;
    counts.decodeGpus = decodeGpus;
    v.gpus = divisor(counts, per);
    const std::string stat = variant.statKey().toStdString();
    v.nOk = p.nOk;
    v.windowS = p.windowS;
    v.requestRate = p.metrics.requestRate;
    const bool whole = variant.rederive && variant.window == DeriveVariant::Window::Whole;
    v.outputTps = whole ? positive(p.metrics.outputTpsWhole) : positive(p.metrics.outputTps);
    if (!whole && per == DeriveVariant::Gpus::All)
        v.outputTpsPerGpu = positive(p.metrics.outputTpsPerGpu);
    else if (!whole && per == DeriveVariant::Gpus::Decode)
        v.outputTpsPerGpu = positive(p.metrics.outputTpsPerDecodeGpu);
    else
        v.outputTpsPerGpu = v.gpus > 0 ? v.outputTps / v.gpus : kNaN;
    auto stat3 = [&](const char *metric) { return p.metricValue(metric, stat).value_or(kNaN); };
    v.ttftMs = stat3("ttft_ms");
    v.tpotMs = stat3("tpot_ms");
    v.e2eMs = stat3("e2e_ms");
    return v;
}

Result<DerivedValues> PointDeriver::derive(HistoryReader &reader, const PointRow &point,
                                           const ScenarioRow &scenario, const DeriveVariant &variant)
{
    if (!variant.rederive)
        return stored(point, scenario, variant);
    // The engine's window W0/W1 in ns: the aggregates keep them as exact doubles (seconds), the indexed
    // columns truncated; a 1 ns error would move requests sent at W0 or W1 across the window edge.
    const auto parsed = PointResult::fromJson(point.aggregates);
    PointWindow window;
    window.w0Ns = point.windowStartNs;
    window.w1Ns = point.windowEndNs;
    if (parsed && std::isfinite(parsed->w0S) && std::isfinite(parsed->w1S)) {
        window.w0Ns = std::llround(parsed->w0S * 1e9);
        window.w1Ns = std::llround(parsed->w1S * 1e9);
    }

    // Every request of the point with its event blob (LEFT JOIN: failed requests carry none; a request
    // with content events but no blob had its events pruned).
    auto st = reader.connection().prepare(
        "SELECT q.flags, q.t_sched_ns, q.t_send_ns, q.t_end_ns, q.completion_tokens, q.n_out, "
        "q.n_out_source, q.n_first, q.n_content, q.error_class, e.blob FROM requests q LEFT JOIN "
        "request_events e ON e.request_id = q.id WHERE q.point_id = ? ORDER BY q.seq");
    if (!st)
        return st.error();
    st->bind(1, point.id);
    OutputThroughput throughput(window);
    RequestRecord r;
    std::int64_t rows = 0, pruned = 0;
    int okMeasured = 0;
    auto time = [&](int col) { return st->colIsNull(col) ? kNoTime : st->colInt(col); };
    while (st->step() == kRow) {
        ++rows;
        const std::int64_t flags = st->colInt(0);
        r.warmup = (flags & 1) != 0;
        r.nFirstApproximate = (flags & 2) != 0;
        r.tSched = time(1);
        r.tSend = time(2);
        r.tEnd = time(3);
        r.usage = Usage{};
        r.usage.completionTokens = st->colIsNull(4) ? -1 : int(st->colInt(4));
        r.nOut = st->colIsNull(5) ? -1 : int(st->colInt(5));
        r.nOutSource = TokenCountSource(std::clamp<std::int64_t>(st->colInt(6), 0, 2));
        r.nFirst = int(st->colInt(7));
        r.error = ErrorClass(st->colInt(9));
        r.events.clear();
        if (!st->colIsNull(10)) {
            int size = 0;
            const void *blob = st->colBlob(10, size);
            if (!EventCodec::decode(blob, std::size_t(size), r.tSend, r.events))
                return makeError(ErrorCode::Storage, "malformed event blob in point " +
                                                         std::to_string(point.id) + " of " + reader.path());
        } else if (st->colInt(8) > 0) {
            ++pruned;
        }
        const RequestMetrics m = computeRequestMetrics(r);
        throughput.add(r, m);
        okMeasured += window.measures(r) && m.ok ? 1 : 0;
    }
    st->reset(); // derivePoint registers an SQL function: no statement may be active on the connection
    if (rows == 0)
        return stored(point, scenario, variant); // imported or pruned: nothing to re-derive from

    DeriveOptions options;
    options.percentiles = {double(variant.percentile)};
    options.gpus = divisor(scenario, variant.gpus);
    options.windowStartNs = window.w0Ns; // the measured set: non-warm-up sends in [W0, W1)
    options.windowEndNs = window.w1Ns;
    auto d = reader.derivePoint(point.id, options);
    if (!d)
        return d.error();
    const nlohmann::json &j = *d;
    const bool whole = variant.window == DeriveVariant::Window::Whole;
    DerivedValues v;
    v.fromRequests = true;
    v.nOk = j.value("n_ok", okMeasured);
    v.gpus = j.value("gpus", options.gpus);
    if (pruned > 0) {
        // Events pruned: the stored throughput of the chosen definition (NaN when not stored).
        v.storedThroughput = true;
        v.windowS = parsed ? parsed->windowS : window.seconds();
        v.outputTps =
            parsed ? positive(whole ? parsed->metrics.outputTpsWhole : parsed->metrics.outputTps) : kNaN;
        v.requestRate = num(j, "request_rate");
    } else if (whole) {
        v.windowS = throughput.wholeSeconds();
        v.outputTps = throughput.wholeTps();
        v.requestRate = v.windowS > 0 ? v.nOk / v.windowS : kNaN;
    } else {
        v.windowS = window.seconds();
        v.outputTps = throughput.steadyTps();
        v.requestRate = num(j, "request_rate");
    }
    v.outputTpsPerGpu = v.gpus > 0 ? v.outputTps / v.gpus : kNaN;
    const std::string key = variant.statKey().toStdString();
    auto pct = [&](const char *metric) {
        return j.contains(metric) && j[metric].is_object() ? num(j[metric], key.c_str()) : kNaN;
    };
    v.ttftMs = pct("ttft_ms");
    v.tpotMs = pct("tpot_ms");
    v.e2eMs = pct("e2e_ms");
    return v;
}

Result<std::vector<DerivedValues>> PointDeriver::deriveRun(HistoryReader &reader, const RunDetail &run,
                                                           const DeriveVariant &variant)
{
    std::vector<DerivedValues> out;
    out.reserve(run.points.size());
    for (const PointRow &p : run.points) {
        const ScenarioRow *scenario = nullptr;
        for (const ScenarioRow &s : run.scenarios)
            if (s.id == p.scenarioId)
                scenario = &s;
        const ScenarioRow fallback;
        auto v = derive(reader, p, scenario ? *scenario : fallback, variant);
        if (!v)
            return v.error();
        out.push_back(*v);
    }
    return out;
}

} // namespace Throughline
