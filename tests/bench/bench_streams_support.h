// Shared parts of bench_streams (bench_streams.cpp says what it measures): options, the deployment every mode
// drives, the simulator child, one point run with its RSS sampler, and each mode's entry point.
#pragma once

#include "core/run/runcontroller.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace Throughline::StreamsBench {

struct Options {
    int gpus = 8;       // --gpus: H200s simulated (2,048 running sequences per GPU: 8 → 16,384)
    double tailS = 100; // --tail: hold mode's run lasts ramp + hold + this (room for the prefill backlog)
    int workers = 0;    // --workers (0 = the engine's default: one per core)
    int simNice = 0;    // --sim-nice: niceness of every simulator thread (0 = as started)
    int simCpu = -1;    // --sim-cpu: pin every simulator thread to this CPU (-1 = as started)
    bool firstTokenPriority = true; // --first-token-priority on|off (delay)
    int clientCpu =
        -1; // --client-cpu: pin this process (every thread: engine workers, controller) to this CPU
};
extern Options g_opt;
extern std::atomic<int> g_simPort; // port of the simulator child of the current point (hold diagnostics)

long long rssKb(int pid = 0);
double processCpuS();                        // this process, user + system
double pct(std::vector<double> v, double p); // p in percent; 0 for an empty sample
std::int64_t firstContentNs(const RequestRecord &r);

// gpt-oss-120b on g_opt.gpus × H200 (FP8), simulated without jitter, one closed-loop point.
Scenario bigDeployment(const Scenario &base, int isl, int osl);
// A throughline-sim child per point (ground-truth log to truthPath unless empty), placed by g_opt.
SimLauncher childLauncher(const std::string &truthPath);

// Runs one closed-loop point; a sampler thread records the client's peak RSS and in-flight count meanwhile.
struct PointRun {
    Result<RunOutcome> outcome = makeError(ErrorCode::Internal, "not run");
    long long rssBeforeKb = 0;
    long long rssPeakKb = 0;
    long long rssAllInFlightKb = 0; // peak while every stream was still in flight (none finished yet)
    int peakInFlight = 0;
    long long simRssPeakKb = 0;
    std::uint64_t completions = 0; // requests the engine saw complete over the run (after run() returned)
};
PointRun runPoint(const Scenario &s, const std::string &truthPath);

// The modes; each prints its figures and returns 0 (goal met or figures only), 1 (a run failed) or 3 (not
// held).
int benchDelay(const Scenario &base, const std::vector<int> &levels,
               double bigTimeScale);       // bench_streams_delay.cpp
int benchCpu(const Scenario &base, int c); // bench_streams_delay.cpp
int benchHold(const Scenario &base, int streams, double holdS, double timeScale,
              double rampS);                                              // bench_streams_hold.cpp
int benchRss(const Scenario &base, int streams, const std::string &only); // bench_streams_rss.cpp

} // namespace Throughline::StreamsBench
