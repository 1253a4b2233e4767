#pragma once
// What the comparison report says (`report --compare BASE CAND…`, docs/report.md): the runs
// compared, the deltas per metric at each scenario's operating point (candidate − baseline, and in
// %, coloured better/worse by the metric's direction), verdict changes, the frontier per phase with
// every run overlaid (baseline solid, candidates dashed), and what changed in the recorded
// environment between the runs. Scenarios are matched by id. Lays out onto a ReportDoc; any thread.

#include "ui/report/reportdata.h"
#include "ui/report/reportdoc.h"

#include <QCoreApplication>

#include <vector>

namespace Throughline {

class ComparisonComposer
{
    Q_DECLARE_TR_FUNCTIONS(Throughline::ComparisonComposer)
public:
    // runs[0] is the baseline; at least two runs.
    ComparisonComposer(const std::vector<ReportData> &runs, ReportDoc &doc);
    void compose();

    // A metric compared at the operating points: its value in a scenario, and whether higher is better.
    struct Metric {
        QString label;
        bool higherIsBetter = true;
        int decimals = 1;
        std::optional<double> (*value)(const PointResult &) = nullptr;
    };
    static QList<Metric> metrics();

private:
    void summary();
    void deltas();
    void verdictChanges();
    void frontiers();
    void environment();

    const std::vector<ReportData> &m_runs;
    ReportDoc &m_doc;
};

} // namespace Throughline
