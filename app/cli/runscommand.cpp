// `throughline-cli runs [--filter EXPR] [--limit N]`: stored runs, newest first.
#include "command.h"
#include "storagecli.h"

#include "core/util/exitcodes.h"

#include <nlohmann/json.hpp>

namespace Throughline::Cli {
namespace {

std::string join(const std::vector<std::string> &v)
{
    std::string s;
    for (const auto &x : v)
        s += (s.empty() ? "" : ",") + x;
    return s;
}

int runRuns(Context &ctx)
{
    QCommandLineParser parser;
    parser.addOption(
        {u"filter"_qs,
         u"key=glob,… over model, backend, gpu, gpus, phase, verdict, status, tag, since, until, text."_qs,
         u"EXPR"_qs});
    parser.addOption({u"limit"_qs, u"Show at most N runs."_qs, u"N"_qs});
    ctx.setupParser(parser, u"List stored runs, newest first."_qs, QString(), QString());
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(u"unexpected argument "_qs + parser.positionalArguments().front());
    auto filter = HistoryReader::parseFilter(parser.value(u"filter"_qs).toStdString());
    if (!filter)
        return reportError(ctx, filter.error());
    filter->limit = parser.value(u"limit"_qs).toInt();
    HistoryReader reader;
    if (auto s = reader.open(historyPath(ctx)); !s)
        return reportError(ctx, s.error());
    auto runs = reader.listRuns(*filter);
    if (!runs)
        return reportError(ctx, runs.error());
    if (ctx.global().json) {
        nlohmann::json out = nlohmann::json::array();
        for (const RunSummary &r : *runs)
            out.push_back({{"run_id", r.uuid},
                           {"started_utc", r.startedUtc},
                           {"status", r.status},
                           {"verdict", r.verdict},
                           {"campaign", r.campaignName},
                           {"plan_id", r.planId},
                           {"source", r.source},
                           {"scenarios", r.scenarioCount},
                           {"points", r.pointCount},
                           {"models", r.models},
                           {"backends", r.backends},
                           {"gpus", r.gpus},
                           {"phases", r.phases},
                           {"tags", r.tags},
                           {"simulated", r.simulated}});
        std::fprintf(ctx.machine(), "%s\n", out.dump(2).c_str());
    }
    std::FILE *h = ctx.human();
    std::fprintf(h, "%-8s  %-20s  %-9s  %-9s  %5s  %-20s  %s\n", "RUN", "STARTED (UTC)", "STATUS", "VERDICT",
                 "PTS", "CAMPAIGN", "MODELS / TAGS");
    for (const RunSummary &r : *runs) {
        std::fprintf(h, "%-8s  %-20.19s  %-9s  %-9s  %5d  %-20.20s  %s%s%s\n", r.uuid.substr(0, 8).c_str(),
                     r.startedUtc.c_str(), r.status.c_str(), r.verdict.empty() ? "-" : r.verdict.c_str(),
                     r.pointCount, r.campaignName.c_str(), r.models.c_str(), r.tags.empty() ? "" : "  #",
                     join(r.tags).c_str());
    }
    std::fprintf(h, "%zu run%s\n", runs->size(), runs->size() == 1 ? "" : "s");
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("runs",
                        "list stored runs (filter by model, backend, gpu, phase, verdict, tag, date, text)",
                        runRuns);

} // namespace Throughline::Cli
