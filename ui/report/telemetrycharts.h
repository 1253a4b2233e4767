#pragma once
// The report's charts of server telemetry over time (chart model, ui/plots/chart.h), one scenario at a
// time: KV-cache use, running and waiting requests, GPU power summed per scrape target. Each load point's
// measurement window is a shaded region labelled with its load, so a reader sees which load produced
// which queue. Time runs from the scenario's first sample or window. Plain functions, any thread.

#include "core/results/resultsjson.h"
#include "ui/plots/chart.h"
#include "ui/report/reporttelemetry.h"

#include <QCoreApplication>
#include <QList>

namespace Throughline {

class TelemetryCharts
{
    Q_DECLARE_TR_FUNCTIONS(Throughline::TelemetryCharts)
public:
    // The charts that have data (none: an empty list), in the order KV cache, requests, power.
    static QList<Chart> overTime(const ScenarioResult &scenario, const ReportTelemetry::Scenario &telemetry);
};

} // namespace Throughline
