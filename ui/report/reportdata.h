#pragma once
// Everything a PDF report shows, gathered once from the history store (by run id) or from a
// results.json file. Plain value: build it on any thread, hand it to ReportWriter.

#include "core/results/resultsjson.h"
#include "core/util/result.h"
#include "ui/report/capacityreport.h"
#include "ui/report/reporttelemetry.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace Throughline {

class HistoryReader;

struct ReportData {
    RunResults run;                                       // scenarios with verdicts and point results
    nlohmann::json provenance = nlohmann::json::object(); // endpoint, server, host facts as stored
    std::string source = "throughline";                   // throughline | vllm | aiperf | …
    std::string status; // completed | cancelled | … ("" from results.json)
    std::string notes;
    std::vector<std::string> tags;
    nlohmann::json metricDefinitions =
        nlohmann::json::array(); // resources/catalog/metric_definitions.json "metrics"
    // Scenarios of a stopped run that were not judged, by scenario id: "stopped", "not_measured" or "not_run"
    // (history verdicts recorded by recordRun; results.json has none).
    std::map<std::string, std::string> unjudged;
    ReportTelemetry telemetry; // server telemetry over time (history only; empty from results.json)
    // A capacity plan to print as "Capacity and cost" (the Plan page's, or report --plan-demand/--plan-tier);
    // none = no such section.
    std::optional<CapacityReport> capacity;

    // The verdict word a report shows for a scenario: its unjudged state, else verdictStatusKey.
    std::string verdictKey(const ScenarioResult &s) const;

    // From the history database (reader already open); uuid must be a full id.
    static Result<ReportData> fromHistory(HistoryReader &reader, const std::string &uuid);
    static Result<ReportData> fromResultsJson(const std::string &path);
    static ReportData fromResults(RunResults run);
};

} // namespace Throughline
