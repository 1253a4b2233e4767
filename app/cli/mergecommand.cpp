// `throughline-cli merge BUNDLE… --out BUNDLE [--targets FILE] [--strict] [--allow-missing]`: shard bundles
// of one campaign and plan → one bundle, judged like `run` judges an unsharded campaign (exit codes as
// `run`).
#include "command.h"
#include "storagecli.h"

#include "core/storage/bundlemerger.h"
#include "core/targets/verdictkeys.h"
#include "core/util/exitcodes.h"

#include <vector>

#include <nlohmann/json.hpp>

namespace Throughline::Cli {
namespace {

int runMerge(Context &ctx)
{
    QCommandLineParser parser;
    parser.addOption({u"out"_qs, u"Merged bundle to write."_qs, u"BUNDLE"_qs});
    parser.addOption({u"targets"_qs,
                      u"Target table to judge with (FILE or FILE#preset); default: the table the shards "
                      u"stored."_qs,
                      u"FILE"_qs});
    parser.addOption({u"strict"_qs, u"Treat no_target and invalid verdicts as failures (exit 1)."_qs});
    parser.addOption({u"allow-missing"_qs,
                      u"Merge even when shard indices are missing: every point is flagged shard_missing "
                      u"(invalid) and the missing shards are named."_qs});
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
    BundleMerger::Options options;
    options.allowMissingShards = parser.isSet(u"allow-missing"_qs);
    if (parser.isSet(u"targets"_qs)) {
        auto t = TargetTable::load(parser.value(u"targets"_qs).toStdString());
        if (!t) {
            std::fprintf(stderr, "merge: --targets: %s\n", t.error().message.c_str());
            return ExitBadInput;
        }
        options.targets = std::move(t).value();
    }
    auto report = BundleMerger::merge(inputs, parser.value(u"out"_qs).toStdString(), options);
    if (!report)
        return reportError(ctx, report.error());
    for (const std::string &w : report->warnings)
        std::fprintf(stderr, "warning: %s\n", w.c_str());
    for (const std::string &n : report->notes)
        std::fprintf(stderr, "note: %s\n", n.c_str());
    nlohmann::json verdicts = nlohmann::json::array();
    std::vector<Verdict::Status> statuses;
    for (const auto &v : report->verdicts) {
        verdicts.push_back({{"scenario", v.key},
                            {"verdict", v.status.empty() ? nlohmann::json() : nlohmann::json(v.status)}});
        if (const auto status = verdictStatusFromKey(v.status))
            statuses.push_back(*status);
    }
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "%s\n",
                     nlohmann::json{{"run_id", report->uuid},
                                    {"shards", report->shards},
                                    {"points", report->points},
                                    {"points_aligned_on_schedule", report->scheduledPoints},
                                    {"requests", report->requests},
                                    {"max_skew_ms", report->maxSkewMs},
                                    {"targets", report->targetsName},
                                    {"verdicts", verdicts},
                                    {"late_shards", report->lateShards},
                                    {"missing_shards", report->missingShards},
                                    {"warnings", report->warnings},
                                    {"notes", report->notes}}
                         .dump(2)
                         .c_str());
    std::fprintf(ctx.human(),
                 "merged %d shards into %s: %d points (%d aligned on the plan's schedule), %zu requests, max "
                 "skew %.1f ms\n",
                 report->shards, report->uuid.c_str(), report->points, report->scheduledPoints,
                 report->requests, report->maxSkewMs);
    for (const auto &v : report->verdicts)
        std::fprintf(ctx.human(), "  %-50s %s\n", v.key.c_str(),
                     v.status.empty() ? "not judged" : v.status.c_str());
    return campaignExitCode(statuses, parser.isSet(u"strict"_qs));
}

} // namespace

THROUGHLINE_CLI_COMMAND("merge", "merge shard bundles of one campaign and plan into one bundle", runMerge);

} // namespace Throughline::Cli
