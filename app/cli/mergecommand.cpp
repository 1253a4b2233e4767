// `throughline-cli merge BUNDLE… --out BUNDLE`: shard bundles of one campaign and plan → one bundle.
#include "command.h"
#include "storagecli.h"

#include "core/storage/bundlemerger.h"
#include "core/util/exitcodes.h"

#include <nlohmann/json.hpp>

namespace Throughline::Cli {
namespace {

int runMerge(Context &ctx)
{
    QCommandLineParser parser;
    parser.addOption({u"out"_qs, u"Merged bundle to write."_qs, u"BUNDLE"_qs});
    ctx.setupParser(parser,
                    u"Merge shard bundles (same campaign hash and plan id); aggregates are recomputed."_qs,
                    u"BUNDLE..."_qs, u"Shard bundles (.tlrun)."_qs);
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() < 2)
        return ctx.usageError(u"need at least two BUNDLEs"_qs);
    if (!parser.isSet(u"out"_qs))
        return ctx.usageError(u"missing --out BUNDLE"_qs);
    std::vector<std::string> inputs;
    for (const QString &p : pos)
        inputs.push_back(p.toStdString());
    auto report = BundleMerger::merge(inputs, parser.value(u"out"_qs).toStdString());
    if (!report)
        return reportError(ctx, report.error());
    for (const std::string &w : report->warnings)
        std::fprintf(stderr, "warning: %s\n", w.c_str());
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "%s\n",
                     nlohmann::json{{"run_id", report->uuid},
                                    {"shards", report->shards},
                                    {"points", report->points},
                                    {"requests", report->requests},
                                    {"max_skew_ms", report->maxSkewMs},
                                    {"warnings", report->warnings}}
                         .dump(2)
                         .c_str());
    std::fprintf(ctx.human(), "merged %d shards into %s: %d points, %zu requests, max skew %.1f ms\n",
                 report->shards, report->uuid.c_str(), report->points, report->requests, report->maxSkewMs);
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("merge", "merge shard bundles of one campaign and plan into one bundle", runMerge);

} // namespace Throughline::Cli
