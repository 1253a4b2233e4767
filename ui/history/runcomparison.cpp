#include "ui/history/runcomparison.h"

#include "ui/plots/curverule.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

void flatten(const nlohmann::json &j, const QString &prefix, std::map<QString, QString> &out)
{
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            flatten(*it, prefix.isEmpty() ? qs(it.key()) : prefix + u'.' + qs(it.key()), out);
    } else if (j.is_string()) {
        out[prefix] = qs(j.get<std::string>());
    } else if (!j.is_null()) {
        out[prefix] = qs(j.dump()).left(200);
    }
}

} // namespace

QString RunComparison::shortId(const ReportData &run)
{
    return qs(run.run.runId.substr(0, 8));
}

int RunComparison::operatingPoint(const ScenarioResult &s)
{
    if (s.verdict.operatingPoint >= 0 && s.verdict.operatingPoint < int(s.points.size()))
        return s.verdict.operatingPoint;
    int best = -1, bestValid = -1;
    for (int i = 0; i < int(s.points.size()); ++i) {
        const double v = s.points[i].metrics.outputTpsPerGpu;
        if (best < 0 || v > s.points[best].metrics.outputTpsPerGpu)
            best = i;
        if (s.points[i].validity.valid && (bestValid < 0 || v > s.points[bestValid].metrics.outputTpsPerGpu))
            bestValid = i;
    }
    return bestValid >= 0 ? bestValid : best;
}

std::vector<RunComparison::EnvDiff> RunComparison::environmentDiff(const std::vector<ReportData> &runs)
{
    std::vector<std::map<QString, QString>> flat;
    std::map<QString, int> keys;
    for (const ReportData &r : runs) {
        std::map<QString, QString> f;
        flatten(r.provenance, QString(), f);
        f[u"source"_qs] = qs(r.source);
        f[u"simulated"_qs] = r.run.simulated ? u"yes"_qs : u"no"_qs;
        f[u"tool_version"_qs] = qs(r.run.toolVersion);
        QStringList backends, gpus, models;
        for (const ScenarioResult &s : r.run.scenarios) {
            if (!backends.contains(qs(s.backend)))
                backends << qs(s.backend);
            const QString g = u"%1×%2"_qs.arg(qs(s.gpu)).arg(s.gpus);
            if (!gpus.contains(g))
                gpus << g;
            if (!models.contains(qs(s.model)))
                models << qs(s.model);
        }
        f[u"backends"_qs] = backends.join(u", "_qs);
        f[u"gpus"_qs] = gpus.join(u", "_qs);
        f[u"models"_qs] = models.join(u", "_qs);
        for (const auto &kv : f)
            keys[kv.first] = 0;
        flat.push_back(std::move(f));
    }
    std::vector<EnvDiff> out;
    for (const auto &kv : keys) {
        EnvDiff d{kv.first, {}};
        bool differs = false;
        for (const auto &f : flat) {
            const auto it = f.find(kv.first);
            d.values << (it == f.end() ? u"-"_qs : it->second);
            differs = differs || d.values.last() != d.values.first();
        }
        if (differs)
            out.push_back(d);
    }
    return out;
}

Chart RunComparison::overlay(const std::vector<ReportData> &runs)
{
    Chart chart;
    chart.xLabel = QCoreApplication::translate("Throughline::RunComparison", "output tokens/s per GPU");
    chart.yLabel =
        QCoreApplication::translate("Throughline::RunComparison", "tokens/s per user (1000 / TPOT p90)");
    for (const ReportData &r : runs) {
        const QString variant = r.source == "throughline" ? u"steady"_qs : u"whole"_qs;
        for (const ScenarioResult &s : r.run.scenarios) {
            ChartSeries series;
            // The run monitor's rule (curverule.h): invalid points hollow with their reason; imported files
            // without TPOT p90 (vLLM reports p50/p99) or a GPU count fall back to TPOT mean / total tokens/s.
            for (const PointResult &p : s.points)
                if (const auto cp = CurveRule::point(p))
                    series.points.append(*cp);
            series.name =
                CurveRule::legendName(u"%1 %2 (%3)"_qs.arg(shortId(r), qs(s.id), variant), series.points);
            std::sort(series.points.begin(), series.points.end(),
                      [](const ChartPoint &a, const ChartPoint &b) { return a.x < b.x; });
            chart.series.append(series);
        }
    }
    return chart;
}

} // namespace Throughline

namespace Throughline {

namespace {

QString trc(const char *text)
{
    return QCoreApplication::translate("Throughline::RunComparison", text);
}

// Throughput axis label under a variant's divisor (re-derived values only; stored ones are per all GPUs).
QString throughputAxis(const DeriveVariant &variant)
{
    if (variant.rederive && variant.gpus == DeriveVariant::Gpus::Decode)
        return trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", "output tokens/s per decode GPU"));
    if (variant.rederive && variant.gpus == DeriveVariant::Gpus::None)
        return trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", "output tokens/s (total)"));
    return trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", "output tokens/s per GPU"));
}

// Points of a stored scenario in the order ReportData::fromHistory keeps them (measured points only).
std::vector<const PointRow *> measuredPoints(const RunDetail &detail, const ScenarioRow &scenario)
{
    std::vector<const PointRow *> rows;
    for (const PointRow &p : detail.points)
        if (p.scenarioId == scenario.id && p.aggregates.is_object() && !p.aggregates.empty())
            rows.push_back(&p);
    std::sort(rows.begin(), rows.end(), [](auto *a, auto *b) { return a->pointIndex < b->pointIndex; });
    return rows;
}

// A drawn value's stored interval as an error bar: only when the value is that stored statistic itself
// (a re-derived value, another window or divisor has none).
std::optional<ChartInterval> storedBar(const PointResult &p, const DerivedValues &v, double drawn,
                                       std::string_view metric, std::string_view stat)
{
    if (v.fromRequests || p.metricValue(metric, stat) != drawn)
        return std::nullopt;
    return CurveRule::errorBar(p, metric, stat);
}

// The same for the curve's y = 1000 / TPOT at a stat.
std::optional<ChartInterval> storedPerUserBar(const PointResult &p, const DerivedValues &v,
                                              std::string_view stat)
{
    if (v.fromRequests || p.metricValue("tpot_ms", stat) != v.tpotMs)
        return std::nullopt;
    return CurveRule::perUserErrorBar(p, stat);
}

const PointResult *pointOf(const ReportData &run, std::size_t scenario, std::size_t point)
{
    if (scenario >= run.run.scenarios.size() || point >= run.run.scenarios[scenario].points.size())
        return nullptr;
    return &run.run.scenarios[scenario].points[point];
}

} // namespace

RunComparison::RunValues RunComparison::storedValues(const ReportData &run, const DeriveVariant &variant)
{
    DeriveVariant stored = variant;
    stored.rederive = false;
    RunValues out;
    for (const ScenarioResult &s : run.run.scenarios) {
        std::vector<DerivedValues> points;
        for (const PointResult &p : s.points)
            points.push_back(PointDeriver::fromResult(p, s.gpus, s.decodeGpus, stored));
        out.push_back(std::move(points));
    }
    return out;
}

Result<RunComparison::RunValues> RunComparison::values(HistoryReader &reader, const ReportData &run,
                                                       const DeriveVariant &variant)
{
    RunValues out = storedValues(run, variant);
    if (!variant.rederive)
        return out;
    auto detail = reader.runDetail(run.run.runId);
    if (!detail)
        return detail.error();
    for (std::size_t s = 0; s < detail->scenarios.size() && s < out.size(); ++s) {
        const auto rows = measuredPoints(*detail, detail->scenarios[s]);
        for (std::size_t k = 0; k < rows.size() && k < out[s].size(); ++k) {
            auto v = PointDeriver::derive(reader, *rows[k], detail->scenarios[s], variant);
            if (!v)
                return v.error();
            if (v->fromRequests)
                out[s][k] = *v;
        }
    }
    return out;
}

Chart RunComparison::overlay(const std::vector<ReportData> &runs, const std::vector<RunValues> &values,
                             const DeriveVariant &variant)
{
    Chart chart;
    chart.xLabel = throughputAxis(variant);
    chart.yLabel = trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", "tokens/s per user (1000 / TPOT %1)"))
                       .arg(variant.statKey());
    const std::string stat = variant.statKey().toStdString();
    for (std::size_t r = 0; r < runs.size() && r < values.size(); ++r) {
        const ReportData &run = runs[r];
        for (std::size_t s = 0; s < run.run.scenarios.size() && s < values[r].size(); ++s) {
            ChartSeries series;
            bool derived = false, total = false;
            for (std::size_t k = 0; k < values[r][s].size(); ++k) {
                const DerivedValues &v = values[r][s][k];
                double x = v.outputTpsPerGpu;
                const char *xMetric = "output_tps_per_gpu";
                if (!(std::isfinite(x) && x > 0)) {
                    x = v.outputTps; // imported files often carry no GPU count
                    xMetric = "output_tps";
                    total = true;
                }
                derived = derived || v.fromRequests;
                if (!(std::isfinite(x) && x > 0 && std::isfinite(v.tpotMs) && v.tpotMs > 0))
                    continue;
                ChartPoint cp(x, 1000.0 / v.tpotMs);
                if (const PointResult *p = pointOf(run, s, k)) {
                    cp.xInterval = storedBar(*p, v, x, xMetric, "value");
                    cp.yInterval = storedPerUserBar(*p, v, stat);
                }
                series.points.append(cp);
            }
            // Throughput variant: what the values are (re-derived under the chosen window, or the
            // source's own definition: ours steady-state, imported whole-run).
            QString label = derived ? variant.throughputVariant()
                                    : (run.source == "throughline" ? u"steady"_qs : u"whole"_qs);
            label += derived ? trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", ", re-derived %1"))
                                   .arg(variant.statKey())
                             : trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", ", stored %1"))
                                   .arg(variant.statKey());
            if (total)
                label += u", total tok/s"_qs;
            series.name = u"%1 %2 (%3)"_qs.arg(shortId(run), qs(run.run.scenarios[s].id), label);
            std::sort(series.points.begin(), series.points.end(),
                      [](const ChartPoint &a, const ChartPoint &b) { return a.x < b.x; });
            chart.series.append(series);
        }
    }
    return chart;
}

void RunComparison::setStepMode(Chart &chart, bool step)
{
    for (ChartSeries &s : chart.series)
        if (!s.bars)
            s.step = step;
}

Chart RunComparison::phaseBars(const std::vector<ReportData> &runs, const std::vector<RunValues> &values,
                               BarMetric metric, const DeriveVariant &variant)
{
    Chart chart;
    chart.legend = true;
    switch (metric) {
    case BarMetric::OutputTpsPerGpu:
        chart.yLabel = throughputAxis(variant);
        break;
    case BarMetric::TtftP99:
        chart.yLabel = trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", "TTFT p99 (ms)"));
        break;
    case BarMetric::TpotP99:
        chart.yLabel = trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", "TPOT p99 (ms)"));
        break;
    }
    chart.xLabel = trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", "phase (operating point)"));
    QStringList phases;
    for (const ReportData &r : runs)
        for (const ScenarioResult &s : r.run.scenarios) {
            const QString phase = s.phase.empty()
                                      ? trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", "(no phase)"))
                                      : qs(s.phase);
            if (!phases.contains(phase))
                phases << phase;
        }
    chart.xCategories = phases;
    const int n = int(runs.size());
    const double width = 0.8 / std::max(1, n);
    for (int r = 0; r < n && r < int(values.size()); ++r) {
        ChartSeries bars;
        bars.bars = true;
        bars.barWidth = width * 0.92;
        bool total = false, derived = false;
        for (int ph = 0; ph < phases.size(); ++ph) {
            // The run's scenario of this phase with the highest throughput at its operating point.
            int bestS = -1, bestP = -1;
            double bestTps = -1;
            const auto &scenarios = runs[std::size_t(r)].run.scenarios;
            for (int s = 0; s < int(scenarios.size()); ++s) {
                const QString phase = scenarios[std::size_t(s)].phase.empty()
                                          ? trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", "(no phase)"))
                                          : qs(scenarios[std::size_t(s)].phase);
                const int op = operatingPoint(scenarios[std::size_t(s)]);
                if (phase != phases[ph] || op < 0 || s >= int(values[std::size_t(r)].size()) ||
                    op >= int(values[std::size_t(r)][std::size_t(s)].size()))
                    continue;
                const DerivedValues &v = values[std::size_t(r)][std::size_t(s)][std::size_t(op)];
                const double tps = std::isfinite(v.outputTpsPerGpu) ? v.outputTpsPerGpu : v.outputTps;
                if (bestS < 0 || tps > bestTps)
                    bestS = s, bestP = op, bestTps = std::isfinite(tps) ? tps : -1;
            }
            if (bestS < 0)
                continue;
            const DerivedValues &v = values[std::size_t(r)][std::size_t(bestS)][std::size_t(bestP)];
            double y = kNaN;
            std::string key, stat = "p99";
            switch (metric) {
            case BarMetric::OutputTpsPerGpu:
                y = v.outputTpsPerGpu;
                key = "output_tps_per_gpu", stat = "value";
                if (!std::isfinite(y)) {
                    y = v.outputTps;
                    key = "output_tps";
                    total = std::isfinite(y);
                }
                break;
            case BarMetric::TtftP99:
                y = v.ttftMs;
                key = "ttft_ms";
                break;
            case BarMetric::TpotP99:
                y = v.tpotMs;
                key = "tpot_ms";
                break;
            }
            derived = derived || v.fromRequests;
            if (!std::isfinite(y))
                continue;
            ChartPoint bar(ph + (r - (n - 1) / 2.0) * width, y);
            if (const PointResult *p = pointOf(runs[std::size_t(r)], std::size_t(bestS), std::size_t(bestP)))
                bar.yInterval = storedBar(*p, v, y, key, stat);
            bars.points.append(bar);
        }
        const ReportData &run = runs[std::size_t(r)];
        QString label = derived ? variant.throughputVariant() +
                                      trc(QT_TRANSLATE_NOOP("Throughline::RunComparison", ", re-derived"))
                                : (run.source == "throughline" ? u"steady"_qs : u"whole"_qs);
        if (total)
            label += u", total tok/s"_qs;
        bars.name = u"%1 (%2)"_qs.arg(shortId(run), label);
        chart.series.append(bars);
    }
    return chart;
}

} // namespace Throughline
