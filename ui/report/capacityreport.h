#pragma once
// A capacity plan as the app shows it and the report prints it: the planner's answer for the inputs, the
// cost of every deployment against SLO tightness, and the texts both use (money, GPU counts, power basis).
// The chart of $ per 1M output tokens vs tightness is built here once, for the Plan page and the report's
// "Capacity and cost" section alike. Plain values and functions; any thread.

#include "core/capacity/planner.h"
#include "core/capacity/sensitivity.h"
#include "ui/plots/chart.h"

#include <QCoreApplication>

#include <vector>

namespace Throughline {

struct CapacityReport {
    Capacity::Plan plan;
    std::vector<Capacity::DeploymentCostCurve> byTightness; // one per deployment, factors 0.5 … 2
    std::vector<double> factors;

    static std::vector<double> defaultFactors() { return {0.5, 0.75, 1.0, 1.5, 2.0}; }
    // The plan and its tightness curves; the planner's error (a missing price names GPU and kind) as is.
    static Result<CapacityReport> compute(const std::vector<Capacity::DeploymentCurve> &curves,
                                          const Capacity::PlanOptions &options,
                                          const Capacity::PriceTable &prices,
                                          const Capacity::PowerTable &power);
};

class CapacityTexts
{
    Q_DECLARE_TR_FUNCTIONS(Throughline::CapacityTexts)
public:
    static QString money(double usd);                         // "$0.365", "$82.60", "n/a"
    static QString number(double value, int decimals = 0);    // "441,740" (the CLI's grouping)
    static QString gpus(const Capacity::DeploymentPlan &d);   // "128 (96P+32D)"
    static QString point(const Capacity::DeploymentPlan &d);  // "concurrency 64 of run 1a2b3c4d · point 17"
    static QString origin(const Capacity::OperatingPoint &p); // "measured" / "measured on the simulator"
    static QString
    price(const Capacity::DeploymentPlan &d); // "H100 $2.950/GPU-h · on_demand · Nebius · 2026-…"
    static QString power(const Capacity::DeploymentPlan &d, double utilisation);
    static QString checks(const Capacity::DeploymentPlan &d); // the tier's limits at the point
    // "demand tps=500000 (+10 % headroom), tier …, prices on_demand (kinds never mixed), power all_in"
    static QString basis(const Capacity::PlanOptions &o);
    // $ per 1M output tokens at the point vs the tier factor (latency bounds × f, tps_user ÷ f), one
    // series per deployment; a factor where it does not meet the tier has no marker.
    static Chart costVsTightness(const std::vector<Capacity::DeploymentCostCurve> &curves);
};

} // namespace Throughline
