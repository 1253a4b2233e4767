#pragma once
// Every database read of the History page as a plain function of (database path, what to read): each opens
// its own HistoryReader (read-only), returns values and touches no widget — so HistoryService runs them on
// its worker thread and the widgets apply the answer on the GUI thread (or at once, without a service).
// Any thread.

#include "core/storage/historyreader.h"
#include "core/storage/telemetryreader.h"
#include "core/util/result.h"
#include "ui/history/pointderiver.h"
#include "ui/history/runcomparison.h"
#include "ui/history/runtimeline.h"
#include "ui/plots/chart.h"
#include "ui/report/reportdata.h"

#include <QList>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace Throughline::HistoryLoads {

// The runs of a database, newest first; a missing file is an empty list.
Result<std::vector<RunSummary>> runs(const std::string &db);
// One run's stored summary (its row in the list).
Result<RunSummary> summary(const std::string &db, const std::string &uuid);
// A run as the report and the curve read it.
Result<ReportData> report(const std::string &db, const std::string &uuid);

// The curve of a run under a variant: the run's report data and, for any variant other than the stored
// default, the re-derived values of its points (RunDetail::points order) and of its curve.
struct VariantData {
    std::string uuid;
    DeriveVariant variant;
    ReportData report;
    std::vector<DerivedValues> pointValues; // empty for the stored variant
    RunComparison::RunValues curve;         // empty for the stored variant
};
Result<VariantData> variant(const std::string &db, const RunDetail &run, const DeriveVariant &variant);

// One metric's samples of a point, sorted (empty when the point has no request rows or the read fails).
struct Samples {
    std::int64_t pointId = -1;
    std::string metric;
    std::vector<double> sorted;
};
Samples samples(const std::string &db, std::int64_t pointId, const std::string &metric);

// The "Over time" data of one scenario: the stored request rows bucketed, each load point's first send,
// the scenario's server telemetry.
struct TimelineData {
    std::string uuid;
    int scenarioIndex = -1;
    RunTimeline::Series timeline;
    QList<ChartReferenceLine> markers;
    std::vector<StoredTelemetrySeries> telemetry;
    bool databaseHasTelemetry = false;
};
Result<TimelineData> timeline(const std::string &db, const RunDetail &run, int scenarioIndex);

// One point's per-request server-timing breakdowns (seq order) with what the request rows say of each
// request: its e2e (t_send → t_end, ms; kNoValue without a row), warm-up and error flags.
struct PointBreakdowns {
    std::int64_t pointId = -1;
    struct Request {
        RequestBreakdown breakdown;
        double e2eMs = kNoValue;
        bool warmup = false, failed = false;
    };
    std::vector<Request> requests;
};
Result<PointBreakdowns> breakdowns(const std::string &db, std::int64_t pointId);

// Everything the run-detail tab shows on selection, read in one go so it is applied at once: the run, its
// curve under `variant`, the first point's `metric` samples and the first scenario's timeline. A part that
// cannot be read carries its error; only a run that cannot be read at all fails.
struct RunView {
    RunDetail detail;
    std::optional<VariantData> curve;
    std::string curveError;
    Samples firstSamples;
    std::optional<TimelineData> firstTimeline;
    std::string timelineError;
};
Result<RunView> runView(const std::string &db, const std::string &uuid, const DeriveVariant &variant,
                        const std::string &metric);

// The compare tab: 2–8 runs (baseline first) with their values under `variant` and, for a latency bar metric
// under another percentile than 99, the p99 values the bars use (else barValues is empty).
struct ComparisonData {
    QStringList uuids;
    std::vector<ReportData> runs;
    std::vector<RunComparison::RunValues> values, barValues;
    DeriveVariant variant, barVariant;
};
Result<ComparisonData> comparison(const std::string &db, const QStringList &uuids,
                                  const DeriveVariant &variant, RunComparison::BarMetric metric);

} // namespace Throughline::HistoryLoads
