// bench_intervals: the interval studies of docs/metrics.md with many seeded repeats (never in CI; the CI
// version is tst_coverage with 40). Virtual-clock simulator runs (tests/core/stats/coveragestudy.h), so the
// figures do not depend on the machine's load; wall time is printed for the record.
//   bench_intervals [--repeats N] [--pairs N] [--detect N] [--seeds N] [--slices N] [--tail 1]
// (--tail 1: a cool-down tail of C unmeasured requests after the budget, coveragestudy.h)
// Prints, per metric, how often the nominal 95 % interval held the long-run truth (goal 93–98.5 %), the
// share of identical pairs with a campaign-level `regressed` (goal ≤ 5 %), the share of 10 %-slower pairs
// regressed on output tok/s (goal ≥ 90 %), and the "requests needed" check on output tok/s: a target
// at truth × 0.99 ("≥"), first sample inconclusive → a run of the estimated size passes in ≥ 70 % of
// those seeds; a target exactly at the truth stays inconclusive at 4× the requests in ≥ 90 %.
#include "tests/core/stats/coveragestudy.h"

#include "core/stats/intervalverdict.h"
#include "core/stats/samplesize.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace StudySupport;

namespace {
int intArg(int argc, char **argv, const char *name, int fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return std::atoi(argv[i + 1]);
    return fallback;
}

// Per metric: the estimates' bias against the truth and spread, the mean width of bounded intervals in units
// of that spread (3.92 would be a normal 95 % interval) and on which side the truth was missed.
void printSides(const Coverage &c, const Truth &truth)
{
    const struct {
        const char *name;
        const MissSides &sides;
        double truth;
    } rows[] = {{"TTFT p90", c.ttftSides, truth.ttftP90},
                {"TPOT p50", c.tpotSides, truth.tpotP50},
                {"output tok/s", c.tpsSides, truth.outputTps}};
    for (const auto &r : rows) {
        const double sd = r.sides.sd(c.repeats);
        std::printf(
            "  %-12s bias %+.2f %% (%+.2f sd), width %.2f sd (%d bounded), truth below %d, above %d\n",
            r.name, 100 * (r.sides.mean(c.repeats) / r.truth - 1),
            sd > 0 ? (r.sides.mean(c.repeats) - r.truth) / sd : 0.0, sd > 0 ? r.sides.meanWidth() / sd : 0.0,
            r.sides.bounded, r.sides.below, r.sides.above);
    }
}

Interval tpsOf(const StudyConfig &c, std::uint64_t seed, int measured)
{
    const Measured m = measure(c, seed, measured + c.warmup(), c.warmup());
    return steadyOutputTpsInterval(m.records, m.metrics, m.window).interval;
}
} // namespace

int main(int argc, char **argv)
{
    const int repeats = intArg(argc, argv, "--repeats", 400);
    const int pairs = intArg(argc, argv, "--pairs", 200);
    const int detect = intArg(argc, argv, "--detect", 40);
    const int seeds = intArg(argc, argv, "--seeds", 200);
    const auto t0 = std::chrono::steady_clock::now();
    StudyConfig config;
    config.slices = std::size_t(intArg(argc, argv, "--slices", 0));
    config.coolDownTail = intArg(argc, argv, "--tail", 0) != 0;
    const Truth truth = longRunTruth(config);
    std::printf("truth (run of %d requests): TTFT p90 %.3f ms, TPOT p50 %.4f ms, output %.2f tok/s\n",
                200 * config.requests(), truth.ttftP90, truth.tpotP50, truth.outputTps);

    const Coverage c = coverage(config, truth, repeats, 0.95, 100000);
    std::printf(
        "coverage of nominal 95 %% over %d repeats: TTFT p90 %.1f %%, TPOT p50 %.1f %%, output tok/s %.1f %%"
        " (goal 93-98.5 %%)\n",
        repeats, 100 * c.share(c.ttft), 100 * c.share(c.tpot), 100 * c.share(c.tps));
    printSides(c, truth);
    // The same at 4 × the budget: a miss that comes from the estimate's bias (the drain of the closed loop's
    // last C − 1 measured requests, a share C / n of the sample) shrinks with n; a narrow interval would not.
    StudyConfig longer = config;
    longer.budgetScale = 4;
    const Coverage c4 = coverage(longer, truth, repeats, 0.95, 100000);
    std::printf("at 4 x the budget (%d measured requests): TTFT p90 %.1f %%, TPOT p50 %.1f %%, output tok/s "
                "%.1f %%\n",
                longer.requests() - longer.warmup(), 100 * c4.share(c4.ttft), 100 * c4.share(c4.tpot),
                100 * c4.share(c4.tps));
    printSides(c4, truth);

    int alarms = 0;
    for (int i = 0; i < pairs; ++i)
        alarms += overallOutcome(comparePair(config, config, 300000 + 2 * std::uint64_t(i),
                                             300001 + 2 * std::uint64_t(i))) == ComparisonOutcome::Regressed;
    std::printf("identical pairs with a campaign-level regressed: %d of %d (%.1f %%, goal <= 5 %%)\n", alarms,
                pairs, 100.0 * alarms / pairs);

    StudyConfig slower = config;
    slower.slowdownPct = 10;
    int detected = 0;
    for (int i = 0; i < detect; ++i)
        detected +=
            comparePair(config, slower, 400000 + 2 * std::uint64_t(i), 400001 + 2 * std::uint64_t(i))[2]
                .outcome == ComparisonOutcome::Regressed;
    std::printf("10 %% slower regressed on output tok/s: %d of %d (goal >= 90 %%)\n", detected, detect);

    const int measured = config.requests() - config.warmup();
    const double target = truth.outputTps * 0.99;
    int inconclusive = 0, decided = 0, notDecidable = 0;
    for (int s = 0; s < seeds; ++s) {
        const Interval first = tpsOf(config, 500000 + std::uint64_t(s), measured);
        if (judgeInterval(first, TargetDirection::AtLeast, target) != IntervalVerdict::Inconclusive)
            continue;
        ++inconclusive;
        const SampleSizeEstimate e = samplesToDecide(first, measured, Threshold::exactly(target));
        if (e.kind != SampleSizeEstimate::Kind::Estimate) {
            ++notDecidable;
            continue;
        }
        const int n = int(std::min(e.requiredN, 200000.0));
        decided += judgeInterval(tpsOf(config, 600000 + std::uint64_t(s), n), TargetDirection::AtLeast,
                                 target) == IntervalVerdict::Pass;
    }
    std::printf(
        "target truth x 0.99 (>=): %d of %d first samples inconclusive, %d of those passed once run with "
        "the estimate (%.1f %%, goal >= 70 %%), %d not decidable\n",
        inconclusive, seeds, decided, inconclusive ? 100.0 * decided / inconclusive : 0.0, notDecidable);
    int stays = 0;
    for (int s = 0; s < seeds; ++s)
        stays += judgeInterval(tpsOf(config, 700000 + std::uint64_t(s), 4 * measured),
                               TargetDirection::AtLeast, truth.outputTps) == IntervalVerdict::Inconclusive;
    std::printf("target at the truth, 4x requests: inconclusive in %d of %d (goal >= 90 %%)\n", stays, seeds);
    std::printf("wall %.1f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}
