// `throughline-cli cluster CAMPAIGN --scheduler slurm|kubernetes --shards N --point-slot S --out DIR …`:
// writes the Slurm array + submit script, or the Kubernetes Indexed Job + merge Job + submit script, for one
// campaign (core/cluster/clusterjobs.h), and prints the plan every shard follows.
#include "campaignfile.h"
#include "command.h"
#include "storagecli.h"

#include "core/campaign/matrixexpander.h"
#include "core/cluster/clusterjobs.h"
#include "core/cluster/clusterplan.h"
#include "core/util/exitcodes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdio>

namespace Throughline::Cli {
namespace {

void addOptions(QCommandLineParser &parser)
{
    parser.addOption({u"scheduler"_qs, u"slurm or kubernetes."_qs, u"NAME"_qs});
    parser.addOption({u"shards"_qs, u"Number of client machines N (2…4096)."_qs, u"N"_qs});
    parser.addOption({u"point-slot"_qs, u"Seconds per load point (see run --plan-only)."_qs, u"S"_qs});
    parser.addOption({u"start-at"_qs,
                      u"Common start (ISO 8601 UTC); default: chosen by the submit script, --lead-minutes "
                      u"ahead."_qs,
                      u"TIME"_qs});
    parser.addOption(
        {u"lead-minutes"_qs, u"Minutes between submission and start (default 5)."_qs, u"M"_qs, u"5"_qs});
    parser.addOption({u"endpoint"_qs, u"Server under test (default: the campaign's)."_qs, u"URL"_qs});
    parser.addOption({u"results"_qs, u"Slurm: results folder every node sees."_qs, u"DIR"_qs});
    parser.addOption({u"bin-dir"_qs, u"Slurm: folder holding throughline-cli on the nodes."_qs, u"DIR"_qs});
    parser.addOption(
        {u"sbatch-options"_qs, u"Slurm: extra sbatch options (--partition=… --account=…)."_qs, u"OPTS"_qs});
    parser.addOption({u"image"_qs, u"Kubernetes: container image with throughline-cli."_qs, u"IMAGE"_qs});
    parser.addOption({u"run"_qs, u"Kubernetes: run name, the result folder on the claim."_qs, u"NAME"_qs});
    parser.addOption({u"out"_qs, u"Folder to write the files into."_qs, u"DIR"_qs});
}

int writeFiles(const QString &dir, const std::vector<ClusterFile> &files)
{
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "cluster: cannot create %s\n", qPrintable(dir));
        return ExitRuntime;
    }
    for (const ClusterFile &f : files) {
        QFile out(dir + u'/' + QString::fromStdString(f.name));
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            out.write(QByteArray::fromStdString(f.text)) != static_cast<qint64>(f.text.size())) {
            std::fprintf(stderr, "cluster: cannot write %s\n", qPrintable(out.fileName()));
            return ExitRuntime;
        }
        if (f.executable)
            out.setPermissions(out.permissions() | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther);
    }
    return ExitOk;
}

int runCluster(Context &ctx)
{
    QCommandLineParser parser;
    addOptions(parser);
    ctx.setupParser(parser,
                    u"Write the Slurm or Kubernetes files that run a campaign on N client machines."_qs,
                    u"CAMPAIGN"_qs, u"Campaign JSON file."_qs);
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing CAMPAIGN"_qs : u"expected one CAMPAIGN"_qs);
    for (const char *required : {"scheduler", "shards", "point-slot", "out"})
        if (!parser.isSet(QLatin1String(required)))
            return ctx.usageError(u"missing --"_qs + QLatin1String(required));
    ClusterJobOptions o;
    const QString scheduler = parser.value(u"scheduler"_qs);
    if (scheduler != u"slurm"_qs && scheduler != u"kubernetes"_qs)
        return ctx.usageError(u"--scheduler must be slurm or kubernetes, got '"_qs + scheduler + u"'"_qs);
    o.scheduler = scheduler == u"slurm"_qs ? ClusterScheduler::Slurm : ClusterScheduler::Kubernetes;
    bool ok = false;
    o.shards = parser.value(u"shards"_qs).toInt(&ok);
    if (!ok)
        return ctx.usageError(u"--shards: not a number: "_qs + parser.value(u"shards"_qs));
    o.pointSlotS = parser.value(u"point-slot"_qs).toDouble(&ok);
    if (!ok)
        return ctx.usageError(u"--point-slot: not a number: "_qs + parser.value(u"point-slot"_qs));
    o.leadMinutes = parser.value(u"lead-minutes"_qs).toInt(&ok);
    if (!ok)
        return ctx.usageError(u"--lead-minutes: not a number: "_qs + parser.value(u"lead-minutes"_qs));
    o.startAt = parser.value(u"start-at"_qs).toStdString();
    o.campaignPath = QFileInfo(pos.front()).absoluteFilePath().toStdString();
    o.endpoint = parser.value(u"endpoint"_qs).toStdString();
    o.results = parser.value(u"results"_qs).toStdString();
    o.binDir = parser.value(u"bin-dir"_qs).toStdString();
    o.sbatchOptions = parser.value(u"sbatch-options"_qs).toStdString();
    o.image = parser.value(u"image"_qs).toStdString();
    o.runName = parser.value(u"run"_qs).toStdString();

    auto loaded = loadCampaignFile(ctx, pos.front());
    if (!loaded)
        return ExitBadInput;
    if (printProblems(ctx, *loaded) > 0 || !loaded->outcome.campaign)
        return ExitBadInput;
    auto scenarios = MatrixExpander().expand(*loaded->outcome.campaign);
    if (!scenarios)
        return reportError(ctx, scenarios.error());
    auto plan = planClusterRun(*scenarios, o.shards);
    if (!plan)
        return reportError(ctx, plan.error());
    auto files = ClusterJobs::generate(o);
    if (!files)
        return reportError(ctx, files.error());
    const QString out = parser.value(u"out"_qs);
    if (const int rc = writeFiles(out, *files); rc != ExitOk)
        return rc;

    std::FILE *h = ctx.human();
    std::fprintf(h, "%d shards, %d load points, one every %g s (%.1f min from the start):\n", o.shards,
                 plan->slotCount(), o.pointSlotS, plan->slotCount() * o.pointSlotS / 60.0);
    for (const ClusterPlanRow &r : plan->rows)
        std::fprintf(h, "  slot %-3d %-48s #%d %-10s per shard: %s\n", r.slot, r.scenario.c_str(), r.point,
                     r.load.c_str(), r.perShard.c_str());
    if (o.endpoint.empty() && !plan->simulatedScenarios.empty())
        std::fprintf(
            stderr,
            "cluster: warning: %zu scenario(s) use the built-in simulator: every shard would start its own; "
            "pass --endpoint URL of one server (e.g. a throughline-sim) for a real split\n",
            plan->simulatedScenarios.size());
    for (const ClusterFile &f : *files)
        std::fprintf(h, "wrote %s/%s\n", qPrintable(out), f.name.c_str());
    const std::string submit = ClusterJobs::submitCommand(o, QFileInfo(out).absoluteFilePath().toStdString());
    std::fprintf(h, "submit: %s\n", submit.c_str());
    if (ctx.global().json) {
        nlohmann::json rows = nlohmann::json::array();
        for (const ClusterPlanRow &r : plan->rows)
            rows.push_back({{"slot", r.slot},
                            {"scenario", r.scenario},
                            {"point", r.point},
                            {"load", r.load},
                            {"per_shard", r.perShard}});
        nlohmann::json names = nlohmann::json::array();
        for (const ClusterFile &f : *files)
            names.push_back(f.name);
        std::fprintf(
            ctx.machine(), "%s\n",
            nlohmann::json{{"shards", o.shards}, {"plan", rows}, {"files", names}, {"submit", submit}}
                .dump(2)
                .c_str());
    }
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("cluster", "write the Slurm or Kubernetes files that run a campaign on N machines",
                        runCluster);

} // namespace Throughline::Cli
