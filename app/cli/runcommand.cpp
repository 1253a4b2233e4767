// `throughline-cli run CAMPAIGN [--endpoint URL | --endpoint NAME=URL …] [--api-key-env NAME] [--only EXPR]
//  [--out DIR] [--no-history] [--junit FILE] [--strict] [--plan-only] [--shard i/N] [--start-at TIME]
//  [--point-slot S] [--resume RUN]`: runs a campaign through the load engine, prints progress and a result
// table, writes results.json / points.csv / requests.csv / JUnit, exits per ARCHITECTURE.md "Exit codes".
// Simulated endpoints run an in-process SimServer (wired here: core cannot link throughline_sim). --plan-only
// prints the expanded plan (runplan.h) and sends nothing; --shard runs this machine's share of every point on
// the plan's time schedule (shardrunner.h). Whole runs are recorded into history as they go
// (core/storage/liverunrecording.h: each point committed when it finishes), so a killed run is kept as
// 'crashed' and `--resume RUN` continues it; --no-history and shard runs store the outcome afterwards
// (runrecorder.h).
#include "campaignfile.h"
#include "command.h"
#include "runplan.h"
#include "runrecorder.h"
#include "shardrunner.h"

#include "core/campaign/matrixexpander.h"
#include "core/campaign/scenariofilter.h"
#include "core/campaign/shardselector.h"
#include "core/engine/runcontroller.h"
#include "core/engine/tokenizerpromptsource.h"
#include "core/metrics/requestmetrics.h"
#include "core/metrics/resultscsv.h"
#include "core/metrics/resultsjson.h"
#include "core/metrics/junitxml.h"
#include "core/sim/faultspec.h"
#include "core/sim/simprocess.h"
#include "core/sim/simserver.h"
#include "core/storage/historypath.h"
#include "core/storage/historyreader.h"
#include "core/storage/liverunrecording.h"
#include "core/storage/storagewriter.h"
#include "core/storage/runbundle.h"
#include "core/storage/storedrecords.h"
#include "core/targets/targettable.h"
#include "core/targets/verdict.h"
#include "core/util/exitcodes.h"
#include "core/util/version.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <map>
#include <memory>
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
    opts.tokenizer = "auto";     // count prompts as the engine's exact prompts intend (when fetched)
    opts.prefixBlockTokens = 16; // prefix caching as vLLM (docs/simulator.md)
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

// Under a scenario's table: one server-telemetry line per point that has a telemetry summary (peak KV,
// mean queue, scrape failures, stalled streams, energy per output token when DCGM power was scraped), and
// the cold-start facts when measured.
void printTelemetryLines(std::FILE *out, const ScenarioResult &s)
{
    for (const PointResult &p : s.points) {
        const auto &t = p.telemetry;
        if (t.empty())
            continue;
        auto has = [&t](const char *k) { return t.count(k) > 0 && std::isfinite(t.at(k)); };
        const std::string load = p.load.mode == PointLoad::Mode::Concurrency
                                     ? "C=" + std::to_string(p.load.concurrency)
                                     : "λ=" + fmt(p.load.rate, 2);
        std::string line = "  telemetry " + load + ":";
        std::string sep = " ";
        auto add = [&](const std::string &part) {
            line += sep + part;
            sep = ", ";
        };
        if (has("kv_cache_usage_peak"))
            add("KV peak " + fmt(t.at("kv_cache_usage_peak") * 100.0, 1) + " %");
        if (has("waiting_mean"))
            add("waiting mean " + fmt(t.at("waiting_mean"), 1));
        if (has("scrapes"))
            add("scrape failures " + fmt(has("scrape_failures") ? t.at("scrape_failures") : 0.0, 0) + "/" +
                fmt(t.at("scrapes"), 0));
        if (has("stalled_requests"))
            add("stalled streams " + fmt(t.at("stalled_requests"), 0));
        if (has("energy_per_output_token_j"))
            add("energy " + fmt(t.at("energy_per_output_token_j"), 3) + " J/token");
        std::fprintf(out, "%s\n", line.c_str());
    }
    const nlohmann::json &c = s.coldStart;
    if (!c.is_object())
        return;
    auto num = [&c](const char *k, int prec) {
        return c.contains(k) && c[k].is_number() ? fmt(c[k].get<double>(), prec) : std::string("n/a");
    };
    const std::string since = c.value("since", std::string());
    const std::string from = since == "ready_since" ? "--ready-since"
                             : since == "run_start" ? "run start"
                                                    : "scenario start";
    if (!c.contains("time_to_ready_s") || !c["time_to_ready_s"].is_number()) {
        std::fprintf(out, "  cold start: not ready (%s)\n", c.value("error", std::string("?")).c_str());
        return;
    }
    std::fprintf(out,
                 "  cold start: ready after %s s from %s (%s polls every %s s); first request TTFT %s ms, "
                 "E2E %s ms%s\n",
                 num("time_to_ready_s", 2).c_str(), from.c_str(), num("polls", 0).c_str(),
                 num("poll_interval_s", 2).c_str(), num("first_request_ttft_ms", 1).c_str(),
                 num("first_request_e2e_ms", 1).c_str(),
                 c.value("first_request_ok", true) ? ""
                                                   : (" (" + c.value("error", std::string()) + ")").c_str());
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
        printTelemetryLines(out, s);
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
// beforeRun: called right before the engine starts (after --start-at), e.g. to open the live recording at
// t=0 and give it the controller's live telemetry; an error there ends the run before any load is offered.
Result<RunOutcome> runWhole(Context &ctx, const std::vector<Scenario> &list, const RunOptions &opt,
                            const QDateTime &startAt, const QString &path,
                            const std::function<Status(RunController &)> &beforeRun)
{
    std::FILE *h = ctx.human();
    if (!waitUntil(h, startAt))
        return makeError(ErrorCode::Cancelled, "interrupted");
    RunController controller(list, opt);
    if (beforeRun) {
        if (auto st = beforeRun(controller); !st)
            return st.error();
    }
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

// `--resume RUN`: what the stored run fixes for its continuation.
struct ResumeState {
    std::string historyDb;
    std::string uuid;
    RunDetail detail;
    QString campaignPath; // file loaded (the original, or the stored text in `tmp`)
    QString campaignDir;  // where relative references resolve (the original's folder)
    std::unique_ptr<QTemporaryDir> tmp;
    std::map<std::pair<int, int>, PointResult> completed; // (scenario, point) → stored result
    std::vector<std::pair<int, int>> drop;                // partially written points: rows deleted
    std::uint64_t firstSeq = 0;                           // next request seq (ids unique within the run)
    QStringList endpoints;                                // --endpoint values of the original run
};

std::string sha256Hex(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().toStdString();
}

// Checks that RUN can be resumed and reads what it stored. Returns -1 when it can, else the exit code (the
// reason printed). Crashed runs are recognised first (a writer open marks dead writers' runs 'crashed').
int prepareResume(const Context &ctx, const QString &runArg, const QString &campaignArg, ResumeState &rs)
{
    auto refuse = [&](const std::string &message, int code = ExitBadInput) {
        std::fprintf(stderr, "throughline-cli run: --resume %s: %s\n", runArg.toLocal8Bit().constData(),
                     message.c_str());
        return code;
    };
    rs.historyDb = HistoryPath::resolve(ctx.global().db.toStdString());
    if (!QFileInfo::exists(QString::fromStdString(rs.historyDb)))
        return refuse("no history database at " + rs.historyDb + " (the run is unknown)");
    {
        StorageWriter recover; // migrates an old database and marks runs of dead writers 'crashed'
        if (auto st = recover.open(rs.historyDb); !st)
            return refuse("history database " + rs.historyDb + ": " + st.error().message, ExitRuntime);
        (void)recover.close();
    }
    HistoryReader reader;
    if (auto st = reader.open(rs.historyDb); !st)
        return refuse("history database " + rs.historyDb + ": " + st.error().message, ExitRuntime);
    auto uuid = reader.resolveRun(runArg.toStdString());
    if (!uuid)
        return refuse(uuid.error().message,
                      uuid.error().code == ErrorCode::Storage ? ExitRuntime : ExitBadInput);
    rs.uuid = *uuid;
    auto detail = reader.runDetail(rs.uuid);
    if (!detail)
        return refuse(detail.error().message, ExitRuntime);
    rs.detail = std::move(detail).value();
    const RunSummary &sum = rs.detail.summary;
    if (sum.status == "completed")
        return refuse("run " + rs.uuid + " is completed; only crashed or cancelled runs resume");
    if (sum.status == "running") {
        std::string who;
        if (auto st =
                reader.connection().prepare("SELECT writer_pid, writer_host FROM runs WHERE uuid = ?")) {
            st->bind(1, rs.uuid);
            if (st->step() == 100 /*SQLITE_ROW*/)
                who = " (pid " + std::to_string(st->colInt(0)) + " on " + st->colText(1) + ")";
        }
        return refuse("run " + rs.uuid + " is still running in another process" + who +
                      "; wait for it or stop it first");
    }
    if (!sum.shard.empty())
        return refuse("run " + rs.uuid + " is shard " + sum.shard +
                      " of a sharded run; run that shard again instead");
    if (sum.source != "throughline-cli" && sum.source != "throughline")
        return refuse("run " + rs.uuid + " was imported (" + sum.source + "); it cannot be resumed");

    // The campaign: the file given, else the original file when it still exists, else the stored text.
    const nlohmann::json cli = rs.detail.provenance.is_object()
                                   ? rs.detail.provenance.value("cli", nlohmann::json::object())
                                   : nlohmann::json::object();
    const QString original = QString::fromStdString(cli.value("campaign_path", std::string()));
    for (const auto &e : cli.value("endpoints", nlohmann::json::array()))
        if (e.is_string())
            rs.endpoints.push_back(QString::fromStdString(e.get<std::string>()));
    const std::string storedSha = sha256Hex(QByteArray::fromStdString(rs.detail.campaignJson));
    rs.campaignPath = !campaignArg.isEmpty() ? campaignArg : original;
    if (!rs.campaignPath.isEmpty() && (campaignArg.isEmpty() ? QFileInfo(original).isFile() : true)) {
        QFile f(rs.campaignPath);
        if (!f.open(QIODevice::ReadOnly))
            return refuse("cannot read campaign file " + rs.campaignPath.toStdString());
        const std::string sha = sha256Hex(f.readAll());
        if (sha != storedSha)
            return refuse("campaign file " + rs.campaignPath.toStdString() + " has changed since run " +
                          rs.uuid + " started (sha256 now " + sha.substr(0, 12) + "…, the run's " +
                          storedSha.substr(0, 12) + "…); resume needs the campaign as it was");
        rs.campaignDir = QFileInfo(rs.campaignPath).absolutePath();
    } else {
        rs.tmp = std::make_unique<QTemporaryDir>();
        rs.campaignPath = rs.tmp->filePath(u"campaign.json"_qs);
        QFile f(rs.campaignPath);
        if (!rs.tmp->isValid() || !f.open(QIODevice::WriteOnly) ||
            f.write(QByteArray::fromStdString(rs.detail.campaignJson)) < 0)
            return refuse("cannot write the stored campaign to a temporary file", ExitRuntime);
        rs.campaignDir = original.isEmpty() ? QFileInfo(rs.campaignPath).absolutePath()
                                            : QFileInfo(original).absolutePath();
    }

    for (const PointRow &p : rs.detail.points) {
        if (p.status != "completed") {
            rs.drop.emplace_back(p.scenarioIndex, p.pointIndex);
            continue;
        }
        auto pr = PointResult::fromJson(p.aggregates);
        if (!pr)
            return refuse("stored point " + std::to_string(p.pointIndex) + " of " + p.scenarioKey +
                              " cannot be read: " + pr.error().message,
                          ExitRuntime);
        PointResult r = std::move(pr).value();
        if (p.windowStartNs != kNoTime)
            r.w0S = static_cast<double>(p.windowStartNs) / 1e9;
        if (p.windowEndNs != kNoTime)
            r.w1S = static_cast<double>(p.windowEndNs) / 1e9;
        rs.completed[{p.scenarioIndex, p.pointIndex}] = std::move(r);
    }
    auto next = reader.connection().queryInt("SELECT COALESCE(max(q.seq) + 1, 0) FROM requests q JOIN points "
                                             "p ON p.id = q.point_id WHERE p.run_id "
                                             "= " +
                                             std::to_string(sum.id));
    if (!next)
        return refuse(next.error().message, ExitRuntime);
    rs.firstSeq = static_cast<std::uint64_t>(*next);
    return -1;
}

int runRun(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(parser, u"Run a campaign against its endpoints and judge the results."_qs, u"CAMPAIGN"_qs,
                    u"Campaign JSON file (optional with --resume)."_qs);
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
    parser.addOption(
        {u"resume"_qs,
         u"Continue the crashed or cancelled run RUN (id or unique prefix of >= 8 hex digits) from "
         u"its unfinished points, with the campaign it stored (CAMPAIGN, if given, must be that "
         u"exact file)."_qs,
         u"run"_qs});
    parser.addOption(
        {u"ready-since"_qs,
         u"Cold start (endpoint cold_start enabled): measure time to ready from this moment, Unix "
         u"epoch seconds or ISO 8601 UTC (a server started just before the run); default: the "
         u"run's start."_qs,
         u"time"_qs});
    // Testing only (hidden): pretend this machine's wall clock is off by N ms (docs/cli.md).
    QCommandLineOption clockOffset(u"clock-offset-ms"_qs,
                                   u"Testing: shift this shard's wall-clock readings by N ms."_qs, u"N"_qs);
    clockOffset.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(clockOffset);
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    const bool resuming = parser.isSet(u"resume"_qs);
    if (resuming) {
        if (pos.size() > 1)
            return ctx.usageError(u"--resume RUN takes at most one CAMPAIGN file"_qs);
        for (const QString &o : {u"only"_qs, u"shard"_qs, u"start-at"_qs, u"point-slot"_qs, u"plan-only"_qs,
                                 u"no-history"_qs, u"clock-offset-ms"_qs})
            if (parser.isSet(o))
                return ctx.usageError(u"--resume cannot be combined with --"_qs + o +
                                      u" (the resumed run keeps its scenarios and records into history)"_qs);
    } else if (pos.size() != 1) {
        return ctx.usageError(pos.isEmpty() ? u"missing CAMPAIGN"_qs : u"expected one CAMPAIGN file"_qs);
    }
    ResumeState resume;
    if (resuming) {
        if (const int rc = prepareResume(ctx, parser.value(u"resume"_qs),
                                         pos.isEmpty() ? QString() : pos.front(), resume);
            rc >= 0)
            return rc;
    }
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
    auto planned = RunPlan::build(list, shard, campaign.name, campaignSha256,
                                  startAt.isValid() ? startAt.toMSecsSinceEpoch() : 0, pointSlotS);
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
    if (parser.isSet(u"ready-since"_qs)) {
        const QString v = parser.value(u"ready-since"_qs);
        bool ok = false;
        const double epochS = v.toDouble(&ok);
        qint64 ms = ok ? static_cast<qint64>(std::llround(epochS * 1000.0)) : 0;
        if (!ok) {
            const QDateTime t = QDateTime::fromString(v, Qt::ISODateWithMs);
            ok = t.isValid();
            ms = ok ? t.toMSecsSinceEpoch() : 0;
        }
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (!ok || ms <= 0 || ms > now + 60'000)
            return ctx.usageError(
                u"--ready-since: expected Unix epoch seconds or an ISO 8601 time not in the "
                u"future, got '"_qs +
                v + u"'"_qs);
        opt.readySinceUnixMs = ms;
    }

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
            if (!g_interrupted.load())
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
    std::signal(SIGINT, &onSigint);
    auto outcome = shard.whole() ? runWhole(ctx, list, opt, startAt, loaded->path, beforeRun)
                                 : runSharded(ctx, plan, opt, clockOffsetMs);
    std::signal(SIGINT, SIG_DFL);
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

    const RecordInfo recordInfo{&plan, campaignBytes.toStdString(), targetsUsed};
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
        if (auto st = recording.finish(run, res, extra, resuming); !st) {
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
        // Resume: points kept from the interrupted run carry no records; theirs come from history.
        HistoryReader stored;
        const bool haveStored = resuming && !historyDb.empty() && stored.open(historyDb);
        for (const ScenarioOutcome &so : run.scenarios) {
            for (const PointOutcome &po : so.points) {
                const auto w0 = static_cast<std::int64_t>(po.result.w0S * 1e9);
                const auto w1 = static_cast<std::int64_t>(po.result.w1S * 1e9);
                std::vector<RequestRecord> kept;
                if (po.stored) {
                    auto rs = haveStored
                                  ? StoredRecords::ofPoint(stored, run.runId, so.scenarioIndex, po.pointIndex)
                                  : Result<std::vector<RequestRecord>>(
                                        makeError(ErrorCode::Storage, "history database not available"));
                    if (rs)
                        kept = std::move(*rs);
                    else
                        std::fprintf(stderr,
                                     "run: warning: requests.csv lacks the stored point %d of %s: %s\n",
                                     po.pointIndex, so.scenario.id.c_str(), rs.error().message.c_str());
                }
                for (const RequestRecord &r : po.stored ? kept : po.records) {
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

THROUGHLINE_CLI_COMMAND("run", "run a campaign (or --resume a crashed one), write results and judge them",
                        runRun);

} // namespace Throughline::Cli
