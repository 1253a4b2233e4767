// `throughline-cli plan RUN… --demand tps=N --tier 'ttft_p90<=2000,tps_user>=20'`: GPUs, dollars and energy
// for a demand at an SLO tier, from the measured points of stored runs (core/capacity, docs/capacity.md).
#include "command.h"
#include "planwhatif.h"
#include "storagecli.h"

#include "core/capacity/planner.h"
#include "core/capacity/sensitivity.h"
#include "core/capacity/storedcurves.h"
#include "core/util/exitcodes.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace Throughline::Cli {
namespace {

using namespace Throughline::Capacity;

// --price kind=K[,provider=P]
Status parsePrice(const QString &text, PlanOptions &o)
{
    for (const QString &field : text.split(u',', Qt::SkipEmptyParts)) {
        const qsizetype eq = field.indexOf(u'=');
        const QString key = field.left(eq).trimmed(),
                      value = eq < 0 ? QString() : field.mid(eq + 1).trimmed();
        if (value.isEmpty())
            return makeError(ErrorCode::InvalidInput, "--price field '" + field.toStdString() +
                                                          "': expected key=value (kind=…, provider=…)");
        if (key == u"kind")
            o.priceKind = value.toStdString();
        else if (key == u"provider")
            o.priceProvider = value.toStdString();
        else
            return makeError(ErrorCode::InvalidInput, "--price field '" + field.toStdString() +
                                                          "': unknown key '" + key.toStdString() +
                                                          "' (kind, provider)");
    }
    return Ok{};
}

// --power all_in | all_in_2026_04 | board_tdp[:UTILISATION] | measured_dcgm
Status parsePower(const QString &text, PlanOptions &o)
{
    const QStringList parts = text.split(u':');
    auto kind = parsePowerKind(parts.front().toStdString());
    if (!kind)
        return makeError(ErrorCode::InvalidInput, "--power: " + kind.error().message);
    o.powerKind = kind.value();
    if (parts.size() > 1) {
        bool ok = false;
        o.boardUtilisation = parts[1].toDouble(&ok);
        if (o.powerKind != PowerKind::BoardTdp || parts.size() > 2 || !ok || !(o.boardUtilisation > 0) ||
            o.boardUtilisation > 1)
            return makeError(ErrorCode::InvalidInput, "--power '" + text.toStdString() +
                                                          "': only board_tdp takes a utilisation in (0, 1]");
    }
    return Ok{};
}

std::string money(double usd)
{
    return std::isfinite(usd) ? "$" + groupedNumber(usd, usd < 10 ? 3 : 2) : "n/a";
}

std::string gpusText(const DeploymentPlan &d)
{
    std::string s = groupedNumber(d.gpusNeeded);
    if (d.deployment.disaggregated())
        s += " (" + groupedNumber(d.prefillGpusNeeded) + "P+" + groupedNumber(d.decodeGpusNeeded) + "D)";
    return s;
}

std::string powerText(const DeploymentPlan &d, const PlanOptions &o)
{
    if (d.powerKind == PowerKind::MeasuredDcgm)
        return "measured DCGM energy per token (GPU only)";
    std::string s = powerKindName(d.powerKind) + " " + groupedNumber(d.kwPerGpu, 3) + " kW/GPU";
    if (d.powerKind == PowerKind::BoardTdp)
        s += " (board TDP × " + groupedNumber(o.boardUtilisation, 2) + " utilisation, GPU only)";
    return s;
}

void printOne(std::FILE *h, int rank, const DeploymentPlan &d, const PlanOptions &o)
{
    std::fprintf(h, "\n%s %s\n", rank > 0 ? ("#" + std::to_string(rank)).c_str() : "closest:",
                 deploymentName(d.deployment).c_str());
    std::fprintf(h, "  point        %s, %s (%s tok/s, stored point id %lld)\n", pointName(d.point).c_str(),
                 pointOriginText(d.point).c_str(), groupedNumber(d.point.systemTps).c_str(),
                 static_cast<long long>(d.point.pointId));
    std::string checks;
    for (const auto &c : d.checks)
        checks += (checks.empty() ? "" : ", ") + c.text();
    std::fprintf(h, "  tier         %s\n", checks.empty() ? "-" : checks.c_str());
    std::fprintf(h, "  per GPU      %s tok/s, %s users, %s tokens/GPU-hour\n",
                 groupedNumber(d.tpsPerGpu, 1).c_str(),
                 d.usersPerGpu > 0 ? groupedNumber(d.usersPerGpu, 1).c_str() : "n/a",
                 groupedNumber(d.tokensPerGpuHour).c_str());
    std::fprintf(
        h, "  needed       %s replica%s = %s GPUs (%s GPUs if replicas could be any size: not measured)\n",
        groupedNumber(d.replicas).c_str(), d.replicas == 1 ? "" : "s", gpusText(d).c_str(),
        groupedNumber(d.gpusAtPerGpuRate).c_str());
    std::fprintf(h, "  cost         %s per 1M output tokens at the point, %s at the demand (%s/hour)\n",
                 money(d.usdPer1MOutputTokens).c_str(), money(d.usdPer1MOutputTokensAtDemand).c_str(),
                 money(d.usdPerHour).c_str());
    std::fprintf(h, "  price        %s %s/GPU-hour, %s, %s, seen %s\n", d.deployment.gpu.c_str(),
                 money(d.price.usdPerGpuHour).c_str(), d.price.kind.c_str(), d.price.provider.c_str(),
                 d.price.dateSeen.c_str());
    std::fprintf(h, "  energy       %s kWh per 1M output tokens (%s)\n",
                 groupedNumber(d.kwhPer1MOutputTokens, 3).c_str(), powerText(d, o).c_str());
    if (d.point.origin == PointOrigin::Simulated)
        std::fprintf(h, "  band         %s to %s GPUs, %s to %s per 1M output tokens (tok/s ×%s–×%s)\n",
                     groupedNumber(d.gpusNeededBandHigh).c_str(), groupedNumber(d.gpusNeededBandLow).c_str(),
                     money(d.usdPer1MBandLow).c_str(), money(d.usdPer1MBandHigh).c_str(),
                     groupedNumber(d.point.tpsBandLow, 2).c_str(),
                     groupedNumber(d.point.tpsBandHigh, 2).c_str());
    if (!d.binding.empty())
        std::fprintf(h, "  binding      %s\n", d.binding.c_str());
}

const char *originKey(PointOrigin origin)
{
    switch (origin) {
    case PointOrigin::MeasuredSimulator:
        return "measured_simulator";
    case PointOrigin::Simulated:
        return "simulated";
    case PointOrigin::Measured:
        break;
    }
    return "measured";
}

nlohmann::json toJson(const DeploymentPlan &d)
{
    const Deployment &dep = d.deployment;
    nlohmann::json checks = nlohmann::json::array();
    for (const auto &c : d.checks) {
        nlohmann::json check{{"limit", c.limit.text()},
                             {"value", c.value ? nlohmann::json(*c.value) : nlohmann::json()},
                             {"ok", c.ok}};
        if (c.lower && c.upper) // JSON has no infinity: an unbounded side is null
            check["interval"] = {
                {"lower", std::isfinite(*c.lower) ? nlohmann::json(*c.lower) : nlohmann::json()},
                {"upper", std::isfinite(*c.upper) ? nlohmann::json(*c.upper) : nlohmann::json()},
                {"level", 0.95},
                {"confidence", c.confidence()}};
        checks.push_back(check);
    }
    nlohmann::json j = {
        {"deployment",
         {{"label", dep.label},
          {"gpu", dep.gpu},
          {"gpus", dep.gpus},
          {"prefill_gpus", dep.prefillGpus},
          {"decode_gpus", dep.decodeGpus},
          {"disaggregated", dep.disaggregated()}}},
        {"meets", d.meets},
        {"point",
         {{"run", d.point.runUuid},
          {"point_id", d.point.pointId},
          {"point_index", d.point.pointIndex},
          {"concurrency", d.point.concurrency},
          {"system_tps", d.point.systemTps},
          {"origin", originKey(d.point.origin)}}},
        {"checks", checks},
        {"demand_tps", d.demandTps},
        {"tps_per_gpu", d.tpsPerGpu},
        {"users_per_gpu", d.usersPerGpu},
        {"replicas", d.replicas},
        {"gpus_needed", d.gpusNeeded},
        {"prefill_gpus_needed", d.prefillGpusNeeded},
        {"decode_gpus_needed", d.decodeGpusNeeded},
        {"gpus_at_per_gpu_rate", d.gpusAtPerGpuRate},
        {"tokens_per_gpu_hour", d.tokensPerGpuHour},
        {"usd_per_1m_output_tokens", d.usdPer1MOutputTokens},
        {"usd_per_1m_output_tokens_at_demand", d.usdPer1MOutputTokensAtDemand},
        {"usd_per_hour", d.usdPerHour},
        {"price",
         {{"kind", d.price.kind},
          {"provider", d.price.provider},
          {"usd_per_gpu_hour", d.price.usdPerGpuHour},
          {"date_seen", d.price.dateSeen},
          {"source", d.price.source}}},
        {"power",
         {{"kind", powerKindName(d.powerKind)}, {"kw_per_gpu", d.kwPerGpu}, {"source", d.powerSource}}},
        {"kwh_per_1m_output_tokens", d.kwhPer1MOutputTokens},
        {"binding", d.binding}};
    if (d.point.origin == PointOrigin::Simulated) // a what-if states its band with every figure
        j["point"]["band"] = {{"tps_low", d.point.tpsBandLow},
                              {"tps_high", d.point.tpsBandHigh},
                              {"source", d.point.bandSource},
                              {"gpus_needed_at_low", d.gpusNeededBandLow},
                              {"gpus_needed_at_high", d.gpusNeededBandHigh},
                              {"usd_per_1m_output_tokens_low", d.usdPer1MBandLow},
                              {"usd_per_1m_output_tokens_high", d.usdPer1MBandHigh}};
    return j;
}

void printSensitivity(std::FILE *h, const Plan &result, const std::vector<TierStep> &steps)
{
    const auto breakEvens = priceBreakEvens(result);
    if (!breakEvens.empty()) {
        std::fprintf(h, "\nsensitivity to price (%s; $ per 1M output tokens is proportional to the price):\n",
                     result.options.priceKind.c_str());
        for (const auto &b : breakEvens)
            std::fprintf(h, "  %s matches #1 at %s/GPU-hour (now %s)\n", deploymentName(b.deployment).c_str(),
                         money(b.breakEvenUsdPerGpuHour).c_str(), money(b.usdPerGpuHour).c_str());
    }
    std::fprintf(h, "\nsensitivity to tier tightness (latency bounds × f, tps_user ÷ f):\n");
    for (const auto &step : steps) {
        if (!step.cheapest) {
            std::fprintf(h, "  × %-4s  %-36s  no deployment meets\n", groupedNumber(step.factor, 2).c_str(),
                         step.tier.text().c_str());
            continue;
        }
        const DeploymentPlan &d = *step.cheapest;
        std::fprintf(h, "  × %-4s  %-36s  %s per 1M, %s GPUs: %s at %s\n",
                     groupedNumber(step.factor, 2).c_str(), step.tier.text().c_str(),
                     money(d.usdPer1MOutputTokens).c_str(), gpusText(d).c_str(),
                     deploymentName(d.deployment).c_str(), pointName(d.point).c_str());
    }
}

nlohmann::json sensitivityJson(const Plan &result, const std::vector<TierStep> &steps)
{
    nlohmann::json price = nlohmann::json::array(), tier = nlohmann::json::array();
    for (const auto &b : priceBreakEvens(result))
        price.push_back({{"deployment", deploymentName(b.deployment)},
                         {"usd_per_gpu_hour", b.usdPerGpuHour},
                         {"break_even_usd_per_gpu_hour", b.breakEvenUsdPerGpuHour}});
    for (const auto &step : steps) {
        nlohmann::json row{{"factor", step.factor},
                           {"tier", step.tier.text()},
                           {"deployments_meeting", step.deploymentsMeeting}};
        if (step.cheapest)
            row["cheapest"] = {{"deployment", deploymentName(step.cheapest->deployment)},
                               {"point_id", step.cheapest->point.pointId},
                               {"usd_per_1m_output_tokens", step.cheapest->usdPer1MOutputTokens},
                               {"gpus_needed", step.cheapest->gpusNeeded}};
        tier.push_back(row);
    }
    return {{"price_break_even", price}, {"tier", tier}};
}

int runPlan(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(parser,
                    u"Plan capacity and cost: GPUs, $ per 1M output tokens and kWh for a demand at an "
                    u"SLO tier, from the measured points of stored runs."_qs,
                    u"RUN…"_qs, u"Run ids (unique prefix of at least 8 hex digits) or .tlrun bundles."_qs);
    parser.addOption({u"demand"_qs,
                      u"tps=N output tokens/s, users=N concurrent users, or rps=N requests/s."_qs,
                      u"DEMAND"_qs});
    parser.addOption({u"tier"_qs,
                      u"SLO tier, e.g. 'ttft_p90<=2000,tps_user>=20' (also tpot_pNN, e2e_pNN, ms)."_qs,
                      u"TIER"_qs});
    parser.addOption({u"price"_qs, u"Price kind and provider: kind=on_demand[,provider=Nebius]."_qs,
                      u"PRICE"_qs, u"kind=on_demand"_qs});
    parser.addOption({u"prices"_qs,
                      u"Your own price table (CSV, the format of resources/prices/gpu_prices.csv)."_qs,
                      u"FILE"_qs});
    parser.addOption({u"power"_qs, u"all_in (default), all_in_2026_04, board_tdp[:UTIL] or measured_dcgm."_qs,
                      u"KIND"_qs, u"all_in"_qs});
    parser.addOption(
        {u"what-if"_qs,
         u"An unmeasured deployment from the simulator, calibrated on the runs' measured points of "
         u"the same model: model=M,gpu=G,gpus=N[,precision=P][,isl=I,osl=O][,concurrency=4;16]. "
         u"Repeatable; labelled simulated with its band."_qs,
         u"SPEC"_qs});
    parser.addOption(
        {u"headroom"_qs, u"Capacity above the demand, percent (default 0)."_qs, u"PCT"_qs, u"0"_qs});
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList runs = parser.positionalArguments();
    const QStringList whatIfs = parser.values(u"what-if"_qs);
    if (runs.isEmpty() && whatIfs.isEmpty())
        return ctx.usageError(u"missing RUN (or --what-if)"_qs);
    if (!parser.isSet(u"demand"_qs))
        return ctx.usageError(u"missing --demand (tps=N, users=N or rps=N)"_qs);
    if (!parser.isSet(u"tier"_qs))
        return ctx.usageError(u"missing --tier (e.g. 'ttft_p90<=2000,tps_user>=20')"_qs);
    PlanOptions o;
    auto demand = parseDemand(parser.value(u"demand"_qs).toStdString());
    if (!demand)
        return ctx.usageError(u"--demand: "_qs + QString::fromStdString(demand.error().message));
    o.demand = demand.value();
    auto tier = parseTier(parser.value(u"tier"_qs).toStdString());
    if (!tier)
        return ctx.usageError(u"--tier: "_qs + QString::fromStdString(tier.error().message));
    o.tier = tier.value();
    bool headroomOk = false;
    o.headroomPct = parser.value(u"headroom"_qs).toDouble(&headroomOk);
    if (!headroomOk || o.headroomPct < 0 || !std::isfinite(o.headroomPct))
        return ctx.usageError(u"--headroom: expected a percentage ≥ 0, got '"_qs +
                              parser.value(u"headroom"_qs) + u"'"_qs);
    if (auto s = parsePrice(parser.value(u"price"_qs), o); !s)
        return ctx.usageError(QString::fromStdString(s.error().message));
    if (auto s = parsePower(parser.value(u"power"_qs), o); !s)
        return ctx.usageError(QString::fromStdString(s.error().message));

    auto prices = parser.isSet(u"prices"_qs) ? PriceTable::fromFiles(parser.value(u"prices"_qs).toStdString())
                                             : PriceTable::builtIn();
    if (!prices)
        return reportError(ctx, prices.error());
    auto power = PowerTable::builtIn();
    if (!power)
        return reportError(ctx, power.error());
    std::vector<DeploymentCurve> curves;
    for (const QString &run : runs) {
        HistoryReader reader;
        auto ref = resolveRun(ctx, run, reader);
        if (!ref)
            return reportError(ctx, ref.error());
        auto some = curvesFromHistory(reader, {ref->uuid});
        if (!some)
            return reportError(ctx, some.error());
        curves.insert(curves.end(), some->begin(), some->end());
    }
    const std::vector<DeploymentCurve> measured = curves;
    for (const QString &spec : whatIfs) {
        auto w = whatIfDeployment(spec, measured);
        if (!w)
            return ctx.usageError(QString::fromStdString(w.error().message));
        curves.push_back(std::move(w.value()));
    }
    auto result = plan(curves, o, prices.value(), power.value());
    if (!result)
        return reportError(ctx, result.error());
    auto steps = tierSensitivity(curves, o, prices.value(), power.value());
    if (!steps)
        return reportError(ctx, steps.error());

    if (ctx.global().json) {
        nlohmann::json j{{"demand", describeDemand(o.demand)},
                         {"tier", o.tier.text()},
                         {"headroom_pct", o.headroomPct},
                         {"price_kind", o.priceKind},
                         {"power_kind", powerKindName(o.powerKind)},
                         {"ranked", nlohmann::json::array()},
                         {"failing", nlohmann::json::array()},
                         {"none_meets", result->noneMeetsMessage()},
                         {"sensitivity", sensitivityJson(result.value(), steps.value())}};
        for (const auto &d : result->ranked)
            j["ranked"].push_back(toJson(d));
        for (const auto &d : result->failing)
            j["failing"].push_back(toJson(d));
        std::fprintf(ctx.machine(), "%s\n", j.dump(2).c_str());
    }
    std::FILE *h = ctx.human();
    std::fprintf(h, "demand %s, headroom %s %%, tier %s\nprices %s (kinds are never mixed), power %s\n",
                 describeDemand(o.demand).c_str(), groupedNumber(o.headroomPct, 1).c_str(),
                 o.tier.text().c_str(), o.priceKind.c_str(), powerKindName(o.powerKind).c_str());
    std::fprintf(h, "only measured points are used; simulator-measured points are labelled%s\n",
                 whatIfs.isEmpty() ? "" : " (what-ifs: simulated, with their band)");
    int rank = 0;
    for (const auto &d : result->ranked)
        printOne(h, ++rank, d, o);
    if (!result->anyMeets()) {
        std::fprintf(h, "\n%s\n", result->noneMeetsMessage().c_str());
        printOne(h, 0, result->failing.front(), o);
    } else if (!result->failing.empty()) {
        std::fprintf(h, "\n%zu deployment%s do not meet the tier:", result->failing.size(),
                     result->failing.size() == 1 ? "" : "s");
        for (const auto &d : result->failing)
            std::fprintf(h, " %s;", deploymentName(d.deployment).c_str());
        std::fprintf(h, "\n");
    }
    printSensitivity(h, result.value(), steps.value());
    return result->anyMeets() ? ExitOk : ExitFailed;
}

} // namespace

THROUGHLINE_CLI_COMMAND("plan", "GPUs, $ per 1M tokens and kWh for a demand at an SLO tier, from stored runs",
                        runPlan);

} // namespace Throughline::Cli
