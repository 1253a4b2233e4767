#include "ui/history/historyloads.h"
#include "ui/models/loadlabel.h"

#include <QFileInfo>

#include <algorithm>
#include <limits>

namespace Throughline::HistoryLoads {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

Result<std::vector<RunComparison::RunValues>>
valuesOf(HistoryReader &reader, const std::vector<ReportData> &runs, const DeriveVariant &variant)
{
    std::vector<RunComparison::RunValues> out;
    for (const ReportData &r : runs) {
        auto v = RunComparison::values(reader, r, variant);
        if (!v)
            return v.error();
        out.push_back(std::move(*v));
    }
    return out;
}

Result<VariantData> variantWith(HistoryReader &reader, const RunDetail &run, const DeriveVariant &variant)
{
    auto data = ReportData::fromHistory(reader, run.summary.uuid);
    if (!data)
        return data.error();
    VariantData out{run.summary.uuid, variant, std::move(*data), {}, {}};
    if (variant == DeriveVariant{})
        return out;
    auto values = PointDeriver::deriveRun(reader, run, variant);
    if (!values)
        return values.error();
    auto curve = RunComparison::values(reader, out.report, variant);
    if (!curve)
        return curve.error();
    out.pointValues = std::move(*values);
    out.curve = std::move(*curve);
    return out;
}

Samples samplesWith(HistoryReader &reader, std::int64_t pointId, const std::string &metric)
{
    Samples out{pointId, metric, {}};
    if (auto s = reader.samples(pointId, metric))
        out.sorted = std::move(*s);
    std::sort(out.sorted.begin(), out.sorted.end());
    return out;
}

Result<TimelineData> timelineWith(HistoryReader &reader, const std::string &db, const RunDetail &run,
                                  int scenarioIndex)
{
    TimelineData out;
    out.uuid = run.summary.uuid;
    out.scenarioIndex = scenarioIndex;
    // Every stored row of the scenario's points (warm-up included: it loads the server like the rest).
    std::vector<RequestRow> rows;
    for (const PointRow &p : run.points) {
        if (p.scenarioIndex != scenarioIndex)
            continue;
        auto r = reader.requests(p.id, true);
        if (!r)
            return r.error();
        std::int64_t firstSend = std::numeric_limits<std::int64_t>::max();
        for (const RequestRow &row : *r)
            if (row.tSendNs != kNoTime)
                firstSend = std::min(firstSend, row.tSendNs);
        if (firstSend != std::numeric_limits<std::int64_t>::max())
            out.markers.append({true, double(firstSend) / 1e9, loadLabel(p.config, p.pointIndex)});
        rows.insert(rows.end(), std::make_move_iterator(r->begin()), std::make_move_iterator(r->end()));
    }
    out.timeline = RunTimeline::compute(rows);
    TelemetryReader telemetry;
    if (auto s = telemetry.open(db); !s)
        return s.error();
    TelemetryQuery q;
    q.scenarioIndex = scenarioIndex;
    auto got = telemetry.series(run.summary.uuid, q);
    if (!got)
        return got.error();
    out.telemetry = std::move(*got);
    out.databaseHasTelemetry = telemetry.hasTelemetry();
    return out;
}

} // namespace

Result<std::vector<RunSummary>> runs(const std::string &db)
{
    if (!QFileInfo::exists(qs(db)))
        return std::vector<RunSummary>{};
    HistoryReader reader;
    if (auto s = reader.open(db); !s)
        return s.error();
    return reader.listRuns();
}

Result<RunSummary> summary(const std::string &db, const std::string &uuid)
{
    HistoryReader reader;
    if (auto s = reader.open(db); !s)
        return s.error();
    auto detail = reader.runDetail(uuid);
    if (!detail)
        return detail.error();
    return detail->summary;
}

Result<ReportData> report(const std::string &db, const std::string &uuid)
{
    HistoryReader reader;
    if (auto s = reader.open(db); !s)
        return s.error();
    return ReportData::fromHistory(reader, uuid);
}

Result<VariantData> variant(const std::string &db, const RunDetail &run, const DeriveVariant &variant)
{
    HistoryReader reader;
    if (auto s = reader.open(db); !s)
        return s.error();
    return variantWith(reader, run, variant);
}

Samples samples(const std::string &db, std::int64_t pointId, const std::string &metric)
{
    HistoryReader reader;
    if (!reader.open(db).ok())
        return Samples{pointId, metric, {}};
    return samplesWith(reader, pointId, metric);
}

Result<TimelineData> timeline(const std::string &db, const RunDetail &run, int scenarioIndex)
{
    HistoryReader reader;
    if (auto s = reader.open(db); !s)
        return s.error();
    return timelineWith(reader, db, run, scenarioIndex);
}

Result<PointBreakdowns> breakdowns(const std::string &db, std::int64_t pointId)
{
    HistoryReader reader;
    if (auto s = reader.open(db); !s)
        return s.error();
    auto stored = reader.requestBreakdowns(pointId);
    if (!stored)
        return stored.error();
    auto rows = reader.requests(pointId);
    if (!rows)
        return rows.error();
    // Both in seq order: one pass joins them.
    PointBreakdowns out{pointId, {}};
    auto row = rows->begin();
    for (RequestBreakdown &b : *stored) {
        while (row != rows->end() && row->seq < std::int64_t(b.seq))
            ++row;
        PointBreakdowns::Request r{std::move(b), kNoValue, false, false};
        if (row != rows->end() && row->seq == std::int64_t(r.breakdown.seq)) {
            r.e2eMs = row->e2eUs >= 0 ? double(row->e2eUs) / 1e3 : kNoValue;
            r.warmup = row->warmup;
            r.failed = row->errorClass != 0;
        }
        out.requests.push_back(std::move(r));
    }
    return out;
}

Result<RunView> runView(const std::string &db, const std::string &uuid, const DeriveVariant &variant,
                        const std::string &metric)
{
    HistoryReader reader;
    if (auto s = reader.open(db); !s)
        return s.error();
    auto detail = reader.runDetail(uuid);
    if (!detail)
        return detail.error();
    RunView out;
    out.detail = std::move(*detail);
    if (auto c = variantWith(reader, out.detail, variant))
        out.curve = std::move(*c);
    else
        out.curveError = c.error().message;
    if (!out.detail.points.empty())
        out.firstSamples = samplesWith(reader, out.detail.points.front().id, metric);
    if (!out.detail.scenarios.empty()) {
        if (auto t = timelineWith(reader, db, out.detail, out.detail.scenarios.front().index))
            out.firstTimeline = std::move(*t);
        else
            out.timelineError = t.error().message;
    }
    return out;
}

Result<ComparisonData> comparison(const std::string &db, const QStringList &uuids,
                                  const DeriveVariant &variant, RunComparison::BarMetric metric)
{
    HistoryReader reader;
    if (auto s = reader.open(db); !s)
        return s.error();
    ComparisonData out;
    out.uuids = uuids;
    out.variant = out.barVariant = variant;
    for (const QString &u : uuids) {
        auto d = ReportData::fromHistory(reader, u.toStdString());
        if (!d)
            return d.error();
        out.runs.push_back(std::move(*d));
    }
    auto values = valuesOf(reader, out.runs, variant);
    if (!values)
        return values.error();
    out.values = std::move(*values);
    // Bars: latency metrics are p99 by definition; window and divisor follow the variant.
    if (metric != RunComparison::BarMetric::OutputTpsPerGpu && variant.percentile != 99) {
        out.barVariant.percentile = 99;
        auto bars = valuesOf(reader, out.runs, out.barVariant);
        if (!bars)
            return bars.error();
        out.barValues = std::move(*bars);
    }
    return out;
}

} // namespace Throughline::HistoryLoads
