#include "ui/report/reportcharts.h"

#include "ui/plots/curverule.h"

#include <cmath>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// Offered load of a point: concurrency or request rate (the axis says which).
double loadValue(const PointLoad &l)
{
    return l.mode == PointLoad::Mode::Concurrency ? double(l.concurrency) : l.rate;
}

bool concurrencyMode(const std::vector<const ScenarioResult *> &scenarios)
{
    for (const ScenarioResult *s : scenarios)
        for (const PointResult &p : s->points)
            return p.load.mode == PointLoad::Mode::Concurrency;
    return true;
}

// A point of the chart with the load point's validity; `approximate` (a fallback statistic) also
// makes it hollow and says why.
ChartPoint measuredPoint(double x, double y, const PointResult &p, const QString &approximate)
{
    ChartPoint cp = ChartPoint::measured(x, y, p.validity.valid, p.validity.flags);
    if (!approximate.isEmpty()) {
        cp.valid = false;
        cp.reason = cp.reason.isEmpty() ? approximate : cp.reason + u", "_qs + approximate;
    }
    return cp;
}

std::optional<double> p90(const StatSummary &s)
{
    return s.stat("p90");
}

Chart loadChart(const QString &title, const QString &yLabel,
                const std::vector<const ScenarioResult *> &scenarios)
{
    Chart chart;
    chart.title = title;
    chart.yLabel = yLabel;
    const bool conc = concurrencyMode(scenarios);
    chart.xLabel = conc ? ReportCharts::tr("concurrency (requests in flight)")
                        : ReportCharts::tr("request rate (req/s)");
    double lo = 1e300, hi = 0;
    for (const ScenarioResult *s : scenarios)
        for (const PointResult &p : s->points) {
            lo = std::min(lo, loadValue(p.load));
            hi = std::max(hi, loadValue(p.load));
        }
    chart.logX = conc && lo > 0 && hi / lo >= 8;
    chart.xFromZero = !chart.logX;
    return chart;
}

} // namespace

std::vector<const ScenarioResult *> ReportCharts::ofPhase(const RunResults &run, const std::string &phase)
{
    std::vector<const ScenarioResult *> out;
    for (const ScenarioResult &s : run.scenarios)
        if (s.phase == phase)
            out.push_back(&s);
    return out;
}

QString ReportCharts::deploymentName(const ScenarioResult &s)
{
    QString d = u"%1/%2/%3×%4"_qs.arg(qs(s.model), qs(s.backend), qs(s.gpu)).arg(s.gpus);
    if (s.prefillGpus > 0 || s.decodeGpus > 0)
        d += u" (%1P+%2D)"_qs.arg(s.prefillGpus).arg(s.decodeGpus);
    return d;
}

Chart ReportCharts::frontier(const QString &phase, const std::vector<const ScenarioResult *> &scenarios)
{
    Chart chart;
    chart.title = tr("%1: throughput vs interactivity").arg(phase);
    chart.xLabel = tr("output tokens/s per GPU");
    chart.yLabel = tr("tok/s per user (1000 / TPOT p90)");
    for (const ScenarioResult *s : scenarios) {
        ChartSeries series;
        series.name = deploymentName(*s);
        for (int i = 0; i < int(s->points.size()); ++i) {
            // The run monitor's rule (curverule.h): hollow when invalid or drawn at TPOT mean, error bars
            // from the point's intervals.
            auto cp = CurveRule::point(s->points[std::size_t(i)]);
            if (!cp)
                continue;
            cp->highlighted = i == s->verdict.operatingPoint;
            series.points << *cp;
        }
        chart.series << series;
    }
    return chart;
}

Chart ReportCharts::latencyVsLoad(const QString &phase, const std::vector<const ScenarioResult *> &scenarios,
                                  const std::string &metric)
{
    const QString name = metric == "ttft_ms" ? u"TTFT"_qs : metric == "tpot_ms" ? u"TPOT"_qs : u"E2E"_qs;
    Chart chart =
        loadChart(tr("%1: %2 p90 vs load").arg(phase, name), tr("%1 p90 (ms)").arg(name), scenarios);
    for (const ScenarioResult *s : scenarios) {
        ChartSeries series;
        series.name = deploymentName(*s);
        for (const PointResult &p : s->points) {
            const StatSummary &st = metric == "ttft_ms"   ? p.metrics.ttftMs
                                    : metric == "tpot_ms" ? p.metrics.tpotMs
                                                          : p.metrics.e2eMs;
            std::optional<double> v = p90(st);
            QString approx;
            if (!v && st.n > 0) {
                v = st.mean;
                approx = tr("mean (p90 needs n ≥ 100, n=%1)").arg(st.n);
            }
            if (!v || !std::isfinite(*v))
                continue;
            ChartPoint cp = measuredPoint(loadValue(p.load), *v, p, approx);
            cp.yInterval = CurveRule::errorBar(p, metric, approx.isEmpty() ? "p90" : "mean");
            series.points << cp;
        }
        chart.series << series;
    }
    return chart;
}

Chart ReportCharts::throughputVsLoad(const QString &phase,
                                     const std::vector<const ScenarioResult *> &scenarios)
{
    Chart chart =
        loadChart(tr("%1: throughput vs load").arg(phase), tr("output tokens/s per GPU"), scenarios);
    for (const ScenarioResult *s : scenarios) {
        ChartSeries series;
        series.name = deploymentName(*s);
        for (const PointResult &p : s->points)
            if (std::isfinite(p.metrics.outputTpsPerGpu)) {
                ChartPoint cp = measuredPoint(loadValue(p.load), p.metrics.outputTpsPerGpu, p, {});
                cp.yInterval = CurveRule::errorBar(p, "output_tps_per_gpu", "value");
                series.points << cp;
            }
        chart.series << series;
    }
    return chart;
}

Chart ReportCharts::telemetryVsLoad(const QString &phase,
                                    const std::vector<const ScenarioResult *> &scenarios,
                                    const std::string &key, const QString &yLabel, double scale)
{
    Chart chart = loadChart(tr("%1: %2 (server) vs load").arg(phase, yLabel), yLabel, scenarios);
    for (const ScenarioResult *s : scenarios) {
        ChartSeries series;
        series.name = deploymentName(*s);
        for (const PointResult &p : s->points)
            if (auto it = p.telemetry.find(key); it != p.telemetry.end() && std::isfinite(it->second))
                series.points << measuredPoint(loadValue(p.load), it->second * scale, p, {});
        chart.series << series;
    }
    return chart;
}

double ReportCharts::intervalLevel(const RunResults &run)
{
    for (const ScenarioResult &s : run.scenarios)
        for (const PointResult &p : s.points)
            if (!p.intervals.empty())
                return p.intervals.level;
    return 0;
}

QString ReportCharts::errorBarNote(const RunResults &run)
{
    if (const double level = intervalLevel(run); level > 0)
        return tr("Bars: each point's %1 % confidence intervals (throughput: block bootstrap over the "
                  "window; "
                  "percentiles: order-statistic bounds). A bar that runs to the chart's edge without a cap "
                  "is "
                  "open: the sample cannot bound that side.")
            .arg(QString::number(100 * level, 'g', 3));
    return {};
}

bool ReportCharts::hasPoints(const Chart &chart)
{
    for (const ChartSeries &s : chart.series)
        if (!s.points.isEmpty())
            return true;
    return false;
}

} // namespace Throughline
