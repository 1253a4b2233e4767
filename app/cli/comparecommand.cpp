// `throughline-cli compare BASE CAND [--metrics …] [--fail-on regression]`: the noise-aware comparison of two
// runs (core/results/runcomparison.h), per metric and shared load point, with Holm's rule over all of them.
#include "command.h"
#include "comparetable.h"
#include "storagecli.h"

#include "core/results/runcomparison.h"
#include "core/util/exitcodes.h"

#include <nlohmann/json.hpp>

namespace Throughline::Cli {
namespace {

int runCompare(Context &ctx)
{
    QCommandLineParser parser;
    parser.addOption({u"metrics"_qs,
                      u"Comma-separated metrics to compare (default output_tps,ttft_ms.p90,tpot_ms.p50); a "
                      u"distribution takes its mean or a percentile: e2e_ms.p99."_qs,
                      u"LIST"_qs});
    parser.addOption(
        {u"fail-on"_qs, u"Exit 1 when the comparison finds a regression (only: regression)."_qs, u"WHAT"_qs});
    parser.addOption({u"level"_qs, u"Confidence level: family-wise 1 − level (default 0.95)."_qs, u"L"_qs});
    parser.addOption({u"noise-floor"_qs,
                      u"Run-to-run noise a run's own intervals cannot see, % per run (default 1)."_qs,
                      u"PCT"_qs});
    ctx.setupParser(parser, u"Compare a candidate run against a baseline, beyond noise."_qs, u"BASE CAND"_qs,
                    u"Each a run id (unique prefix), a .tlrun bundle or a results.json file."_qs);
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 2)
        return ctx.usageError(u"expected BASE and CAND"_qs);
    const QString failOn = parser.value(u"fail-on"_qs);
    if (!failOn.isEmpty() && failOn != u"regression")
        return ctx.usageError(u"--fail-on: expected \"regression\", got \""_qs + failOn + u'"');
    double level = kDefaultConfidenceLevel;
    if (parser.isSet(u"level"_qs)) {
        bool ok = false;
        level = parser.value(u"level"_qs).toDouble(&ok);
        if (!ok || !(level >= 0.5 && level <= 0.999))
            return ctx.usageError(u"--level: expected a number from 0.5 to 0.999"_qs);
    }
    double floorPct = kDefaultNoiseFloor * 100;
    if (parser.isSet(u"noise-floor"_qs)) {
        bool ok = false;
        floorPct = parser.value(u"noise-floor"_qs).toDouble(&ok);
        if (!ok || !(floorPct >= 0 && floorPct <= 50))
            return ctx.usageError(u"--noise-floor: expected a percentage from 0 to 50"_qs);
    }
    auto metrics = parser.isSet(u"metrics"_qs)
                       ? parseComparisonMetrics(parser.value(u"metrics"_qs).toStdString())
                       : Result<std::vector<MetricStat>>(defaultComparisonMetrics());
    if (!metrics)
        return reportError(ctx, metrics.error());
    auto base = loadRunResults(ctx, pos[0]);
    if (!base)
        return reportError(ctx, base.error());
    auto cand = loadRunResults(ctx, pos[1]);
    if (!cand)
        return reportError(ctx, cand.error());

    const NoiseAwareComparison c = compareRunResults(*base, *cand, *metrics, level, floorPct / 100);
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "%s\n", runComparisonToJson(c).dump(2).c_str());
    printComparison(ctx.human(), c, pos[0], pos[1]);
    if (c.sharedPoints == 0)
        std::fprintf(stderr, "throughline-cli compare: the runs share no scenario and load point\n");
    return failOn == u"regression" && c.overall == ComparisonOutcome::Regressed ? ExitFailed : ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("compare", "compare two runs beyond noise: regressed, improved or within noise",
                        runCompare);

} // namespace Throughline::Cli
