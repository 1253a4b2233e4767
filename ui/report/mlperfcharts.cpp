#include "ui/report/mlperfcharts.h"

#include "ui/plots/curverule.h"
#include "ui/report/reportwriter.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Throughline {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// The rules' coordinates of a point with its error bars: the `mlperf` throughput variant's interval (or the
// steady-state one it fell back to) and 1000 / TPOT-without-TTFT p90's.
struct OfficialPoint {
    int concurrency = 0;
    double x = 0, y = 0; // tok/s per user, system tok/s
    std::optional<ChartInterval> xBar, yBar;
};

std::optional<OfficialPoint> officialPoint(const PointResult &p)
{
    const auto cp = Mlperf::curvePointOf(p);
    if (!cp)
        return std::nullopt;
    OfficialPoint o;
    o.concurrency = p.load.concurrency;
    o.x = cp->tpsPerUser;
    o.y = cp->systemTps;
    const bool variant = p.metricValue("output_tps_mlperf", "value") == cp->systemTps;
    o.yBar = CurveRule::errorBar(p, variant ? "output_tps_mlperf" : "output_tps", "value");
    o.xBar = CurveRule::reciprocalErrorBar(p, "tpot_mlperf_ms", "p90");
    return o;
}

ChartPoint marker(double x, double y, const PointResult &p)
{
    return ChartPoint::measured(x, y, p.validity.valid, p.validity.flags);
}

// Contiguous bands, one per run of equal keys along a sorted axis, edges halfway between neighbours
// (geometrically on a log axis); on a log axis the first starts at the first value (the axis starts there)
// and the last ends half a step beyond the last value (its marker stays inside); on a linear one the bands
// run to the plot's edges.
QList<ChartRegion> bands(std::vector<std::pair<double, std::string>> keyed, bool logAxis)
{
    QList<ChartRegion> out;
    if (keyed.empty())
        return out;
    std::sort(keyed.begin(), keyed.end());
    auto mid = [logAxis](double a, double b) { return logAxis ? std::sqrt(a * b) : (a + b) / 2; };
    struct Run {
        std::string key;
        double lo, hi;
    };
    std::vector<Run> runs;
    for (const auto &[v, key] : keyed) {
        if (runs.empty() || runs.back().key != key)
            runs.push_back({key, v, v});
        runs.back().hi = v;
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
        ChartRegion r;
        r.label = MlperfCharts::regionName(runs[i].key);
        r.x0 = i == 0 ? (logAxis ? runs[i].lo : -kInf) : mid(runs[i - 1].hi, runs[i].lo);
        r.x1 = i + 1 == runs.size() ? (logAxis ? runs[i].hi * std::sqrt(2.0) : kInf)
                                    : mid(runs[i].hi, runs[i + 1].lo);
        out << r;
    }
    return out;
}

} // namespace

QString MlperfCharts::regionName(const std::string &key)
{
    if (key == "ultra_low")
        return tr("Ultra Low");
    if (key == "low")
        return tr("Low");
    if (key == "medium")
        return tr("Medium");
    if (key == "high")
        return tr("High");
    if (key == "margin")
        return tr("margin");
    return qs(key);
}

std::vector<MlperfCharts::Curve> MlperfCharts::curvesOf(const ReportData &run)
{
    std::vector<Curve> out;
    const auto mlperf = run.provenance.find("mlperf");
    if (mlperf == run.provenance.end() || !mlperf->is_object() || !mlperf->contains("scenarios"))
        return out;
    const std::string preset = mlperf->value("preset", std::string());
    for (const nlohmann::json &s : (*mlperf)["scenarios"]) {
        if (!s.is_object())
            continue;
        const std::string id = s.value("scenario", std::string());
        const auto it = std::find_if(run.run.scenarios.begin(), run.run.scenarios.end(),
                                     [&id](const ScenarioResult &r) { return r.id == id; });
        if (it == run.run.scenarios.end())
            continue;
        Curve c;
        c.scenario = &*it;
        c.preset = preset;
        if (const auto plan = s.find("plan"); plan != s.end() && plan->is_array())
            for (const nlohmann::json &pp : *plan)
                if (pp.is_object() && pp.value("concurrency", 0) > 0)
                    c.regionOf[pp.value("concurrency", 0)] = pp.value("region", std::string());
        out.push_back(std::move(c));
    }
    return out;
}

Mlperf::Frontier MlperfCharts::frontierOf(const ScenarioResult &s)
{
    std::vector<Mlperf::CurvePoint> points;
    for (const PointResult &p : s.points)
        if (p.validity.valid)
            if (const auto cp = Mlperf::curvePointOf(p))
                points.push_back(*cp);
    return Mlperf::Frontier(std::move(points));
}

Chart MlperfCharts::frontier(const Curve &curve)
{
    const ScenarioResult &s = *curve.scenario;
    Chart chart;
    chart.title = tr("%1: MLPerf Endpoints frontier").arg(qs(s.id));
    chart.xLabel = tr("tokens/s per user (1000 / TPOT p90 without TTFT)");
    chart.yLabel = tr("system output tokens/s");
    ChartSeries steps;
    steps.name = tr("frontier (step function of valid points)");
    steps.dots = false;
    const Mlperf::Frontier f = frontierOf(s);
    for (const Mlperf::FrontierStep &st : f.steps())
        steps.points << ChartPoint(st.xFrom, st.systemTps) << ChartPoint(st.xTo, st.systemTps);
    ChartSeries measured;
    measured.name = tr("measured points");
    measured.line = false;
    std::vector<std::pair<double, std::string>> keyed;
    for (const PointResult &p : s.points) {
        const auto o = officialPoint(p);
        if (!o)
            continue;
        ChartPoint m = marker(o->x, o->y, p);
        m.xInterval = o->xBar;
        m.yInterval = o->yBar;
        measured.points << m;
        if (const auto r = curve.regionOf.find(o->concurrency); r != curve.regionOf.end())
            keyed.emplace_back(o->x, r->second);
    }
    chart.series << steps << measured;
    // Regions run from high interactivity (Ultra Low concurrency) to low: keyed by x they come out reversed,
    // which the bands do not mind.
    chart.regions = bands(std::move(keyed), false);
    return chart;
}

Chart MlperfCharts::againstConcurrency(const Curve &curve, Axis y)
{
    const ScenarioResult &s = *curve.scenario;
    Chart chart;
    chart.logX = true;
    chart.xFromZero = false;
    chart.xLabel = tr("concurrency (requests in flight)");
    switch (y) {
    case Axis::TtftP90:
        chart.title = tr("TTFT p90 vs concurrency"); // under the scenario's heading
        chart.yLabel = tr("TTFT p90 (ms)");
        break;
    case Axis::TpsPerUser:
        chart.title = tr("tokens/s per user vs concurrency");
        chart.yLabel = tr("tokens/s per user");
        break;
    case Axis::SystemTps:
        chart.title = tr("system tokens/s vs concurrency");
        chart.yLabel = tr("system output tokens/s");
        break;
    }
    ChartSeries series;
    series.name = qs(s.id);
    std::vector<std::pair<double, std::string>> keyed;
    for (const auto &[c, region] : curve.regionOf)
        keyed.emplace_back(double(c), region);
    std::vector<std::pair<int, ChartPoint>> points;
    for (const PointResult &p : s.points) {
        const int c = p.load.concurrency;
        if (p.load.mode != PointLoad::Mode::Concurrency || c <= 0)
            continue;
        std::optional<ChartPoint> cp;
        if (y == Axis::TtftP90) {
            if (const auto v = p.metricValue("ttft_ms", "p90")) {
                cp = marker(c, *v, p);
                cp->yInterval = CurveRule::errorBar(p, "ttft_ms", "p90");
            }
        } else if (const auto o = officialPoint(p)) {
            cp = marker(c, y == Axis::TpsPerUser ? o->x : o->y, p);
            cp->yInterval = y == Axis::TpsPerUser ? o->xBar : o->yBar;
        }
        if (cp)
            points.emplace_back(c, *cp);
    }
    std::stable_sort(points.begin(), points.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &[c, cp] : points)
        series.points << cp;
    chart.series << series;
    chart.legend = false;
    chart.regions = bands(std::move(keyed), true);
    return chart;
}

std::vector<double> MlperfCharts::levels(const Mlperf::Frontier &f)
{
    std::vector<double> out;
    if (f.empty() || !(f.maxTpsPerUser() > 0))
        return out;
    for (double t : ChartAxes::niceTicks(0, f.maxTpsPerUser(), 10))
        if (t > 0 && t <= f.maxTpsPerUser())
            out.push_back(t);
    return out;
}

std::vector<MlperfCharts::AgainstBaseline> MlperfCharts::againstBaseline(const ReportData &candidate,
                                                                         const ReportData &baseline)
{
    std::vector<AgainstBaseline> out;
    const std::vector<Curve> baseCurves = curvesOf(baseline);
    for (const Curve &c : curvesOf(candidate)) {
        const auto base = std::find_if(baseCurves.begin(), baseCurves.end(),
                                       [&](const Curve &b) { return b.scenario->id == c.scenario->id; });
        if (base == baseCurves.end())
            continue;
        const Mlperf::Frontier run = frontierOf(*c.scenario), reference = frontierOf(*base->scenario);
        if (run.empty() || reference.empty())
            continue;
        // Levels of the range both curves cover: beyond it one side has no throughput to compare.
        const Mlperf::Frontier &narrower = run.maxTpsPerUser() < reference.maxTpsPerUser() ? run : reference;
        out.push_back({c.scenario, Mlperf::compareFrontiers(run, reference, levels(narrower))});
    }
    return out;
}

QList<MlperfCharts::ComparisonRow> MlperfCharts::comparisonRows(const ReportData &candidate,
                                                                const ReportData &baseline)
{
    const auto value = [](const std::optional<double> &v, int decimals) {
        return v ? ReportWriter::number(*v, decimals) : QStringLiteral("—");
    };
    const auto share = [](const std::optional<double> &ratio) {
        return ratio ? ReportWriter::number(*ratio * 100.0, 1) + QStringLiteral(" %") : QStringLiteral("—");
    };
    QList<ComparisonRow> rows;
    for (const AgainstBaseline &a : againstBaseline(candidate, baseline)) {
        const QString scenario = QString::fromStdString(a.scenario->id);
        const Mlperf::FrontierComparison &f = a.comparison;
        rows.append({scenario, tr("Area over 0–%1 tok/s per user").arg(ReportWriter::number(f.xTo, 1)),
                     ReportWriter::number(f.baselineArea, 0), ReportWriter::number(f.runArea, 0),
                     share(f.areaRatio), true});
        for (const Mlperf::LevelComparison &l : f.levels)
            rows.append({scenario,
                         tr("Throughput at %1 tok/s per user").arg(ReportWriter::number(l.tpsPerUser, 0)),
                         value(l.baseline, 1), value(l.run, 1), share(l.ratio), false});
    }
    return rows;
}

std::vector<std::pair<double, double>> MlperfCharts::throughputAtLevels(const Mlperf::Frontier &f)
{
    std::vector<std::pair<double, double>> out;
    for (double level : levels(f))
        if (const auto tps = f.throughputAt(level))
            out.emplace_back(level, *tps);
    return out;
}

} // namespace Throughline
