// `throughline-cli run CAMPAIGN [--endpoint URL | --endpoint NAME=URL …] [--api-key-env NAME] [--only EXPR]
//  [--out DIR] [--no-history] [--junit FILE] [--strict] [--plan-only] [--shard i/N] [--start-at TIME]
//  [--point-slot S] [--resume RUN] [--first-token-priority on|off]
//  [--baseline RUN|auto]`: runs a campaign through the load engine,
// prints progress and a result table, writes results.json / points.csv / requests.csv / JUnit, exits per
// ARCHITECTURE.md "Exit codes".
// Simulated endpoints start through core/sim/simlauncher.h (the GUI uses the same launcher). --plan-only
// prints the expanded plan (runplan.h) and sends nothing; --shard runs this machine's share of every point on
// the plan's time schedule (shardrunner.h). Whole runs go through core/run/campaignrun.h, as the desktop
// app's runs do: recorded into history as they go (each point committed when it finishes), so a killed run is
// kept as 'crashed' and `--resume RUN` continues it; --no-history and shard runs store the outcome afterwards
// (runrecorder.h). A run stopped by Ctrl-C or SIGTERM is stored 'cancelled' with every scenario it was given,
// those it never reached with verdict "not_run" (as the GUI stores them).
// This file wires the steps; by purpose: runargs.h (options), runresume.h (--resume), rundriver.h (engine
// run, progress, signals), runtable.h (result table), runoutputs.h (--out files).
#include "campaignfile.h"
#include "command.h"
#include "runargs.h"
#include "runbaseline.h"
#include "rundriver.h"
#include "runoutputs.h"
#include "runplan.h"
#include "runrecorder.h"
#include "runmlperf.h"
#include "runresume.h"
#include "runtable.h"

#include "core/campaign/campaignhash.h"
#include "core/campaign/matrixexpander.h"
#include "core/campaign/scenariofilter.h"
#include "core/run/runcontroller.h"
#include "core/engine/tokenizerpromptsource.h"
#include "core/results/junitxml.h"
#include "core/results/resultsjson.h"
#include "core/storage/historypath.h"
#include "core/run/campaignrun.h"
#include "core/sim/simlauncher.h"
#include "core/targets/targettable.h"
#include "core/targets/verdict.h"
#include "core/util/exitcodes.h"
#include "core/util/version.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <chrono>
#include <optional>

namespace Throughline::Cli {
namespace {

int runRun(Context &ctx)
{
    QCommandLineParser parser;
    addRunOptions(ctx, parser);
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    RunArgs args;
    if (const int rc = readRunArgs(ctx, parser, args); rc >= 0)
        return rc;
    const QStringList &pos = args.positional;
    const bool resuming = args.resuming;
    const ShardSpec &shard = args.shard;
    ResumeState resume;
    if (resuming) {
        if (const int rc = prepareResume(ctx, parser.value(u"resume"_qs),
                                         pos.isEmpty() ? QString() : pos.front(), resume);
            rc >= 0)
            return rc;
    }

    auto loaded = loadCampaignFile(ctx, resuming ? resume.campaignPath : pos.front());
    if (!loaded)
        return ExitBadInput;
    if (printProblems(ctx, *loaded) > 0 || !loaded->outcome.campaign) {
        std::fprintf(stderr, "%s: not run: fix the problems above\n", loaded->path.toLocal8Bit().constData());
        return ExitBadInput;
    }
    const Campaign &campaign = *loaded->outcome.campaign;
    auto expanded = MatrixExpander().expand(campaign);
    if (!expanded) {
        std::fprintf(stderr, "%s: %s\n", loaded->path.toLocal8Bit().constData(),
                     expanded.error().message.c_str());
        return ExitBadInput;
    }
    std::vector<Scenario> list = std::move(expanded).value();
    if (resuming) {
        // The stored scenarios, in their stored order (the original run may have used --only).
        std::vector<Scenario> ordered;
        for (const ScenarioRow &row : resume.detail.scenarios) {
            const auto it = std::find_if(list.begin(), list.end(), [&](const Scenario &s) {
                return ScenarioResult::fromScenario(s).id == row.key;
            });
            if (it == list.end() || row.index != static_cast<int>(ordered.size())) {
                std::fprintf(stderr,
                             "throughline-cli run: --resume: scenario %s of run %s is not in the campaign "
                             "any more\n",
                             row.key.c_str(), resume.uuid.c_str());
                return ExitBadInput;
            }
            ordered.push_back(*it);
        }
        list = std::move(ordered);
    }
    if (parser.isSet(u"only"_qs)) {
        auto r = ScenarioFilter::parse(parser.value(u"only"_qs).toStdString());
        if (!r)
            return ctx.usageError(u"--only: "_qs + QString::fromStdString(r.error().message));
        std::erase_if(
            list, [&](const Scenario &s) { return !ScenarioFilter::matches(*r, MatrixExpander::keysOf(s)); });
        if (list.empty()) {
            std::fprintf(stderr, "run: no scenario matches --only\n");
            return ExitBadInput;
        }
    }
    // Endpoint overrides: overriding a simulated endpoint makes it a real one.
    // A resumed run keeps the original's overrides unless new ones are given.
    const QStringList endpointArgs =
        resuming && !parser.isSet(u"endpoint"_qs) ? resume.endpoints : parser.values(u"endpoint"_qs);
    for (const QString &e : endpointArgs) {
        const int eq = e.indexOf(u'=');
        const bool named = eq > 0 && !e.left(eq).contains(u':');
        const std::string name = named ? e.left(eq).toStdString() : std::string();
        const std::string url = (named ? e.mid(eq + 1) : e).toStdString();
        if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
            return ctx.usageError(u"--endpoint: expected an http(s) URL, got '"_qs + e + u"'"_qs);
        if (!named && campaign.endpoints.size() > 1)
            return ctx.usageError(u"--endpoint URL needs NAME=URL: the campaign has several endpoints"_qs);
        bool any = false;
        for (Scenario &s : list) {
            if (named && s.endpoint.name != name)
                continue;
            s.endpoint.kind = Endpoint::Kind::Http;
            s.endpoint.baseUrl = url;
            any = true;
        }
        if (named && !any)
            return ctx.usageError(u"--endpoint: no endpoint named '"_qs + QString::fromStdString(name) +
                                  u"'"_qs);
    }
    // Engine read order: a resumed run keeps the original's (--resume refuses the option).
    const std::optional<bool> firstTokenPriority =
        resuming ? resume.firstTokenPriority : args.firstTokenPriority;
    if (firstTokenPriority)
        for (Scenario &s : list)
            s.plan.firstTokenPriority = *firstTokenPriority;
    if (args.readPath) // --resume refuses it: a resumed run reads as its campaign says
        for (Scenario &s : list)
            s.endpoint.readPath = *args.readPath;
    // MLPerf Endpoints mode: the rules' points replace each curve's, the plan is checked before any request.
    std::shared_ptr<MlperfMode> mlperf;
    if (const int rc = prepareMlperfRun(ctx, parser, list, mlperf); rc >= 0)
        return rc;
    // Targets table referenced by the campaign (relative to the campaign file) and targets.baseline_run from
    // the history, loaded once as the GUI does. A shard (a cluster node, whose history rarely holds the
    // baseline) is judged without the baseline; merge judges the whole run.
    auto loadedTargets = loadRunTargets(
        campaign, (resuming ? resume.campaignDir : QFileInfo(loaded->path).absolutePath()).toStdString(),
        shard.whole() ? HistoryPath::resolve(ctx.global().db.toStdString()) : std::string());
    if (!loadedTargets) {
        std::fprintf(stderr, "%s\n", loadedTargets.error().message.c_str());
        return ExitBadInput;
    }
    const RunTargets &targets = *loadedTargets;
    const nlohmann::json &targetsUsed = targets.used; // stored with the run: merge judges shards with it
    // The campaign hash and the stored text: the canonical text, as the desktop app stores and hashes it.
    const std::string campaignText = canonicalCampaignText(campaign);
    const std::string campaignSha256 = Throughline::campaignSha256(campaignText);
    auto planned =
        RunPlan::build(list, shard, campaign.name, campaignSha256,
                       args.startAt.isValid() ? args.startAt.toMSecsSinceEpoch() : 0, args.pointSlotS);
    if (!planned)
        return ctx.usageError(u"--shard: "_qs + QString::fromStdString(planned.error().message));
    const RunPlan &plan = *planned;
    if (resuming && !resume.detail.summary.planId.empty() && resume.detail.summary.planId != plan.planId()) {
        std::fprintf(
            stderr,
            "throughline-cli run: --resume: the campaign now expands to plan %s, run %s ran plan %s\n",
            plan.planId().c_str(), resume.uuid.c_str(), resume.detail.summary.planId.c_str());
        return ExitBadInput;
    }
    const std::string planText = plan.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    QString outDir;
    if (parser.isSet(u"out"_qs)) {
        outDir = parser.value(u"out"_qs);
        if (!QDir().mkpath(outDir)) {
            std::fprintf(stderr, "run: cannot create output directory %s\n",
                         outDir.toLocal8Bit().constData());
            return ExitBadInput;
        }
        // plan.json first: a shard that fails later still leaves the plan it was given.
        QFile pf(QDir(outDir).filePath(u"plan.json"_qs));
        if (!pf.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            pf.write(QByteArray::fromStdString(planText + "\n")) < 0) {
            std::fprintf(stderr, "run: cannot write %s\n", pf.fileName().toLocal8Bit().constData());
            return ExitRuntime;
        }
    }
    if (parser.isSet(u"plan-only"_qs)) {
        if (ctx.global().json)
            std::fprintf(ctx.machine(), "%s\n", planText.c_str());
        else
            plan.printTable(ctx.human());
        if (!outDir.isEmpty())
            std::fprintf(ctx.human(), "wrote %s\n",
                         QDir(outDir).absoluteFilePath(u"plan.json"_qs).toLocal8Bit().constData());
        return ExitOk;
    }

    RunOptions opt;
    opt.workers = parser.value(u"workers"_qs).toInt();
    opt.apiKeyEnvOverride = parser.value(u"api-key-env"_qs).toStdString();
    opt.campaignName = campaign.name;
    opt.campaignSha256 = campaignSha256;
    opt.simLauncher = &launchSimulator;
    opt.promptFactory = exactPromptSourceFactory(); // exact ISL when the model's tokenizer is fetched
    if (const int rc = readReadySince(ctx, parser, opt.readySinceUnixMs); rc >= 0)
        return rc;

    std::FILE *h = ctx.human();
    if (mlperf) // one line per finished point, on the run's thread
        mlperf->attach(opt, [h, &list](int si, const std::string &line) {
            std::fprintf(h, "  mlperf %s %s\n", list[static_cast<std::size_t>(si)].id.c_str(), line.c_str());
            std::fflush(h);
        });
    // History: whole runs are recorded as they go through CampaignRun (the run row before the first request,
    // each point as it finishes), as the desktop app records them; --no-history and shard runs store the
    // outcome afterwards. A storage error is reported (exit 3 at the end) but the run goes on and the results
    // files are still written.
    const bool live = shard.whole() && !parser.isSet(u"no-history"_qs);
    bool storageFailed = false;
    std::string historyDb;
    if (live) {
        historyDb = HistoryPath::resolve(ctx.global().db.toStdString());
        opt.runId = resuming ? resume.uuid : newUuidV4();
        if (resuming) {
            opt.firstSeq = resume.firstSeq;
            opt.completedPoints = resume.completed;
        }
    }
    installInterruptHandler();
    Result<RunOutcome> outcome = makeError(ErrorCode::Internal, "not run");
    RunResults res;
    std::string recordError;
    if (shard.whole()) {
        CampaignRun::Setup setup;
        setup.scenarios = list;
        setup.campaignName = campaign.name;
        setup.campaignText = campaignText;
        setup.targets = targets;
        setup.historyDb = historyDb;
        setup.source = "throughline-cli";
        setup.planId = plan.planId();
        nlohmann::json endpoints = nlohmann::json::array();
        for (const QString &e : endpointArgs)
            endpoints.push_back(e.toStdString());
        setup.provenance = {{"cli",
                             {{"campaign_path", QFileInfo(loaded->path).absoluteFilePath().toStdString()},
                              {"endpoints", endpoints}}}};
        if (firstTokenPriority) // what --resume applies again
            setup.provenance["cli"]["first_token_priority"] = *firstTokenPriority;
        setup.options = opt;
        if (mlperf) // the report is stored with the run (--mlperf refuses --resume)
            setup.finishProvenance = [mlperf](const RunOutcome &run) {
                return mlperf->finishedProvenance(run);
            };
        // Recorded points leave memory once committed; requests.csv reads them back (runoutputs.cpp).
        setup.releaseRecordedPoints = true;
        // A point cut short by Ctrl-C is not stored: --resume runs it again.
        setup.recordPoint = [] { return !interrupted(); };
        if (resuming) {
            CampaignRun::Setup::Resume r;
            r.dropPoints = resume.drop;
            for (const auto &kept : resume.completed)
                r.keptScenarios.push_back(kept.first.first);
            r.startedUtc = resume.detail.summary.startedUtc;
            setup.resume = std::move(r);
            setup.finishProvenance = [&resume](const RunOutcome &run) {
                nlohmann::json resumes =
                    resume.detail.provenance.is_object()
                        ? resume.detail.provenance.value("resumes", nlohmann::json::array())
                        : nlohmann::json::array();
                resumes.push_back({{"started_utc", run.startedUtc},
                                   {"tool_version", toolVersion()},
                                   {"points_kept", resume.completed.size()},
                                   {"points_dropped", resume.drop.size()},
                                   {"cancelled", run.cancelled}});
                return nlohmann::json{{"resumes", resumes}};
            };
            std::fprintf(h, "resuming run %s: %zu finished point(s) kept, %zu partial point(s) dropped\n",
                         resume.uuid.c_str(), resume.completed.size(), resume.drop.size());
        }
        CampaignRun campaignRun(std::move(setup));
        auto done = runWhole(ctx, campaignRun, list.size(), args.startAt, loaded->path);
        if (done) {
            res = std::move(done->results);
            recordError = done->recordError;
            outcome = std::move(done->run);
        } else {
            outcome = done.error();
        }
    } else {
        outcome = runSharded(ctx, plan, opt, args.clockOffsetMs);
        if (outcome) // judged once, by the same function as a whole run (core/run/campaignrun.h)
            res = judgeRun(*outcome, campaign.name, campaignSha256, targets);
    }
    restoreInterruptHandler();
    if (!outcome) {
        if (outcome.error().code == ErrorCode::Cancelled)
            return ExitInterrupted;
        std::fprintf(stderr, "run: %s\n", outcome.error().message.c_str());
        return outcome.error().code == ErrorCode::InvalidInput ? ExitBadInput : ExitRuntime;
    }
    const RunOutcome &run = *outcome;
    bool runtimeError = false;
    for (const ScenarioOutcome &so : run.scenarios) {
        if (so.aborted && so.abortReason != "cancelled" && !so.stoppedByRule)
            runtimeError = true;
        if (so.aborted)
            std::fprintf(stderr, "%s: aborted: %s\n", so.scenario.id.c_str(), so.abortReason.c_str());
    }
    printTable(h, res, run);
    if (mlperf) {
        mlperf->finish(run);
        printMlperfSummary(h, *mlperf);
    }

    // Whole runs store every scenario given to the engine, those never reached (Ctrl-C) as "not_run".
    const RecordInfo recordInfo{&plan, campaignText, targetsUsed,
                                shard.whole() ? list : std::vector<Scenario>{}};
    if (live) {
        if (!recordError.empty()) {
            std::fprintf(stderr, "run: %s\n", recordError.c_str());
            storageFailed = true;
            historyDb.clear();
        } else {
            std::fprintf(h, "\nrecorded run %s in %s\n", run.runId.c_str(), historyDb.c_str());
        }
    } else if (!parser.isSet(u"no-history"_qs)) {
        historyDb = HistoryPath::resolve(ctx.global().db.toStdString());
        if (auto st = recordRun(historyDb, run, res, recordInfo); !st) {
            std::fprintf(stderr, "run: history database %s: %s (run not recorded)\n", historyDb.c_str(),
                         st.error().message.c_str());
            storageFailed = true;
            historyDb.clear();
        } else {
            std::fprintf(h, "\nrecorded run %s in %s\n", run.runId.c_str(), historyDb.c_str());
        }
    }

    if (!outDir.isEmpty()) {
        if (mlperf && !writeMlperfCompliance(outDir, *mlperf))
            return ExitRuntime;
        if (const int rc = writeRunFiles(h, outDir, run, res, recordInfo, historyDb, resuming, storageFailed);
            rc >= 0)
            return rc;
    }
    if (parser.isSet(u"junit"_qs)) {
        if (auto st = writeJUnitXml(res, parser.value(u"junit"_qs).toStdString()); !st) {
            std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
            return ExitRuntime;
        }
    }
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "%s\n", res.toJson().dump(2).c_str());
    if (run.cancelled || interrupted())
        return ExitInterrupted;
    if (runtimeError || storageFailed)
        return ExitRuntime;
    if (mlperf && mlperf->anyFail())
        return ExitFailed; // not compliant (the rule ids are printed above)
    if (!shard.whole()) {
        // One shard offered 1/N of each point's load: its verdicts are partial. The campaign is judged on the
        // merged bundle (throughline-cli merge), so a shard only reports runtime trouble through its exit
        // code.
        std::fprintf(h,
                     "shard %s of plan %s done; verdicts above cover this shard's share only - merge the "
                     "shards' run.tlrun bundles (throughline-cli merge) for the campaign result\n",
                     shard.toString().c_str(), plan.planId().c_str());
        return ExitOk;
    }
    const int verdictCode = res.exitCode(parser.isSet(u"strict"_qs));
    if (!parser.isSet(u"baseline"_qs))
        return verdictCode;
    const int gate = gateOnBaseline(ctx, parser.value(u"baseline"_qs), res, campaign, h);
    if (gate == ExitBadInput || gate == ExitRuntime)
        return gate;
    return gate == ExitFailed ? ExitFailed : verdictCode; // a regression counts as a failure
}

} // namespace

THROUGHLINE_CLI_COMMAND("run", "run a campaign (or --resume a crashed one), write results and judge them",
                        runRun);

} // namespace Throughline::Cli
