// `throughline-cli run CAMPAIGN [--endpoint URL | --endpoint NAME=URL …] [--api-key-env NAME] [--only EXPR]
//  [--out DIR] [--no-history] [--junit FILE] [--strict] [--plan-only] [--shard i/N] [--start-at TIME]
//  [--point-slot S]`: runs a campaign through the load engine, prints progress and a result table, writes
// results.json / points.csv / requests.csv / JUnit, exits per ARCHITECTURE.md "Exit codes". Simulated
// endpoints run an in-process SimServer (wired here: core cannot link throughline_sim). --plan-only prints
// the expanded plan (runplan.h) and sends nothing; --shard runs this machine's share of every point on the
// plan's time schedule (shardrunner.h); runrecorder.h stores the outcome.
#include "campaignfile.h"
#include "command.h"
#include "runplan.h"
#include "runrecorder.h"
#include "shardrunner.h"

#include "core/campaign/matrixexpander.h"
#include "core/campaign/scenariofilter.h"
#include "core/campaign/shardselector.h"
#include "core/engine/runcontroller.h"
#include "core/metrics/requestmetrics.h"
#include "core/metrics/resultscsv.h"
#include "core/metrics/resultsjson.h"
#include "core/metrics/junitxml.h"
#include "core/sim/faultspec.h"
#include "core/sim/simprocess.h"
#include "core/sim/simserver.h"
#include "core/storage/historypath.h"
#include "core/storage/runbundle.h"
#include "core/targets/targettable.h"
#include "core/targets/verdict.h"
#include "core/util/exitcodes.h"
#include "core/util/version.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <thread>

namespace Throughline::Cli {
namespace {

std::atomic<bool> g_interrupted{false};

void onSigint(int)
{
    g_interrupted = true;
}

Result<SimulatedEndpoint> launchSim(const Scenario &sc, int plannedStreams)
{
    // Above ~2,000 streams the simulator runs as a child process: its sockets and threads stay out of ours.
    if (plannedStreams > 2000 || sc.endpoint.sim.childProcess) {
        auto args = SimProcess::argumentsFor(sc.model.name, sc.gpu.name, std::max(1, sc.deployment.gpus),
                                             sc.deployment.precision, sc.endpoint.sim);
        args.insert(args.end(), {"--max-connections", std::to_string(plannedStreams * 2 + 64)});
        auto proc = std::make_shared<SimProcess>();
        auto port = proc->start(SimProcess::defaultExecutable(), args);
        if (!port)
            return port.error();
        SimulatedEndpoint e;
        e.baseUrl = proc->baseUrl();
        e.timeScale = sc.endpoint.sim.timeScale > 0 ? sc.endpoint.sim.timeScale : 1.0;
        e.description = "throughline-sim child process pid " + std::to_string(proc->pid());
        e.owner = proc;
        return e;
    }
    auto o = SimServer::optionsFromCatalog(sc.model.name, sc.gpu.name, std::max(1, sc.deployment.gpus),
                                           sc.deployment.precision);
    if (!o)
        return o.error();
    SimServerOptions opts = std::move(o).value();
    opts.model = sc.model;
    opts.prefillGpus = sc.deployment.prefillGpus;
    opts.decodeGpus = sc.deployment.decodeGpus;
    opts.timeScale = sc.endpoint.sim.timeScale;
    opts.jitter = sc.endpoint.sim.jitter;
    opts.seed = sc.endpoint.sim.seed;
    opts.servedModelName = sc.endpoint.servedModel.empty() ? sc.model.name : sc.endpoint.servedModel;
    if (!sc.endpoint.sim.faults.empty()) {
        auto f = FaultSpec::parse(sc.endpoint.sim.faults);
        if (!f)
            return f.error();
        opts.faults = *f;
    }
    opts.limits.maxConnections = std::max(opts.limits.maxConnections, plannedStreams * 2 + 64);
    auto server = std::make_shared<SimServer>(std::move(opts));
    auto port = server->start("127.0.0.1", 0);
    if (!port)
        return port.error();
    SimulatedEndpoint e;
    e.baseUrl = "http://127.0.0.1:" + std::to_string(*port);
    e.timeScale = sc.endpoint.sim.timeScale > 0 ? sc.endpoint.sim.timeScale : 1.0;
    e.owner = server;
    e.description = "in-process SimServer (" + std::to_string(plannedStreams) + " planned streams)";
    return e;
}

std::string fmt(double v, int prec = 1)
{
    if (std::isnan(v))
        return "n/a";
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", prec, v);
    return b;
}

std::string stat(const PointResult &p, const char *metric, const char *s)
{
    auto v = p.metricValue(metric, s);
    return v ? fmt(*v, 1) : "n/a";
}

void printTable(std::FILE *out, const RunResults &res, const RunOutcome &run)
{
    for (std::size_t i = 0; i < res.scenarios.size(); ++i) {
        const ScenarioResult &s = res.scenarios[i];
        const ScenarioOutcome &so = run.scenarios[i];
        std::fprintf(
            out, "\n%s  [%s]%s%s\n", s.id.c_str(), std::string(verdictStatusKey(s.verdict.status)).c_str(),
            so.simulated ? "  (simulated)" : "", so.aborted ? ("  ABORTED: " + so.abortReason).c_str() : "");
        std::fprintf(out, "  %-10s %10s %10s %9s %9s %9s %9s %6s %6s  %s\n", "load", "out tok/s", "tok/s/GPU",
                     "TTFT p50", "TTFT p95", "TPOT p50", "TPOT p90", "ok", "err", "validity");
        for (std::size_t k = 0; k < s.points.size(); ++k) {
            const PointResult &p = s.points[k];
            std::string load = p.load.mode == PointLoad::Mode::Concurrency
                                   ? "C=" + std::to_string(p.load.concurrency)
                                   : "λ=" + fmt(p.load.rate, 2);
            int errs = 0;
            for (const auto &[k2, n] : p.errors)
                errs += n;
            std::string validity = p.validity.valid ? "valid" : "";
            for (const std::string &f : p.validity.flags)
                validity += (validity.empty() ? "" : ",") + f;
            if (static_cast<int>(k) == s.verdict.operatingPoint)
                validity += " *op";
            std::fprintf(out, "  %-10s %10s %10s %9s %9s %9s %9s %6d %6d  %s\n", load.c_str(),
                         fmt(p.metrics.outputTps).c_str(), fmt(p.metrics.outputTpsPerGpu).c_str(),
                         stat(p, "ttft_ms", "p50").c_str(), stat(p, "ttft_ms", "p95").c_str(),
                         stat(p, "tpot_ms", "p50").c_str(), stat(p, "tpot_ms", "p90").c_str(), p.nOk, errs,
                         validity.c_str());
        }
        for (const VerdictCheck &c : s.verdict.checks)
            std::fprintf(out, "  check %s %s %s %g: value %s (%s)\n", c.metric.c_str(), c.stat.c_str(),
                         std::string(comparatorKey(c.cmp)).c_str(), c.target, fmt(c.value, 2).c_str(),
                         std::string(checkOutcomeKey(c.outcome)).c_str());
    }
    std::fprintf(out,
                 "  (latencies in ms; n/a = not reportable at this sample size; *op = operating point)\n");
}

// Interruptible wait for --start-at (Ctrl-C ends it). Returns false when interrupted.
bool waitUntil(std::FILE *h, const QDateTime &startAt)
{
    if (!startAt.isValid())
        return true;
    const qint64 waitMs = QDateTime::currentDateTimeUtc().msecsTo(startAt);
    if (waitMs > 0) {
        std::fprintf(h, "waiting %.1f s for --start-at %s\n", static_cast<double>(waitMs) / 1000.0,
                     startAt.toUTC().toString(Qt::ISODateWithMs).toLocal8Bit().constData());
        std::fflush(h);
        while (!g_interrupted.load() && QDateTime::currentDateTimeUtc() < startAt)
            std::this_thread::sleep_for(std::chrono::milliseconds(
                std::clamp<qint64>(QDateTime::currentDateTimeUtc().msecsTo(startAt), 1, 50)));
    } else if (waitMs < -1000) {
        std::fprintf(stderr, "run: warning: --start-at was %.1f s ago; starting now\n",
                     static_cast<double>(-waitMs) / 1000.0);
    }
    return !g_interrupted.load();
}

// The whole campaign in one engine run, with a progress line on stderr.
Result<RunOutcome> runWhole(Context &ctx, const std::vector<Scenario> &list, const RunOptions &opt,
                            const QDateTime &startAt, const QString &path)
{
    std::FILE *h = ctx.human();
    if (!waitUntil(h, startAt))
        return makeError(ErrorCode::Cancelled, "interrupted");
    RunController controller(list, opt);
    std::atomic<bool> done{false};
    const bool tty = ctx.colorOn(stderr);
    std::thread progress([&] {
        int tick = 0;
        while (!done.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (g_interrupted.load())
                controller.cancel();
            if (++tick % (tty ? 5 : 50) != 0)
                continue;
            const LiveProgress p = controller.live().progress();
            controller.live().takeSamples(); // the CLI reads counters only; keep the buffer small
            std::fprintf(stderr,
                         "%s[%d/%d] %s %s  %llu/%llu requests, %llu failed, %d in flight, %.1f s, ETA %s%s",
                         tty ? "\r\033[K" : "", p.scenarioIndex + 1, p.scenarioCount, p.scenarioId.c_str(),
                         p.pointLabel.c_str(), static_cast<unsigned long long>(p.finishedRequests),
                         static_cast<unsigned long long>(p.plannedRequests),
                         static_cast<unsigned long long>(p.failedRequests), p.inFlight, p.elapsedS,
                         p.etaS < 0 ? "?" : (fmt(p.etaS, 0) + " s").c_str(), tty ? "" : "\n");
            std::fflush(stderr);
        }
    });
    std::fprintf(h, "run %s: %zu scenario(s) from %s\n", controller.runId().c_str(), list.size(),
                 path.toLocal8Bit().constData());
    auto outcome = controller.run();
    done = true;
    progress.join();
    if (tty)
        std::fprintf(stderr, "\r\033[K");
    return outcome;
}

// This shard's share of every point, on the plan's time schedule (shardrunner.h).
Result<RunOutcome> runSharded(Context &ctx, const RunPlan &plan, const RunOptions &opt, qint64 clockOffsetMs)
{
    std::FILE *h = ctx.human();
    std::fprintf(h, "shard %s of plan %s: %d of %d point(s) of %zu scenario(s)\n",
                 plan.shard().toString().c_str(), plan.planId().c_str(), plan.pointCount(true),
                 plan.pointCount(false), plan.scenarios().size());
    if (plan.startAtUnixMs() > 0) {
        const qint64 waitMs = plan.startAtUnixMs() - (QDateTime::currentMSecsSinceEpoch() + clockOffsetMs);
        if (waitMs > 0)
            std::fprintf(h, "waiting %.1f s for --start-at\n", static_cast<double>(waitMs) / 1000.0);
        else if (waitMs < -1000)
            std::fprintf(stderr,
                         "run: warning: --start-at was %.1f s ago; points run late (merge flags skew)\n",
                         static_cast<double>(-waitMs) / 1000.0);
        std::fflush(h);
    }
    ShardRunner runner(plan, opt, h);
    runner.setClockOffsetMs(clockOffsetMs);
    std::atomic<bool> done{false};
    std::thread watcher([&] {
        while (!done.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (g_interrupted.load())
                runner.cancel();
        }
    });
    auto outcome = runner.run();
    done = true;
    watcher.join();
    if (outcome)
        std::fprintf(h, "run %s: shard %s finished\n", outcome->runId.c_str(),
                     plan.shard().toString().c_str());
    return outcome;
}

int runRun(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(parser, u"Run a campaign against its endpoints and judge the results."_qs, u"CAMPAIGN"_qs,
                    u"Campaign JSON file."_qs);
    parser.addOption({u"endpoint"_qs,
                      u"Override endpoints: URL (campaign with one endpoint) or NAME=URL (repeatable)."_qs,
                      u"url"_qs});
    parser.addOption({u"api-key-env"_qs, u"Read the API key from this environment variable."_qs, u"name"_qs});
    parser.addOption({u"only"_qs, u"Keep scenarios matching key=glob[,key=glob…]."_qs, u"expr"_qs});
    parser.addOption({u"out"_qs, u"Write results.json, points.csv and requests.csv into DIR."_qs, u"dir"_qs});
    parser.addOption({u"no-history"_qs, u"Do not record the run in the history database."_qs});
    parser.addOption({u"junit"_qs, u"Write a JUnit XML report to FILE."_qs, u"file"_qs});
    parser.addOption({u"strict"_qs, u"Treat no_target and invalid verdicts as failures (exit 1)."_qs});
    parser.addOption({u"workers"_qs, u"Engine worker threads (default: one per core)."_qs, u"n"_qs, u"0"_qs});
    parser.addOption({u"plan-only"_qs,
                      u"Print the expanded plan (scenarios, points, loads, budgets, estimated duration) and "
                      u"send nothing; with --json as JSON on stdout."_qs});
    parser.addOption({u"shard"_qs,
                      u"Run shard i of N (0-based, 0 <= i < N): every point with this shard's share of its "
                      u"concurrency or rate; merge the shards' run.tlrun bundles with `merge`."_qs,
                      u"i/N"_qs});
    parser.addOption({u"start-at"_qs,
                      u"Wait until this wall-clock time (ISO 8601 UTC, e.g. 2026-11-29T20:00:00Z) before the "
                      u"first point, so that all shards start together."_qs,
                      u"time"_qs});
    parser.addOption({u"point-slot"_qs,
                      u"Sharded runs: point k of the plan starts at --start-at + k x SECONDS on every shard "
                      u"(default 0: points back to back). --plan-only suggests a value."_qs,
                      u"seconds"_qs});
    // Testing only (hidden): pretend this machine's wall clock is off by N ms (docs/cli.md).
    QCommandLineOption clockOffset(u"clock-offset-ms"_qs,
                                   u"Testing: shift this shard's wall-clock readings by N ms."_qs, u"N"_qs);
    clockOffset.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(clockOffset);
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing CAMPAIGN"_qs : u"expected one CAMPAIGN file"_qs);
    qint64 clockOffsetMs = 0;
    if (parser.isSet(clockOffset)) {
        bool ok = false;
        clockOffsetMs = parser.value(clockOffset).toLongLong(&ok);
        if (!ok || clockOffsetMs < -3'600'000 || clockOffsetMs > 3'600'000)
            return ctx.usageError(
                u"--clock-offset-ms: expected whole milliseconds within ±3600000, got '"_qs +
                parser.value(clockOffset) + u"'"_qs);
        if (!parser.isSet(u"shard"_qs))
            return ctx.usageError(u"--clock-offset-ms needs --shard i/N (it shifts a shard's clock)"_qs);
    }
    double pointSlotS = 0;
    if (parser.isSet(u"point-slot"_qs)) {
        bool ok = false;
        pointSlotS = parser.value(u"point-slot"_qs).toDouble(&ok);
        if (!ok || !std::isfinite(pointSlotS) || pointSlotS <= 0)
            return ctx.usageError(u"--point-slot: expected a positive number of seconds, got '"_qs +
                                  parser.value(u"point-slot"_qs) + u"'"_qs);
        if (!parser.isSet(u"shard"_qs) || !parser.isSet(u"start-at"_qs))
            return ctx.usageError(u"--point-slot needs --shard i/N and --start-at TIME (the shards share the "
                                  u"schedule)"_qs);
    }
    ShardSpec shard;
    if (parser.isSet(u"shard"_qs)) {
        auto sh = ShardSelector::parse(parser.value(u"shard"_qs).toStdString());
        if (!sh)
            return ctx.usageError(u"--shard: "_qs + QString::fromStdString(sh.error().message));
        shard = *sh;
    }
    QDateTime startAt;
    if (parser.isSet(u"start-at"_qs)) {
        startAt = QDateTime::fromString(parser.value(u"start-at"_qs), Qt::ISODateWithMs);
        if (!startAt.isValid() || startAt.timeSpec() == Qt::LocalTime)
            return ctx.usageError(u"--start-at: expected an ISO 8601 time with a zone, e.g. "
                                  u"2026-11-29T20:00:00Z, got '"_qs +
                                  parser.value(u"start-at"_qs) + u"'"_qs);
        if (startAt > QDateTime::currentDateTimeUtc().addDays(1))
            return ctx.usageError(u"--start-at: "_qs + parser.value(u"start-at"_qs) +
                                  u" is more than 24 h away"_qs);
    }

    auto loaded = loadCampaignFile(ctx, pos.front());
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
    for (const QString &e : parser.values(u"endpoint"_qs)) {
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
    // Targets table referenced by the campaign (relative to the campaign file).
    std::optional<TargetTable> targets;
    nlohmann::json targetsUsed; // stored with the run: merge judges shards with it (runrecorder.h)
    if (!campaign.targets.file.empty()) {
        std::string path = campaign.targets.file;
        if (path.rfind(":/", 0) != 0 && !QFileInfo(QString::fromStdString(path)).isAbsolute())
            path = QFileInfo(loaded->path).absoluteDir().filePath(QString::fromStdString(path)).toStdString();
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
    auto planned = RunPlan::build(list, shard, campaign.name, campaignSha256,
                                  startAt.isValid() ? startAt.toMSecsSinceEpoch() : 0, pointSlotS);
    if (!planned)
        return ctx.usageError(u"--shard: "_qs + QString::fromStdString(planned.error().message));
    const RunPlan &plan = *planned;
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

    std::FILE *h = ctx.human();
    std::signal(SIGINT, &onSigint);
    auto outcome = shard.whole() ? runWhole(ctx, list, opt, startAt, loaded->path)
                                 : runSharded(ctx, plan, opt, clockOffsetMs);
    std::signal(SIGINT, SIG_DFL);
    if (!outcome) {
        if (outcome.error().code == ErrorCode::Cancelled)
            return ExitInterrupted;
        std::fprintf(stderr, "run: %s\n", outcome.error().message.c_str());
        return ExitRuntime;
    }
    const RunOutcome &run = *outcome;

    RunResults res;
    res.runId = run.runId;
    res.toolVersion = toolVersion();
    res.startedUtc = run.startedUtc;
    res.simulated = run.simulated;
    res.timeScale = run.timeScale;
    res.campaignName = campaign.name;
    res.campaignSha256 = campaignSha256;
    bool runtimeError = false;
    for (const ScenarioOutcome &so : run.scenarios) {
        ScenarioResult sr = ScenarioResult::fromScenario(so.scenario);
        for (const PointOutcome &po : so.points)
            sr.points.push_back(po.result);
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

    // History: a storage error is reported (exit 3 at the end) but the results files are still written.
    bool storageFailed = false;
    std::string historyDb;
    const RecordInfo recordInfo{&plan, campaignBytes.toStdString(), targetsUsed};
    if (!parser.isSet(u"no-history"_qs)) {
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
        const std::string dir = QDir(outDir).absolutePath().toStdString();
        if (auto st = writeResultsJson(res, dir + "/results.json"); !st) {
            std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
            return ExitRuntime;
        }
        if (auto st = writePointsCsv(res, dir + "/points.csv"); !st) {
            std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
            return ExitRuntime;
        }
        RequestsCsvWriter w;
        if (auto st = w.open(dir + "/requests.csv"); !st) {
            std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
            return ExitRuntime;
        }
        for (const ScenarioOutcome &so : run.scenarios) {
            for (const PointOutcome &po : so.points) {
                const auto w0 = static_cast<std::int64_t>(po.result.w0S * 1e9);
                const auto w1 = static_cast<std::int64_t>(po.result.w1S * 1e9);
                for (const RequestRecord &r : po.records) {
                    const bool measured = !r.warmup && r.tSend != kNoTime && r.tSend >= w0 && r.tSend < w1;
                    w.append(so.scenario.id, po.pointIndex, r, computeRequestMetrics(r), measured);
                }
            }
        }
        if (auto st = w.close(); !st) {
            std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
            return ExitRuntime;
        }
        QFile prov(QString::fromStdString(dir + "/provenance.json"));
        if (prov.open(QIODevice::WriteOnly | QIODevice::Truncate))
            prov.write(QByteArray::fromStdString(run.provenance.dump(2) + "\n"));
        std::fprintf(h, "\nwrote %s/{plan.json, results.json, points.csv, requests.csv, provenance.json}\n",
                     dir.c_str());
        // run.tlrun: exported from history when recorded there, else written directly into a fresh bundle.
        const std::string bundle = dir + "/run.tlrun";
        Status bst = Ok{};
        if (!historyDb.empty()) {
            bst = RunBundle::exportRun(historyDb, run.runId, bundle);
        } else {
            bst = RunBundle::createEmpty(bundle);
            if (bst)
                bst = recordRun(bundle, run, res, recordInfo);
            if (bst)
                bst = RunBundle::finalize(bundle);
        }
        if (!bst) {
            std::fprintf(stderr, "run: %s: %s\n", bundle.c_str(), bst.error().message.c_str());
            storageFailed = true;
        } else {
            std::fprintf(h, "wrote %s\n", bundle.c_str());
        }
    }
    if (parser.isSet(u"junit"_qs)) {
        if (auto st = writeJUnitXml(res, parser.value(u"junit"_qs).toStdString()); !st) {
            std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
            return ExitRuntime;
        }
    }
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "%s\n", res.toJson().dump(2).c_str());
    if (run.cancelled || g_interrupted.load())
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

THROUGHLINE_CLI_COMMAND("run", "run a campaign against its endpoints, write results and judge them", runRun);

} // namespace Throughline::Cli
