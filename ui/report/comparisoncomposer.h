#pragma once
// What the comparison report says (`report --compare BASE CAND…`, docs/report.md): the runs
// compared, the changes beyond noise (the noise-aware comparison of `throughline-cli compare`,
// core/results/runcomparison.h: per metric and shared load point regressed / improved / within noise / not
// enough data with the change's interval, Holm's rule over the candidate's comparisons), the plain deltas
// per metric at each scenario's operating point (candidate − baseline, and in %), verdict changes, the
// frontier per phase with every run overlaid (baseline solid, candidates dashed, error bars from the
// intervals), for runs measured in MLPerf Endpoints mode each candidate's official frontier against the
// baseline's (area and throughput at fixed interactivity), and what changed in the recorded environment.
// Scenarios are matched by id. Lays out onto a ReportDoc; any thread.

#include "core/stats/noisecomparison.h"
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

    // A metric of the plain deltas at the operating points: its value in a scenario.
    struct Metric {
        QString label;
        int decimals = 1;
        std::optional<double> (*value)(const PointResult &) = nullptr;
    };
    static QList<Metric> metrics();
    // "regressed", "improved", "within noise", "not enough data" (translated); the Compare tab says the same.
    static QString outcomeText(ComparisonOutcome o);
    // Beyond this many comparisons per candidate the table lists only the changes and those without enough
    // data; the rest are counted.
    static constexpr int kMaxListedComparisons = 48;

private:
    void summary();
    void beyondNoise();
    void deltas();
    void verdictChanges();
    void frontiers();
    void mlperfFrontiers(); // comparisonmlperf.cpp; only for runs measured in MLPerf Endpoints mode
    void environment();

    const std::vector<ReportData> &m_runs;
    ReportDoc &m_doc;
};

} // namespace Throughline
