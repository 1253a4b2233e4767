// The report's "Capacity and cost" section (docs/capacity.md): the inputs, the ranked deployments with the
// stored point behind every number, the binding constraint, prices and power with their kind, provider,
// date and source, $ per 1M output tokens against SLO tightness, and the price break-even. Texts are
// CapacityTexts' (shared with the Plan page), laid out through ReportDoc like every other section.
#include "ui/report/reportcomposer.h"

#include "core/capacity/sensitivity.h"
#include "ui/report/capacitynotes.h"
#include "ui/report/capacityreport.h"

#include <set>

namespace Throughline {

using namespace Throughline::Capacity;
using Cell = ReportDoc::Cell;
using Row = ReportDoc::Row;

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

void ReportComposer::capacitySection()
{
    const CapacityReport &c = *m_data.capacity;
    const Plan &plan = c.plan;
    m_doc.section(tr("Capacity and cost"));
    m_doc.paragraph(CapacityTexts::basis(plan.options));
    if (!plan.anyMeets())
        m_doc.paragraph(CapacityNotes::translate(plan.noneMeetsMessage()), ReportDoc::Type::Body,
                        ReportDoc::ink(), true);

    QList<Row> rows;
    int rank = 0;
    auto addRow = [&](int r, const DeploymentPlan &d) {
        rows.append(Row{Cell{r > 0 ? QString::number(r) : tr("not met"), {}, r == 1},
                        Cell{qs(deploymentName(d.deployment)), {}}, Cell{CapacityTexts::point(d), {}},
                        Cell{CapacityTexts::number(d.tpsPerGpu, 1), {}},
                        Cell{d.usersPerGpu > 0 ? CapacityTexts::number(d.usersPerGpu, 1) : tr("n/a"), {}},
                        Cell{CapacityTexts::number(d.replicas), {}}, Cell{CapacityTexts::gpus(d), {}},
                        Cell{CapacityTexts::money(d.usdPer1MOutputTokens), {}},
                        Cell{CapacityTexts::money(d.usdPer1MOutputTokensAtDemand), {}},
                        Cell{CapacityTexts::number(d.kwhPer1MOutputTokens, 3), {}}});
    };
    for (const DeploymentPlan &d : plan.ranked)
        addRow(++rank, d);
    for (const DeploymentPlan &d : plan.failing)
        addRow(0, d);
    m_doc.subsection(tr("Deployments, cheapest per 1M output tokens first"), 80);
    m_doc.table({tr("Rank"), tr("Deployment"), tr("Stored point"), tr("tok/s/GPU"), tr("Users/GPU"),
                 tr("Replicas"), tr("GPUs"), tr("$/1M (point)"), tr("$/1M (demand)"), tr("kWh/1M")},
                rows);
    m_doc.paragraph(
        tr("Replicas = ceil(demand × (1 + headroom) ÷ the point's throughput); GPUs = replicas × "
           "the measured deployment's GPUs (prefill + decode when disaggregated). $ per 1M at the "
           "point = GPUs × price ÷ (tok/s × 3,600) × 10⁶; at the demand it includes rounding and "
           "headroom. Nothing is interpolated between measured points."),
        ReportDoc::Type::Small, ReportDoc::muted());

    QList<Row> why;
    std::set<std::string> sources;
    for (const auto *list : {&plan.ranked, &plan.failing})
        for (const DeploymentPlan &d : *list) {
            why.append(Row{Cell{qs(deploymentName(d.deployment)), {}},
                           Cell{CapacityTexts::origin(d.point), {}}, Cell{CapacityTexts::checks(d), {}},
                           Cell{d.meets ? CapacityNotes::translate(d.binding)
                                        : tr("the tier is not met at the closest point"),
                                {}}});
            sources.insert(d.price.source);
        }
    m_doc.subsection(tr("Tier at the point and the binding constraint"), 80);
    m_doc.table(
        {tr("Deployment"), tr("Origin"), tr("Tier at the point (95 % interval)"), tr("Binding constraint")},
        why);

    QList<Row> basis;
    for (const auto *list : {&plan.ranked, &plan.failing})
        for (const DeploymentPlan &d : *list)
            basis.append(Row{Cell{qs(deploymentName(d.deployment)), {}}, Cell{CapacityTexts::price(d), {}},
                             Cell{CapacityTexts::power(d, plan.options.boardUtilisation), {}}});
    m_doc.subsection(tr("Prices and power"), 80);
    m_doc.table({tr("Deployment"), tr("Price (kind, provider, date)"), tr("Power")}, basis);
    for (const std::string &s : sources)
        m_doc.paragraph(tr("Price source: %1").arg(qs(s)), ReportDoc::Type::Small, ReportDoc::muted());

    m_doc.subsection(tr("Sensitivity"), 240);
    const Chart chart = CapacityTexts::costVsTightness(c.byTightness);
    m_doc.chart(chart, 220);
    QStringList breakEven;
    for (const PriceBreakEven &b : priceBreakEvens(plan))
        breakEven << tr("%1 matches the cheapest at %2/GPU-hour (now %3)")
                         .arg(qs(deploymentName(b.deployment)),
                              CapacityTexts::money(b.breakEvenUsdPerGpuHour),
                              CapacityTexts::money(b.usdPerGpuHour));
    if (!breakEven.isEmpty())
        m_doc.paragraph(tr("Price (%1; $ per 1M output tokens is proportional to the price): %2.")
                            .arg(qs(plan.options.priceKind), breakEven.join(u"; ")));
}

} // namespace Throughline
