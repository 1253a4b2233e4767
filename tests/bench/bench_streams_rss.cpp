// bench_streams rss (bench_streams.cpp says what it measures).
#include "bench_streams_support.h"

#include <cstdio>
#include <string>

namespace Throughline::StreamsBench {

int benchRss(const Scenario &base, int streams, const std::string &only)
{
    // Each stream is held to its last token: the record keeps a timestamp per event, so a Generation stream's
    // memory peaks at its end. Sampled every 250 ms while no stream had finished yet (all start within the
    // 2 s ramp and have the same length, so the last sample is close to their ends); the peak over the whole
    // point, which also holds the finished records while they are aggregated, is printed beside it.
    struct Shape {
        const char *name;
        int isl, osl, streams;
        double timeScale, goalKiB;
    };
    const Shape shapes[] = {{"Chat 128/128", 128, 128, streams, 1.0, 64},
                            {"Generation 512/8000", 512, 8000, std::min(streams, 512), 4.0, 160}};
    for (const Shape &sh : shapes) {
        if ((only == "rss-chat" && sh.osl != 128) || (only == "rss-gen" && sh.osl == 128))
            continue; // one shape per process gives each a clean heap baseline
        Scenario s = bigDeployment(base, sh.isl, sh.osl);
        s.endpoint.sim.timeScale = sh.timeScale;
        s.plan.concurrencies = {sh.streams};
        s.plan.requestCount = sh.streams;
        s.plan.rampUpS = 2;
        s.plan.maxDurationS = 1200;
        s.plan.requestTimeoutS = 3600;
        PointRun pr = runPoint(s, {});
        if (!pr.outcome.ok()) {
            std::fprintf(stderr, "[rss] %s: %s\n", sh.name, pr.outcome.error().message.c_str());
            return 1;
        }
        const auto &recs = pr.outcome->scenarios.at(0).points.at(0).records;
        long long nOut = 0;
        int ok = 0;
        for (const RequestRecord &r : recs) {
            nOut += r.nOut;
            ok += r.ok();
        }
        if (pr.rssAllInFlightKb == 0) { // the sampler never saw every stream in flight with none finished
            std::printf(
                "[rss] %s: %d streams (%d ok) finished before a sample with all in flight (every 250 ms): "
                "use more streams; point peak %.1f MiB\n",
                sh.name, sh.streams, ok, pr.rssPeakKb / 1024.0);
            continue;
        }
        std::printf(
            "[rss] %s: %d streams (%d ok, mean N_out %.0f), client RSS %.1f MiB -> %.1f MiB with all in "
            "flight: %.1f KiB per in-flight stream (goal <= %.0f); point peak incl. aggregation %.1f MiB\n",
            sh.name, sh.streams, ok, recs.empty() ? 0.0 : double(nOut) / double(recs.size()),
            pr.rssBeforeKb / 1024.0, pr.rssAllInFlightKb / 1024.0,
            double(pr.rssAllInFlightKb - pr.rssBeforeKb) / sh.streams, sh.goalKiB, pr.rssPeakKb / 1024.0);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace Throughline::StreamsBench
