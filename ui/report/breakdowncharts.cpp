#include "ui/report/breakdowncharts.h"

#include "ui/models/loadlabel.h"
#include "ui/plots/breakdownparts.h"

#include <algorithm>
#include <cmath>

namespace Throughline {

bool BreakdownCharts::hasTiming(const ScenarioResult &s)
{
    for (const PointResult &p : s.points)
        if (!p.serverTiming.empty())
            return true;
    return false;
}

std::vector<BreakdownPart> BreakdownCharts::partsOf(const ScenarioResult &s)
{
    std::vector<BreakdownPart> parts;
    for (int i = 0; i < kBreakdownParts; ++i) {
        const auto part = BreakdownPart(i);
        for (const PointResult &p : s.points)
            if (!p.serverTiming.empty() && p.serverTiming[part].reported()) {
                parts.push_back(part);
                break;
            }
    }
    return parts;
}

Chart BreakdownCharts::stacked(const ScenarioResult &s, Span span)
{
    Chart c;
    c.title = span == Span::WholeRequest ? tr("Each request, by part") : tr("To the first token, by part");
    c.xLabel = tr("load point");
    c.yLabel = tr("mean per request, ms");
    for (const PointResult &p : s.points)
        c.xCategories << loadLabel(p.load);
    std::vector<BreakdownPart> parts = partsOf(s);
    if (span == Span::ToFirstToken)
        std::erase_if(parts, [](BreakdownPart p) { return int(p) > int(BreakdownPart::NetworkDown); });
    std::vector<double> stack(s.points.size(), 0.0);
    QList<ChartSeries> bottomUp;
    for (BreakdownPart part : parts) {
        ChartSeries series;
        series.name = BreakdownParts::name(part);
        series.bars = true;
        series.barWidth = 0.6;
        series.line = false;
        series.colorIndex = BreakdownParts::colorIndex(part);
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const ServerTimingSummary &t = s.points[i].serverTiming;
            if (t.empty())
                continue;
            if (t[part].reported())
                stack[i] += t[part].mean;
            series.points.append(ChartPoint(double(i), stack[i]));
        }
        bottomUp.append(series);
    }
    for (auto it = bottomUp.rbegin(); it != bottomUp.rend(); ++it)
        c.series.append(*it); // tallest first: each later, shorter bar leaves the band above it visible
    return c;
}

} // namespace Throughline
