#include "rundriver.h"

#include "runtable.h"
#include "shardrunner.h"

#include <QDateTime>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

namespace Throughline::Cli {
namespace {

std::atomic<bool> g_interrupted{false};

void onInterrupt(int)
{
    g_interrupted = true;
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

} // namespace

void installInterruptHandler()
{
    std::signal(SIGINT, &onInterrupt);
    std::signal(SIGTERM, &onInterrupt);
}

void restoreInterruptHandler()
{
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

bool interrupted()
{
    return g_interrupted.load();
}

Result<CampaignRun::Finished> runWhole(Context &ctx, CampaignRun &run, std::size_t scenarioCount,
                                       const QDateTime &startAt, const QString &path)
{
    std::FILE *h = ctx.human();
    if (!waitUntil(h, startAt))
        return makeError(ErrorCode::Cancelled, "interrupted");
    // The run row right before t=0 (after --start-at); a failed resume ends the run before any load.
    if (auto st = run.begin(); !st)
        return st.error();
    RunController &controller = run.controller();
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
            // A run planned by time (duration-bounded points) has no request total to count against.
            const std::string total =
                p.plannedRequests > 0 ? "/" + std::to_string(p.plannedRequests) : std::string();
            std::fprintf(
                stderr, "%s[%d/%d] %s %s  %llu%s requests, %llu failed, %d in flight, %.1f s, ETA %s%s",
                tty ? "\r\033[K" : "", p.scenarioIndex + 1, p.scenarioCount, p.scenarioId.c_str(),
                p.pointLabel.c_str(), static_cast<unsigned long long>(p.finishedRequests), total.c_str(),
                static_cast<unsigned long long>(p.failedRequests), p.inFlight, p.elapsedS,
                p.etaS < 0 ? "?" : (formatFixed(p.etaS, 0) + " s").c_str(), tty ? "" : "\n");
            std::fflush(stderr);
        }
    });
    std::fprintf(h, "run %s: %zu scenario(s) from %s\n", controller.runId().c_str(), scenarioCount,
                 path.toLocal8Bit().constData());
    auto outcome = run.run();
    done = true;
    progress.join();
    if (tty)
        std::fprintf(stderr, "\r\033[K");
    return outcome;
}

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

} // namespace Throughline::Cli
