#pragma once
// Command line of `throughline-cli run`: its options, and the checks of those that do not need the campaign
// (positional CAMPAIGN vs --resume, --clock-offset-ms, --point-slot, --shard, --start-at, --ready-since,
// --first-token-priority).
// Every check prints "throughline-cli run: …" naming the option and returns exit code 2
// (Context::usageError).

#include "command.h"

#include "core/campaign/endpoint.h"
#include "core/campaign/shardselector.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace Throughline::Cli {

struct RunArgs {
    QStringList positional;   // CAMPAIGN: exactly one, or at most one with --resume
    bool resuming = false;    // --resume RUN
    qint64 clockOffsetMs = 0; // --clock-offset-ms (testing, shards only)
    double pointSlotS = 0;    // --point-slot seconds (0 = points back to back)
    ShardSpec shard;          // --shard i/N (default: the whole campaign)
    QDateTime startAt;        // --start-at (invalid = start now)
    // --first-token-priority on|off: overrides every scenario's plan (LoadPlan::firstTokenPriority); unset =
    // the campaign's value.
    std::optional<bool> firstTokenPriority;
    // --read-path auto|libcurl: overrides every endpoint's read_path (Endpoint::readPath); unset = the
    // campaign's.
    std::optional<Endpoint::ReadPath> readPath;
};

// `parser` set up for `run` (Context::setupParser) with all of its options.
void addRunOptions(const Context &ctx, QCommandLineParser &parser);

// After Context::parse: reads and checks the options above. Returns -1 when they are fine, else the exit code
// (message printed).
int readRunArgs(const Context &ctx, const QCommandLineParser &parser, RunArgs &args);

// --ready-since (Unix epoch seconds or ISO 8601, not in the future) as Unix ms; `unixMs` is left alone when
// the option is not given. Returns -1 when fine, else the exit code (message printed).
int readReadySince(const Context &ctx, const QCommandLineParser &parser, std::int64_t &unixMs);

} // namespace Throughline::Cli
