// `throughline-cli run CAMPAIGN [--endpoint URL | --endpoint NAME=URL …] [--api-key-env NAME] [--only EXPR]
//  [--out DIR] [--no-history] [--junit FILE] [--strict] [--plan-only] [--shard i/N] [--start-at TIME]
//  [--point-slot S] [--resume RUN] [--first-token-priority on|off]`: runs a campaign through the load engine,
// prints progress and a result table, writes results.json / points.csv / requests.csv / JUnit, exits per
// ARCHITECTURE.md "Exit codes".
// Simulated endpoints run an in-process SimServer (runsim.h: core cannot link throughline_sim). --plan-only
// prints the expanded plan (runplan.h) and sends nothing; --shard runs this machine's share of every point on
// the plan's time schedule (shardrunner.h). Whole runs are recorded into history as they go
// (core/storage/liverunrecording.h: each point committed when it finishes), so a killed run is kept as
// 'crashed' and `--resume RUN` continues it; --no-history and shard runs store the outcome afterwards
// (runrecorder.h). A run stopped by Ctrl-C or SIGTERM is stored 'cancelled' with every scenario it was given,
// those it never reached with verdict "not_run" (as the GUI stores them).
// This file wires the steps; by purpose: runargs.h (options), runresume.h (--resume), rundriver.h (engine
// run, progress, signals), runtable.h (result table), runoutputs.h (--out files).
#include "campaignfile.h"
#include "command.h"
#include "runargs.h"
#include "rundriver.h"
#include "runoutputs.h"
#include "runplan.h"
#include "runrecorder.h"
#include "runresume.h"
#include "runsim.h"
#include "runtable.h"

#include "core/campaign/matrixexpander.h"
#include "core/campaign/scenariofilter.h"
#include "core/engine/runcontroller.h"
#include "core/engine/tokenizerpromptsource.h"
#include "core/metrics/junitxml.h"
#include "core/metrics/resultsjson.h"
#include "core/storage/historypath.h"
#include "core/storage/liverunrecording.h"
#include "core/targets/targettable.h"
#include "core/targets/verdict.h"
#include "core/util/exitcodes.h"
#include "core/util/version.h"

#include <QCryptographicHash>
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
    // Targets table referenced by the campaign (relative to the campaign file).
    std::optional<TargetTable> targets;
    nlohmann::json targetsUsed; // stored with the run: merge judges shards with it (runrecorder.h)
    if (!campaign.targets.file.empty()) {
        std::string path = campaign.targets.file;
        if (path.rfind(":/", 0) != 0 && !QFileInfo(QString::fromStdString(path)).isAbsolute())
            path = QDir(resuming ? resume.campaignDir : QFileInfo(loaded->path).absolutePath())
                       .filePath(QString::fromStdString(path))
                       .toStdString();
        auto t = TargetTable::load(path);
        if (!t) {
            std::fprintf(stderr, "%s\n", t.error().message.c_str());
            return ExitBadInput;
        }
        targets = std::move(t).value();
        const std::string file = path.substr(0, path.rfind('#'));
        QFile tf(QString::fromStdString(file));
        if (tf.open(QIODevice::ReadOnly))
            targetsUsed = {{"name", targets->name()},
                           {"file", campaign.targets.file},
                           {"preset", targets->activePreset()},
                           {"text", tf.readAll().toStdString()}};
    }
    QFile cf(loaded->path);
    QByteArray campaignBytes;
    if (cf.open(QIODevice::ReadOnly))
        campaignBytes = cf.readAll();
    const std::string campaignSha256 =
        QCryptographicHash::hash(campaignBytes, QCryptographicHash::Sha256).toHex().toStdString();
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
    opt.simLauncher = &launchSim;
    opt.promptFactory = exactPromptSourceFactory(); // exact ISL when the model's tokenizer is fetched
    if (const int rc = readReadySince(ctx, parser, opt.readySinceUnixMs); rc >= 0)
        return rc;

    std::FILE *h = ctx.human();
    // History: whole runs are recorded as they go (the run row before the first request, each point as it
    // finishes); --no-history and shard runs store the outcome afterwards. A storage error is reported (exit
    // 3 at the end) but the run goes on and the results files are still written.
    const bool live = shard.whole() && !parser.isSet(u"no-history"_qs);
    bool storageFailed = false;
    std::string historyDb;
    LiveRunRecording recording;
    if (live) {
        historyDb = HistoryPath::resolve(ctx.global().db.toStdString());
        opt.runId = resuming ? resume.uuid : newUuidV4();
        if (resuming) {
            opt.firstSeq = resume.firstSeq;
            opt.completedPoints = resume.completed;
        }
        opt.onPointFinished = [&recording](const ScenarioOutcome &so, const PointOutcome &po) {
            // A point cut short by Ctrl-C is not stored: --resume runs it again.
            if (!interrupted())
                recording.pointFinished(so, po);
        };
    }
    const auto beforeRun = [&](RunController &controller) -> Status {
        if (!live)
            return Ok{};
        // Each committed point also stores its scenario's telemetry so far (a crash keeps it).
        recording.setLiveTelemetry([&controller] { return controller.liveTelemetry(); });
        const std::int64_t t0UnixNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                          .count();
        if (resuming) {
            if (auto st = recording.resume(historyDb, resume.uuid, resume.drop, t0UnixNs); !st)
                return makeError(st.error().code == ErrorCode::NotFound ? ErrorCode::InvalidInput
                                                                        : st.error().code,
                                 "--resume " + resume.uuid + ": " + st.error().message);
            std::fprintf(h, "resuming run %s: %zu finished point(s) kept, %zu partial point(s) dropped\n",
                         resume.uuid.c_str(), resume.completed.size(), resume.drop.size());
            return Ok{};
        }
        RunStart start;
        start.uuid = opt.runId;
        start.campaignJson = campaignBytes.toStdString();
        start.campaignName = campaign.name;
        start.planId = plan.planId();
        start.t0UnixNs = t0UnixNs;
        start.source = "throughline-cli";
        nlohmann::json endpoints = nlohmann::json::array();
        for (const QString &e : endpointArgs)
            endpoints.push_back(e.toStdString());
        start.provenance = {{"cli",
                             {{"campaign_path", QFileInfo(loaded->path).absoluteFilePath().toStdString()},
                              {"endpoints", endpoints}}},
                            {"campaign", {{"name", campaign.name}, {"sha256", campaignSha256}}}};
        if (firstTokenPriority) // what --resume applies again
            start.provenance["cli"]["first_token_priority"] = *firstTokenPriority;
        if (targetsUsed.is_object())
            start.targets.push_back(targetsUsed);
        for (std::size_t i = 0; i < list.size(); ++i) {
            start.scenarios.push_back(LiveRunRecording::scenarioInfo(static_cast<int>(i), list[i]));
            if (list[i].endpoint.kind == Endpoint::Kind::Simulated && !start.simulated) {
                start.simulated = true;
                start.timeScale = list[i].endpoint.sim.timeScale > 0 ? list[i].endpoint.sim.timeScale : 1.0;
            }
        }
        if (auto st = recording.start(historyDb, std::move(start)); !st) {
            std::fprintf(stderr, "run: history database %s: %s (run not recorded)\n", historyDb.c_str(),
                         st.error().message.c_str());
            storageFailed = true;
            historyDb.clear();
        }
        return Ok{};
    };
    installInterruptHandler();
    auto outcome = shard.whole() ? runWhole(ctx, list, opt, args.startAt, loaded->path, beforeRun)
                                 : runSharded(ctx, plan, opt, args.clockOffsetMs);
    restoreInterruptHandler();
    if (!outcome) {
        if (outcome.error().code == ErrorCode::Cancelled)
            return ExitInterrupted;
        std::fprintf(stderr, "run: %s\n", outcome.error().message.c_str());
        return outcome.error().code == ErrorCode::InvalidInput ? ExitBadInput : ExitRuntime;
    }
    const RunOutcome &run = *outcome;

    RunResults res;
    res.runId = run.runId;
    res.toolVersion = toolVersion();
    res.startedUtc = resuming ? resume.detail.summary.startedUtc : run.startedUtc;
    res.simulated = run.simulated;
    res.timeScale = run.timeScale;
    res.campaignName = campaign.name;
    res.campaignSha256 = campaignSha256;
    bool runtimeError = false;
    for (const ScenarioOutcome &so : run.scenarios) {
        ScenarioResult sr = ScenarioResult::fromScenario(so.scenario);
        for (const PointOutcome &po : so.points)
            sr.points.push_back(po.result);
        sr.coldStart = so.coldStart;
        const std::vector<TargetRow> rows =
            targets ? targets->matching(so.scenario) : std::vector<TargetRow>{};
        sr.verdict = judgeScenario(so.scenario, sr.points, rows);
        if (so.aborted && so.abortReason != "cancelled")
            runtimeError = true;
        if (so.aborted)
            std::fprintf(stderr, "%s: aborted: %s\n", so.scenario.id.c_str(), so.abortReason.c_str());
        res.scenarios.push_back(std::move(sr));
    }
    printTable(h, res, run);

    // Whole runs store every scenario given to the engine, those never reached (Ctrl-C) as "not_run".
    const RecordInfo recordInfo{&plan, campaignBytes.toStdString(), targetsUsed,
                                shard.whole() ? list : std::vector<Scenario>{}};
    if (live && !historyDb.empty()) {
        nlohmann::json extra = nlohmann::json::object();
        if (resuming) {
            nlohmann::json resumes = resume.detail.provenance.is_object()
                                         ? resume.detail.provenance.value("resumes", nlohmann::json::array())
                                         : nlohmann::json::array();
            resumes.push_back({{"started_utc", run.startedUtc},
                               {"tool_version", toolVersion()},
                               {"points_kept", resume.completed.size()},
                               {"points_dropped", resume.drop.size()},
                               {"cancelled", run.cancelled}});
            extra["resumes"] = resumes;
        }
        // Scenarios the run never reached: "not_run" (a resumed run reached those with points kept before).
        std::vector<int> notRun;
        for (int i = 0; i < static_cast<int>(list.size()); ++i) {
            const bool reached =
                std::any_of(run.scenarios.begin(), run.scenarios.end(),
                            [i](const ScenarioOutcome &so) { return so.scenarioIndex == i; }) ||
                std::any_of(resume.completed.begin(), resume.completed.end(),
                            [i](const auto &kept) { return kept.first.first == i; });
            if (!reached)
                notRun.push_back(i);
        }
        if (auto st = recording.finish(run, res, extra, resuming, notRun); !st) {
            std::fprintf(stderr, "run: history database %s: %s (run recorded up to the error)\n",
                         historyDb.c_str(), st.error().message.c_str());
            storageFailed = true;
            historyDb.clear();
        } else {
            std::fprintf(h, "\nrecorded run %s in %s\n", run.runId.c_str(), historyDb.c_str());
        }
    } else if (!live && !parser.isSet(u"no-history"_qs)) {
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
    return res.exitCode(parser.isSet(u"strict"_qs));
}

} // namespace

THROUGHLINE_CLI_COMMAND("run", "run a campaign (or --resume a crashed one), write results and judge them",
                        runRun);

} // namespace Throughline::Cli
