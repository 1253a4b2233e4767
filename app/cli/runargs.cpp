#include "runargs.h"

#include "runmlperf.h"

#include <cmath>

namespace Throughline::Cli {

void addRunOptions(const Context &ctx, QCommandLineParser &parser)
{
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
    parser.addOption(
        {u"strict"_qs, u"Treat no_target, invalid and inconclusive verdicts as failures (exit 1)."_qs});
    parser.addOption({u"baseline"_qs,
                      u"Compare the finished run with RUN (id prefix, .tlrun bundle or results.json) or auto "
                      u"(targets.baseline_run, else the newest earlier run of the campaign); exit 1 on a "
                      u"regression beyond noise."_qs,
                      u"RUN|auto"_qs});
    parser.addOption({u"workers"_qs, u"Engine worker threads (default: one per core)."_qs, u"n"_qs, u"0"_qs});
    parser.addOption({u"first-token-priority"_qs,
                      u"Read order of the engine, overriding the campaign plan's first_token_priority: on "
                      u"(default) reads requests still waiting for their first token ahead of the others "
                      u"(tighter TTFT); off reads every ready socket in turn (compare both when chunk-gap "
                      u"tails at thousands of streams matter; docs/metrics.md)."_qs,
                      u"on|off"_qs});
    parser.addOption({u"read-path"_qs,
                      u"Who reads the responses, overriding every endpoint's read_path: auto (default) the "
                      u"engine itself for plain-HTTP/1.1 endpoints without a proxy, libcurl for the rest; "
                      u"libcurl always libcurl (docs/metrics.md, Read paths)."_qs,
                      u"auto|libcurl"_qs});
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
    addMlperfRunOptions(parser); // runmlperf.h
}

int readRunArgs(const Context &ctx, const QCommandLineParser &parser, RunArgs &args)
{
    args.positional = parser.positionalArguments();
    args.resuming = parser.isSet(u"resume"_qs);
    const QStringList &pos = args.positional;
    if (args.resuming) {
        if (pos.size() > 1)
            return ctx.usageError(u"--resume RUN takes at most one CAMPAIGN file"_qs);
        for (const QString &o :
             {u"only"_qs, u"shard"_qs, u"start-at"_qs, u"point-slot"_qs, u"plan-only"_qs, u"no-history"_qs,
              u"clock-offset-ms"_qs, u"first-token-priority"_qs, u"read-path"_qs})
            if (parser.isSet(o))
                return ctx.usageError(u"--resume cannot be combined with --"_qs + o +
                                      u" (the resumed run keeps its scenarios and records into history)"_qs);
    } else if (pos.size() != 1) {
        return ctx.usageError(pos.isEmpty() ? u"missing CAMPAIGN"_qs : u"expected one CAMPAIGN file"_qs);
    }
    if (parser.isSet(u"first-token-priority"_qs)) {
        const QString v = parser.value(u"first-token-priority"_qs);
        if (v != u"on" && v != u"off")
            return ctx.usageError(u"--first-token-priority: expected on or off, got '"_qs + v + u"'"_qs);
        args.firstTokenPriority = v == u"on";
    }
    if (parser.isSet(u"read-path"_qs)) {
        const QString v = parser.value(u"read-path"_qs);
        if (v != u"auto" && v != u"libcurl")
            return ctx.usageError(u"--read-path: expected auto or libcurl, got '"_qs + v + u"'"_qs);
        args.readPath = v == u"auto" ? Endpoint::ReadPath::Auto : Endpoint::ReadPath::Libcurl;
    }
    if (parser.isSet(u"clock-offset-ms"_qs)) {
        bool ok = false;
        args.clockOffsetMs = parser.value(u"clock-offset-ms"_qs).toLongLong(&ok);
        if (!ok || args.clockOffsetMs < -3'600'000 || args.clockOffsetMs > 3'600'000)
            return ctx.usageError(
                u"--clock-offset-ms: expected whole milliseconds within ±3600000, got '"_qs +
                parser.value(u"clock-offset-ms"_qs) + u"'"_qs);
        if (!parser.isSet(u"shard"_qs))
            return ctx.usageError(u"--clock-offset-ms needs --shard i/N (it shifts a shard's clock)"_qs);
    }
    if (parser.isSet(u"point-slot"_qs)) {
        bool ok = false;
        args.pointSlotS = parser.value(u"point-slot"_qs).toDouble(&ok);
        if (!ok || !std::isfinite(args.pointSlotS) || args.pointSlotS <= 0)
            return ctx.usageError(u"--point-slot: expected a positive number of seconds, got '"_qs +
                                  parser.value(u"point-slot"_qs) + u"'"_qs);
        if (!parser.isSet(u"shard"_qs) || !parser.isSet(u"start-at"_qs))
            return ctx.usageError(u"--point-slot needs --shard i/N and --start-at TIME (the shards share the "
                                  u"schedule)"_qs);
    }
    if (parser.isSet(u"shard"_qs)) {
        auto sh = ShardSelector::parse(parser.value(u"shard"_qs).toStdString());
        if (!sh)
            return ctx.usageError(u"--shard: "_qs + QString::fromStdString(sh.error().message));
        args.shard = *sh;
    }
    if (parser.isSet(u"start-at"_qs)) {
        args.startAt = QDateTime::fromString(parser.value(u"start-at"_qs), Qt::ISODateWithMs);
        if (!args.startAt.isValid() || args.startAt.timeSpec() == Qt::LocalTime)
            return ctx.usageError(u"--start-at: expected an ISO 8601 time with a zone, e.g. "
                                  u"2026-11-29T20:00:00Z, got '"_qs +
                                  parser.value(u"start-at"_qs) + u"'"_qs);
        if (args.startAt > QDateTime::currentDateTimeUtc().addDays(1))
            return ctx.usageError(u"--start-at: "_qs + parser.value(u"start-at"_qs) +
                                  u" is more than 24 h away"_qs);
    }

    return -1;
}

int readReadySince(const Context &ctx, const QCommandLineParser &parser, std::int64_t &unixMs)
{
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
        unixMs = ms;
    }
    return -1;
}

} // namespace Throughline::Cli
