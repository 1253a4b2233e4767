#pragma once
// What the PDF report says, in reading order (docs/report.md): page 1 is the answer (campaign,
// endpoint and environment in three lines, the verdict matrix model × deployment × phase, the
// deciding numbers at each operating point, the headline frontier per phase with every deployment
// overlaid, the contents); then one section per phase (frontier, TTFT/TPOT/throughput vs load,
// server telemetry vs load where scraped, per scenario the points, checks, stall and replica
// notes); "MLPerf Endpoints curves" for a run in MLPerf mode (mlperfsection.cpp); "Where the time goes" when
// an endpoint published per-request server timing (breakdownsection.cpp); "Capacity and cost" when the report
// carries a plan (capacitysection.cpp); appendices: provenance as readable rows, metric definitions, validity
// notes, per-point details. Blocks with nothing to show are left out. Strings are translated (tr), so the
// report follows the installed translator. Lays out onto a ReportDoc; any thread.

#include "ui/report/reportdata.h"
#include "ui/report/reportdoc.h"

#include <QCoreApplication>

namespace Throughline {

class ReportComposer
{
    Q_DECLARE_TR_FUNCTIONS(Throughline::ReportComposer)
public:
    ReportComposer(const ReportData &data, ReportDoc &doc);
    void compose();

    // The verdict word of a scenario as the report prints it (translated).
    static QString verdictText(const std::string &key);
    // Provenance as (key, value) rows: nested objects flattened to dotted keys, lists summarised,
    // values cut to 160 characters; never a raw JSON text.
    static QList<ReportDoc::Row> provenanceRows(const nlohmann::json &provenance);

private:
    void summary();
    void verdictMatrix();
    void decidingNumbers();
    void phaseSection(const std::string &phase);
    void scenarioBlock(const ScenarioResult &s);
    void telemetryOverTime(const ScenarioResult &s, const ReportTelemetry::Scenario &telemetry);
    void capacitySection();  // capacitysection.cpp; only when the data carries a plan
    void mlperfSection();    // mlperfsection.cpp; only for a run measured in MLPerf Endpoints mode
    void breakdownSection(); // breakdownsection.cpp; only when an endpoint published server timing
    static QString timingJoinSentence(const ScenarioResult &s);
    void provenanceAppendix();
    void definitionsAppendix();
    void validityAppendix();
    void detailsAppendix();
    QStringList phases() const;

    const ReportData &m_data;
    ReportDoc &m_doc;
};

} // namespace Throughline
