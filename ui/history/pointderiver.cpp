#include "ui/history/pointderiver.h"

#include "core/metrics/pointresult.h"

#include <QCoreApplication>

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
    const QString window = this->window == Window::Steady
                               ? trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "steady-state window"))
                               : trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "whole point"));
    const QString per = gpus == Gpus::All ? trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "per GPU"))
                        : gpus == Gpus::Decode
                            ? trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "per decode GPU"))
                            : trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "total, not per GPU"));
    return trd(QT_TRANSLATE_NOOP("Throughline::PointDeriver", "re-derived %1, %2, %3"))
        .arg(statKey(), window, per);
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
    auto st = reader.connection().prepare(
        "SELECT count(*), min(t_send_ns), max(t_send_ns) FROM requests WHERE point_id = ?");
    if (!st)
        return st.error();
    st->bind(1, point.id);
    if (st->step() != kRow)
        return reader.connection().lastError("count requests of point " + std::to_string(point.id));
    const bool noRows = st->colInt(0) == 0 || st->colIsNull(1);
    const std::int64_t firstSend = st->colInt(1), lastSend = st->colInt(2);
    st->reset(); // derivePoint registers an SQL function: no statement may be active on the connection
    if (noRows)
        return stored(point, scenario, variant); // imported or pruned: nothing to re-derive from
    DeriveOptions options;
    options.percentiles = {double(variant.percentile)};
    options.gpus = divisor(scenario, variant.gpus);
    if (variant.window == DeriveVariant::Window::Whole) {
        // Every request of the point, warm-up included: the window spans all sends.
        options.includeWarmup = true;
        options.windowStartNs = firstSend;
        options.windowEndNs = lastSend + 1;
    }
    auto d = reader.derivePoint(point.id, options);
    if (!d)
        return d.error();
    const nlohmann::json &j = *d;
    DerivedValues v;
    v.fromRequests = true;
    v.nOk = j.value("n_ok", 0);
    v.gpus = j.value("gpus", options.gpus);
    v.windowS = num(j, "window_s");
    v.requestRate = num(j, "request_rate");
    const double inWindow = num(j, "output_tps_issued_in_window");
    v.outputTps = variant.window == DeriveVariant::Window::Steady && std::isfinite(inWindow)
                      ? inWindow
                      : num(j, "output_tps_whole");
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
