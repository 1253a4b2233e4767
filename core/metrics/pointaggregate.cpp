#include "core/metrics/pointaggregate.h"

#include "core/metrics/clientbudget.h"
#include "core/metrics/outputthroughput.h"
#include "core/metrics/pointintervals.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace Throughline {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double perSecond(double amount, double windowS)
{
    return windowS > 0 ? amount / windowS : kNaN;
}

double perGpu(double tps, int gpus)
{
    return gpus > 0 ? tps / gpus : kNaN;
}

} // namespace

bool requestMeetsSlo(const RequestMetrics &m, const Slo &slo)
{
    if (slo.ttftMs > 0 && !(m.ttftMs <= slo.ttftMs))
        return false; // an undefined TTFT (no content) cannot meet a TTFT limit
    if (slo.tpotMs > 0 && !std::isnan(m.tpotMs) && m.tpotMs > slo.tpotMs)
        return false; // undefined TPOT (N_out − N_first < 1) cannot violate one
    if (slo.e2eMs > 0 && !(m.e2eMs <= slo.e2eMs))
        return false;
    return true;
}

GpuCounts GpuCounts::fromDeployment(const Deployment &d)
{
    GpuCounts g;
    const int replicas = std::max(1, d.replicas);
    g.total = d.gpus * replicas;
    if (d.disaggregated()) {
        g.prefill = d.prefillGpus * replicas;
        g.decode = d.decodeGpus * replicas;
        if (d.gpus < d.prefillGpus + d.decodeGpus)
            g.total = (d.prefillGpus + d.decodeGpus) * replicas;
    }
    return g;
}

PointWindow computeWindow(const PointInput &in)
{
    PointWindow w;
    for (const RequestRecord &r : in.records) {
        if (r.warmup || r.tSend == kNoTime)
            continue;
        if (w.w0Ns == kNoTime || r.tSend < w.w0Ns)
            w.w0Ns = r.tSend;
        if (w.w1Ns == kNoTime || r.tSend > w.w1Ns)
            w.w1Ns = r.tSend;
    }
    if (in.load.mode == PointLoad::Mode::Rate && in.scheduleEndNs != kNoTime && w.w0Ns != kNoTime)
        w.w1Ns = in.scheduleEndNs;
    if (w.w0Ns != kNoTime && w.w1Ns < w.w0Ns)
        w.w1Ns = w.w0Ns;
    return w;
}

PointResult aggregatePoint(const PointInput &in)
{
    std::vector<RequestMetrics> metrics;
    metrics.reserve(in.records.size());
    for (const RequestRecord &r : in.records)
        metrics.push_back(computeRequestMetrics(r, in.tokenCounter));
    return aggregatePoint(in, metrics);
}

PointResult aggregatePoint(const PointInput &in, std::span<const RequestMetrics> rm)
{
    PointResult p;
    p.load = in.load;
    p.client = in.client;
    const PointWindow w = computeWindow(in);
    const double windowS = w.seconds();
    p.windowS = windowS;
    p.w0S = w.w0Ns == kNoTime ? kNaN : static_cast<double>(w.w0Ns) / 1e9;
    p.w1S = w.w1Ns == kNoTime ? kNaN : static_cast<double>(w.w1Ns) / 1e9;

    std::vector<double> ttft, ttftQ, tpot, tpotMlperf, e2e, gaps, inter, lateness;
    {
        std::size_t nGaps = 0;
        for (const RequestMetrics &m : rm)
            nGaps += m.chunkGapsMs.size();
        gaps.reserve(nGaps); // pooled gaps can be tens of millions: avoid regrowth copies
        for (auto *v : {&ttft, &ttftQ, &tpot, &tpotMlperf, &e2e, &inter, &lateness})
            v->reserve(rm.size());
    }
    OutputThroughput output(w); // steady-state and whole-run output tokens/s
    double inputTokens = 0;     // ok measured requests
    double outMlperf = 0;       // Σ tokenizer N_out ok measured
    double goodN = 0;
    double goodTokens = 0;
    double busyNs = 0; // Σ overlap of in-flight intervals with the window (achieved concurrency)
    // Prompt tokens (extension "prompts"): server count vs intended ISL, cached tokens.
    double islIntended = 0, islErr = 0, islAbsErr = 0, islErrMax = 0;
    bool cancelled = false;

    for (std::size_t i = 0; i < in.records.size(); ++i) {
        const RequestRecord &r = in.records[i];
        const RequestMetrics &m = rm[i];

        // Steady-state and whole-run output throughput (warm-up and failed requests are fed too).
        output.add(r, m);
        // In-flight time inside the window (any request), for the achieved concurrency.
        if (r.tSend != kNoTime && w.w1Ns > w.w0Ns) {
            const std::int64_t end = r.tEnd == kNoTime ? w.w1Ns : r.tEnd;
            const std::int64_t a = std::max(r.tSend, w.w0Ns);
            const std::int64_t b = std::min(end, w.w1Ns);
            if (b > a)
                busyNs += static_cast<double>(b - a);
        }

        if (!w.measures(r))
            continue;
        ++p.nSent;
        if (r.tSched != kNoTime)
            lateness.push_back(static_cast<double>(r.tSend - r.tSched) / 1e6);
        if (r.error == ErrorClass::HarnessCancelled)
            cancelled = true;
        if (!m.ok) {
            ++p.errors[std::string(errorClassKey(r.error))];
            continue;
        }
        ++p.nOk;
        inputTokens += m.nIn;
        if (r.usage.promptTokens >= 0 && r.intendedIsl > 0) {
            PromptTokenStats &ps = p.prompts;
            const double err = static_cast<double>(r.usage.promptTokens - r.intendedIsl);
            ++ps.nUsage;
            islIntended += r.intendedIsl;
            islErr += err;
            islAbsErr += std::abs(err);
            if (std::abs(err) > std::abs(islErrMax))
                islErrMax = err;
            if (r.usage.cachedTokens >= 0) {
                ++ps.nCachedReported;
                ps.promptTokens += r.usage.promptTokens;
                ps.cachedTokens += r.usage.cachedTokens;
            }
        }
        outMlperf += m.nOutTokenizer >= 0 ? m.nOutTokenizer : m.nOut;
        if (m.nOutApproximate)
            ++p.nOutApproximate;
        if (m.tpotUndefined)
            ++p.nTpotUndefined;
        if (!std::isnan(m.ttftMs))
            ttft.push_back(m.ttftMs);
        if (!std::isnan(m.ttftQMs))
            ttftQ.push_back(m.ttftQMs);
        if (!std::isnan(m.tpotMs))
            tpot.push_back(m.tpotMs);
        if (!std::isnan(m.tpotMlperfMs))
            tpotMlperf.push_back(m.tpotMlperfMs);
        if (!std::isnan(m.e2eMs))
            e2e.push_back(m.e2eMs);
        if (!std::isnan(m.interactivityTpsUser))
            inter.push_back(m.interactivityTpsUser);
        gaps.insert(gaps.end(), m.chunkGapsMs.begin(), m.chunkGapsMs.end());
        if (requestMeetsSlo(m, in.slo)) {
            goodN += 1;
            goodTokens += m.nOut;
        }
    }

    PointMetrics &pm = p.metrics;
    pm.outputTps = output.steadyTps();
    pm.outputTpsPerGpu = perGpu(pm.outputTps, in.gpus.total);
    pm.outputTpsPerDecodeGpu = perGpu(pm.outputTps, in.gpus.decodeOrTotal());
    const double inputTps = perSecond(inputTokens, windowS);
    pm.totalTpsPerGpu = perGpu(pm.outputTps + inputTps, in.gpus.total);
    pm.inputTpsPerPrefillGpu = perGpu(inputTps, in.gpus.prefillOrTotal());
    pm.requestRate = perSecond(p.nOk, windowS);
    pm.goodputRps = perSecond(goodN, windowS);
    pm.goodputTps = perSecond(goodTokens, windowS);
    pm.outputTpsMlperf = perSecond(outMlperf, windowS);
    pm.outputTpsWhole = output.wholeTps();

    if (PromptTokenStats &ps = p.prompts; ps.nUsage > 0) {
        ps.islIntendedMean = islIntended / ps.nUsage;
        ps.islErrorMean = islErr / ps.nUsage;
        ps.islErrorMax = islErrMax;
        ps.islErrorPct = islIntended > 0 ? 100.0 * islAbsErr / islIntended : kNaN;
        ps.islErrorFlagged = ps.islErrorPct > PromptTokenStats::kIslErrorFlagPct;
        ps.cacheHitRate = ps.promptTokens > 0 ? ps.cachedTokens / ps.promptTokens : kNaN;
        if (ps.islErrorFlagged) {
            char b[200];
            std::snprintf(b, sizeof b,
                          "ISL error: the server counted %+.1f prompt tokens per request on average "
                          "(%.1f %% of %.0f, max %+.0f); prompt lengths are not what was intended",
                          ps.islErrorMean, ps.islErrorPct, ps.islIntendedMean, ps.islErrorMax);
            p.validity.notes.emplace_back(b);
        }
    }

    pm.ttftMs = summarize(std::move(ttft));
    pm.ttftQMs = summarize(std::move(ttftQ));
    pm.tpotMs = summarize(std::move(tpot));
    pm.tpotMlperfMs = summarize(std::move(tpotMlperf));
    pm.e2eMs = summarize(std::move(e2e));
    pm.chunkGapMs = summarize(std::move(gaps));
    pm.interactivityTpsUser = summarize(std::move(inter));

    if (std::isnan(p.client.sendLatenessP99Ms) && !lateness.empty()) {
        std::sort(lateness.begin(), lateness.end());
        p.client.sendLatenessP99Ms = percentileSorted(lateness, 0.99);
    }

    // Validity flags, in the documented order.
    const ValidityOptions &vo = in.validity;
    const double medianE2eS = pm.e2eMs.n > 0 ? pm.e2eMs.p[0] / 1000.0 : 0.0;
    if (windowS <= 0 || windowS < std::max(vo.minWindowS, vo.e2eFactor * medianE2eS))
        p.validity.flags.emplace_back(ValidityFlag::WindowShort);
    if (p.nOk < vo.minCompleted)
        p.validity.flags.emplace_back(ValidityFlag::LowSample);
    if (p.nSent > 0 && static_cast<double>(p.nSent - p.nOk) / p.nSent > vo.maxErrorRate)
        p.validity.flags.emplace_back(ValidityFlag::ErrorRate);
    if (in.truncated || cancelled)
        p.validity.flags.emplace_back(ValidityFlag::Truncated);

    if (std::isnan(p.client.sendBlockedMs)) {
        // Not measured by the engine (imports, tests): from the records, over the span they cover.
        std::int64_t first = kNoTime, last = kNoTime;
        for (const RequestRecord &r : in.records) {
            if (r.tSched != kNoTime)
                first = first == kNoTime ? r.tSched : std::min(first, r.tSched);
            const std::int64_t end = r.tEnd != kNoTime ? r.tEnd : r.tSend;
            if (end != kNoTime)
                last = last == kNoTime ? end : std::max(last, end);
        }
        if (first != kNoTime && last > first) {
            const auto blocked = static_cast<double>(sendBlockedNs(in.records));
            p.client.sendBlockedMs = blocked / 1e6;
            p.client.sendBlockedPct = 100.0 * blocked / static_cast<double>(last - first);
        }
    }

    // Judged on the client's error budget, in wall-clock time (docs/metrics.md "The client's error budget"):
    // its CPU, how long its send path was blocked and how much delay it added to what it read. Send
    // lateness p99 is reported, not judged: one late hand-off in a hundred is not a client that cannot
    // keep up, and on a time-scaled simulator a fraction of a millisecond is all it takes.
    bool clientBound = false;
    if (p.client.cpuPct > vo.maxClientCpuPct)
        clientBound = true;
    if (p.client.sendBlockedPct > vo.maxSendBlockedPct && p.client.sendBlockedMs > vo.minSendBlockedMs)
        clientBound = true;
    if (p.client.addedDelayP99Ms > vo.maxAddedDelayMs)
        clientBound = true;
    if (in.load.mode == PointLoad::Mode::Concurrency && in.load.concurrency > 0) {
        double achieved = in.achievedConcurrency;
        if (std::isnan(achieved) && w.w1Ns > w.w0Ns)
            achieved = busyNs / static_cast<double>(w.w1Ns - w.w0Ns);
        if (achieved < vo.minAchievedShare * in.load.concurrency)
            clientBound = true;
    } else if (in.load.mode == PointLoad::Mode::Rate && in.load.rate > 0) {
        if (in.achievedRate < vo.minAchievedShare * in.load.rate)
            clientBound = true;
    }
    if (clientBound)
        p.validity.flags.emplace_back(ValidityFlag::ClientBound);
    p.validity.valid = p.validity.flags.empty();
    p.intervals = computePointIntervals(in, rm, w, p);
    return p;
}

} // namespace Throughline
