#include "runbaseline.h"

#include "comparetable.h"
#include "storagecli.h"

#include "core/results/runcomparison.h"
#include "core/util/exitcodes.h"

namespace Throughline::Cli {

namespace {
// The newest run of the same campaign before this one, "" when the history holds none.
std::string newestEarlierRun(const Context &ctx, const RunResults &run)
{
    HistoryReader reader;
    if (!reader.open(historyPath(ctx)))
        return {};
    auto runs = reader.listRuns();
    if (!runs)
        return {};
    for (const RunSummary &s : *runs)
        if (s.uuid != run.runId && s.campaignName == run.campaignName && s.status == "completed")
            return s.uuid;
    return {};
}
} // namespace

int gateOnBaseline(const Context &ctx, const QString &spec, const RunResults &run, const Campaign &campaign,
                   std::FILE *out)
{
    QString baseline = spec;
    if (spec == u"auto") {
        baseline = QString::fromStdString(campaign.targets.baselineRun);
        if (baseline.isEmpty())
            baseline = QString::fromStdString(newestEarlierRun(ctx, run));
        if (baseline.isEmpty()) {
            std::fprintf(out,
                         "\nbaseline: none (no targets.baseline_run and no earlier run of \"%s\" in the "
                         "history); nothing to compare\n",
                         run.campaignName.c_str());
            return ExitOk;
        }
    }
    auto base = loadRunResults(ctx, baseline);
    if (!base)
        return reportError(ctx, base.error());
    const NoiseAwareComparison c =
        compareRunResults(*base, run, defaultComparisonMetrics(), kDefaultConfidenceLevel);
    std::fprintf(out, "\ncompared with the baseline:\n");
    printComparison(out, c, baseline, QString::fromStdString(run.runId));
    return c.overall == ComparisonOutcome::Regressed ? ExitFailed : ExitOk;
}

} // namespace Throughline::Cli
