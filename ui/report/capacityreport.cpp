#include "ui/report/capacityreport.h"

#include "ui/report/capacitynotes.h"

#include <cmath>

namespace Throughline {

using namespace Throughline::Capacity;

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

Result<CapacityReport> CapacityReport::compute(const std::vector<DeploymentCurve> &curves,
                                               const PlanOptions &options, const PriceTable &prices,
                                               const PowerTable &power)
{
    CapacityReport out;
    auto p = Capacity::plan(curves, options, prices, power);
    if (!p)
        return p.error();
    out.plan = std::move(p.value());
    out.factors = defaultFactors();
    auto byTightness = costByTightness(curves, options, prices, power, out.factors);
    if (!byTightness)
        return byTightness.error();
    out.byTightness = std::move(byTightness.value());
    return out;
}

QString CapacityTexts::money(double usd)
{
    return std::isfinite(usd) ? u"$"_qs + qs(groupedNumber(usd, usd < 10 ? 3 : 2)) : tr("n/a");
}

QString CapacityTexts::number(double value, int decimals)
{
    return std::isfinite(value) ? qs(groupedNumber(value, decimals)) : tr("n/a");
}

QString CapacityTexts::gpus(const DeploymentPlan &d)
{
    QString s = number(d.gpusNeeded);
    if (d.deployment.disaggregated())
        s += tr(" (%1 prefill + %2 decode)").arg(number(d.prefillGpusNeeded), number(d.decodeGpusNeeded));
    return s;
}

QString CapacityTexts::point(const DeploymentPlan &d)
{
    const OperatingPoint &p = d.point;
    const QString run = qs(p.runUuid.substr(0, 8));
    QString s =
        p.concurrency > 0 ? tr("concurrency %1").arg(p.concurrency) : tr("point %1").arg(p.pointIndex);
    if (!run.isEmpty())
        s += tr(" of run %1").arg(run);
    if (p.pointId > 0)
        s += tr(", stored point %1").arg(p.pointId);
    return s;
}

QString CapacityTexts::origin(const OperatingPoint &p)
{
    switch (p.origin) {
    case PointOrigin::MeasuredSimulator:
        return tr("measured on the built-in simulator");
    case PointOrigin::Simulated:
        return tr("simulated (what-if, not measured): tok/s ×%1–×%2, %3")
            .arg(number(p.tpsBandLow, 2), number(p.tpsBandHigh, 2), CapacityNotes::translate(p.bandSource));
    case PointOrigin::Measured:
        break;
    }
    return tr("measured");
}

QString CapacityTexts::price(const DeploymentPlan &d)
{
    return tr("%1 %2/GPU-hour · %3 · %4 · seen %5")
        .arg(qs(d.deployment.gpu), money(d.price.usdPerGpuHour), qs(d.price.kind), qs(d.price.provider),
             qs(d.price.dateSeen));
}

QString CapacityTexts::power(const DeploymentPlan &d, double utilisation)
{
    switch (d.powerKind) {
    case PowerKind::MeasuredDcgm:
        return tr("measured DCGM energy per token (GPU only)");
    case PowerKind::BoardTdp:
        return tr("board TDP × %1 utilisation: %2 kW/GPU (GPU only)")
            .arg(number(utilisation, 2), number(d.kwPerGpu, 3));
    case PowerKind::AllIn:
    case PowerKind::AllIn2026_04:
        break;
    }
    return tr("%1: %2 kW/GPU all-in (GPU with its share of host and network)")
        .arg(qs(powerKindName(d.powerKind)), number(d.kwPerGpu, 3));
}

QString CapacityTexts::checks(const DeploymentPlan &d)
{
    QStringList parts;
    for (const LimitCheck &c : d.checks)
        parts << CapacityNotes::translate(c.text());
    return parts.join(u"; ");
}

QString CapacityTexts::basis(const PlanOptions &o)
{
    return tr("Demand %1 with %2 % headroom; tier %3; prices %4 (one kind per answer, never mixed); "
              "power %5. Only measured points are used; points measured on the built-in simulator say "
              "so.")
        .arg(CapacityNotes::translate(describeDemand(o.demand)), number(o.headroomPct, 1), qs(o.tier.text()),
             qs(o.priceKind), qs(powerKindName(o.powerKind)));
}

Chart CapacityTexts::costVsTightness(const std::vector<DeploymentCostCurve> &curves)
{
    Chart chart;
    chart.title = tr("$ per 1M output tokens vs SLO tightness");
    chart.xLabel = tr("tier factor f (latency bounds × f, tps_user ÷ f; below 1 is tighter)");
    chart.yLabel = tr("$ per 1M output tokens (at the point)");
    chart.xFromZero = false;
    for (const DeploymentCostCurve &c : curves) {
        ChartSeries s;
        s.name = qs(deploymentName(c.deployment));
        for (const CostStep &step : c.steps)
            if (step.plan)
                s.points.append(ChartPoint(step.factor, step.plan->usdPer1MOutputTokens));
        chart.series.append(s);
    }
    chart.references.append({true, 1.0, tr("the tier as asked")});
    return chart;
}

} // namespace Throughline
