#pragma once
// `throughline-cli run --mlperf [--mlperf-preset ID|FILE]`: the run's curve and closed-loop scenarios
// measured as MLPerf Endpoints campaigns with the rules checked live (core/run/mlperfmode.h): the plan is
// checked before the first request (a plan that cannot comply is not run: exit 1, rule ids printed), one line
// per finished point, a scenario that can no longer comply stops there with the rule ids (unless
// --mlperf-continue), the report is stored with the run (provenance "mlperf") and written to
// DIR/mlperf/compliance.json with --out. Options: --mlperf-preset (default mlperf-endpoints-1.0),
// --mlperf-c-max N, --mlperf-points N, --mlperf-offline dedicated|elected|none, --mlperf-dataset NAME |
// --mlperf-dataset-size N, --mlperf-continue.

#include "command.h"

#include "core/run/mlperfmode.h"

#include <QCommandLineParser>

#include <memory>
#include <vector>

namespace Throughline::Cli {

void addMlperfRunOptions(QCommandLineParser &parser);

// Reads the options and plans `scenarios` (changed in place). `mode` stays null without --mlperf. Returns
// -1 when the run may go on, else the exit code (message printed): 2 for bad options or a plan the rules'
// planner refuses (naming the rule), 1 for a plan whose checks already fail (unless --mlperf-continue).
int prepareMlperfRun(const Context &ctx, const QCommandLineParser &parser, std::vector<Scenario> &scenarios,
                     std::shared_ptr<MlperfMode> &mode);

// One line per scenario: overall state, failed and blocked rules, why it stopped.
void printMlperfSummary(std::FILE *h, const MlperfMode &mode);

// DIR/mlperf/compliance.json (MlperfMode::toJson). False (message printed) when it cannot be written.
bool writeMlperfCompliance(const QString &outDir, const MlperfMode &mode);

} // namespace Throughline::Cli
