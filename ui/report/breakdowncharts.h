#pragma once
// Where the time goes, as the report and the History page draw it: one stacked bar per load point of a
// scenario, each part's mean over the point's measured requests (means add up, percentiles do not), from the
// points' server-timing summaries (results "server_timing"). Plain functions, any thread.

#include "core/results/resultsjson.h"
#include "ui/plots/chart.h"

#include <QCoreApplication>

#include <vector>

namespace Throughline {

class BreakdownCharts
{
    Q_DECLARE_TR_FUNCTIONS(Throughline::BreakdownCharts)
public:
    // The parts any point of the scenario has a value for, in breakdown order.
    static std::vector<BreakdownPart> partsOf(const ScenarioResult &scenario);
    // True when at least one point carries server timing.
    static bool hasTiming(const ScenarioResult &scenario);
    // Whole request: every part. To the first token: the parts before decode (client queue … network to
    // client), which decode would dwarf, i.e. the split of the time to first token.
    enum class Span { WholeRequest, ToFirstToken };
    // Categories = the points' load labels; one bar series per part, heights cumulative (the chart model has
    // no stacking: each series is the stack up to and including its part, drawn tallest first, so every
    // part shows as its own band). Points without timing have no bar.
    static Chart stacked(const ScenarioResult &scenario, Span span);
};

} // namespace Throughline
