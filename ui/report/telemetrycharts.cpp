#include "ui/report/telemetrycharts.h"
#include "ui/models/loadlabel.h"

#include <QUrl>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace Throughline {

namespace {

// host:port of a scrape target, to tell replicas apart.
QString sourceName(const std::string &source)
{
    const QUrl url(QString::fromStdString(source));
    return url.isValid() && !url.host().isEmpty() ? url.authority() : QString::fromStdString(source);
}

ChartSeries line(const QString &name, const ReportTelemetry::Trace &t, double t0, double scale,
                 Qt::PenStyle pen = Qt::SolidLine)
{
    ChartSeries s;
    s.name = name;
    s.dots = false; // dense time series: the line carries it
    s.pen = pen;
    for (const auto &[tS, v] : t.points)
        s.points << ChartPoint{tS - t0, v * scale};
    return s;
}

} // namespace

QList<Chart> TelemetryCharts::overTime(const ScenarioResult &scenario,
                                       const ReportTelemetry::Scenario &telemetry)
{
    double t0 = std::numeric_limits<double>::infinity();
    for (const ReportTelemetry::Trace &t : telemetry.traces)
        if (!t.points.empty())
            t0 = std::min(t0, t.points.front().first);
    for (const PointResult &p : scenario.points)
        if (p.w1S > p.w0S)
            t0 = std::min(t0, p.w0S);
    if (!std::isfinite(t0))
        return {};
    // Several targets of one metric (replicas) are told apart by host:port.
    auto metricSources = [&telemetry](const char *metric) {
        std::set<std::string> s;
        for (const ReportTelemetry::Trace &t : telemetry.traces)
            if (t.metric == metric)
                s.insert(t.source);
        return s.size();
    };
    auto withSource = [&](QString name, const ReportTelemetry::Trace &t) {
        if (metricSources(t.metric.c_str()) > 1)
            name += u" ("_qs + sourceName(t.source) + u')';
        return name;
    };

    Chart kv, requests, power;
    kv.title = tr("KV-cache usage over time");
    kv.yLabel = tr("KV cache used (%)");
    requests.title = tr("Requests in the server over time");
    requests.yLabel = tr("requests");
    power.title = tr("GPU power over time");
    power.yLabel = tr("W");
    for (const ReportTelemetry::Trace &t : telemetry.traces) {
        if (t.metric == "kv_cache_usage")
            kv.series << line(withSource(tr("KV cache"), t), t, t0, 100);
        else if (t.metric == "running")
            requests.series << line(withSource(tr("running"), t), t, t0, 1);
        else if (t.metric == "waiting")
            requests.series << line(withSource(tr("waiting"), t), t, t0, 1, Qt::DashLine);
        else if (t.metric == "gpu_power_w")
            power.series << line(withSource(tr("all %n GPU(s)", nullptr, t.summed), t), t, t0, 1);
    }
    QList<ChartRegion> windows;
    for (const PointResult &p : scenario.points)
        if (p.w1S > p.w0S)
            windows << ChartRegion{p.w0S - t0,
                                   p.w1S - t0,
                                   -std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<double>::infinity(),
                                   loadLabel(p.load),
                                   ChartRegion::Tone::Neutral};
    QList<Chart> out;
    for (Chart *c : {&kv, &requests, &power}) {
        if (c->series.isEmpty())
            continue;
        c->xLabel = tr("time in the scenario (s)");
        c->regions = windows;
        c->legend = c->series.size() > 1;
        out << *c;
    }
    return out;
}

} // namespace Throughline
