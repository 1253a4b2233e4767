#include "core/metrics/pointrateintervals.h"

#include "core/metrics/outputthroughput.h"

#include <algorithm>
#include <numeric>

namespace Throughline {

std::size_t measuredOk(std::span<const RequestRecord> records, std::span<const RequestMetrics> metrics,
                       const PointWindow &window)
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < records.size() && i < metrics.size(); ++i)
        n += window.measures(records[i]) && metrics[i].ok;
    return n;
}

std::size_t defaultSlices(std::span<const RequestRecord> records, std::span<const RequestMetrics> metrics,
                          const PointWindow &window, const PointIntervalOptions &options)
{
    return options.slices ? options.slices
                          : std::clamp<std::size_t>(measuredOk(records, metrics, window) / 4, 20, 400);
}

// Block bootstrap of Σ values ÷ (end − start) over slices of [startNs, endNs].
namespace {
Interval rateInterval(const std::vector<double> &timesS, const std::vector<double> &values,
                      std::int64_t startNs, std::int64_t endNs, std::size_t slices, double level)
{
    if (startNs == kNoTime || endNs == kNoTime || endNs <= startNs)
        return Interval{.level = level, .method = IntervalMethod::BlockBootstrap};
    const SlicedWindow w = sliceWindow(timesS, values, double(startNs) / 1e9, double(endNs) / 1e9, slices);
    BlockBootstrapOptions o;
    o.level = level;
    return blockBootstrapRatio(w.sums, w.seconds, o).interval;
}

Interval divided(Interval iv, int by)
{
    if (by <= 0)
        return Interval{.level = iv.level, .method = iv.method};
    iv.estimate /= by;
    iv.lower /= by;
    iv.upper /= by;
    return iv;
}

// Per-request amounts of the measured successful requests, keyed by t_send (request rate, goodput, input
// tokens, MLPerf output tokens): the numerators of the send-time rates.
struct SendTimeSeries {
    std::vector<double> times, ok, good, goodTokens, inputTokens, mlperfTokens;
};

SendTimeSeries sendTimeSeries(const PointInput &in, std::span<const RequestMetrics> metrics,
                              const PointWindow &window)
{
    SendTimeSeries s;
    for (std::size_t i = 0; i < in.records.size() && i < metrics.size(); ++i) {
        const RequestRecord &r = in.records[i];
        const RequestMetrics &m = metrics[i];
        if (!window.measures(r) || !m.ok)
            continue;
        const bool good = requestMeetsSlo(m, in.slo);
        s.times.push_back(double(r.tSend) / 1e9);
        s.ok.push_back(1);
        s.good.push_back(good ? 1 : 0);
        s.goodTokens.push_back(good ? m.nOut : 0);
        s.inputTokens.push_back(m.nIn);
        s.mlperfTokens.push_back(m.nOutTokenizer >= 0 ? m.nOutTokenizer : m.nOut);
    }
    return s;
}

// Output tokens of the whole-run variant: content events of measured successful requests, each request's
// tokens spread over its events so they sum to its N_out (OutputThroughput::wholeTps), over the span from
// the first t_send to the last t_end.
Interval wholeRunOutputInterval(const PointInput &in, std::span<const RequestMetrics> metrics,
                                const PointWindow &window, std::size_t slices, double level)
{
    std::vector<double> times, tokens;
    std::int64_t start = kNoTime, end = kNoTime;
    for (std::size_t i = 0; i < in.records.size() && i < metrics.size(); ++i) {
        const RequestRecord &r = in.records[i];
        const RequestMetrics &m = metrics[i];
        if (!window.measures(r) || !m.ok)
            continue;
        start = start == kNoTime ? r.tSend : std::min(start, r.tSend);
        if (r.tEnd != kNoTime)
            end = end == kNoTime ? r.tEnd : std::max(end, r.tEnd);
        std::vector<double> perEvent = tokensPerContentEvent(r, m.nOut);
        const double sum = std::accumulate(perEvent.begin(), perEvent.end(), 0.0);
        std::size_t k = 0;
        for (const StreamEvent &e : r.events) {
            if (e.kind != StreamEvent::Kind::Content)
                continue;
            times.push_back(double(e.tNs) / 1e9);
            tokens.push_back(sum > 0 ? perEvent[k] * m.nOut / sum : 0.0);
            ++k;
        }
    }
    return rateInterval(times, tokens, start, end, slices, level);
}

// Output tokens of every content event of any request (warm-up and failed included), with the same
// tokens-per-event rule as OutputThroughput: the numerators of the steady-state output rate.
struct TimedAmounts {
    std::vector<double> timesS, amounts;
};

TimedAmounts contentEventTokens(std::span<const RequestRecord> records,
                                std::span<const RequestMetrics> metrics)
{
    TimedAmounts out;
    for (std::size_t i = 0; i < records.size() && i < metrics.size(); ++i) {
        const RequestMetrics &m = metrics[i];
        if (m.contentEvents == 0)
            continue;
        const std::vector<double> perEvent = tokensPerContentEvent(records[i], m.nOut);
        std::size_t k = 0;
        for (const StreamEvent &e : records[i].events) {
            if (e.kind != StreamEvent::Kind::Content)
                continue;
            out.timesS.push_back(double(e.tNs) / 1e9);
            out.amounts.push_back(k < perEvent.size() ? perEvent[k] : 0.0);
            ++k;
        }
    }
    return out;
}

// The steady-state output rate over the window, from the content events' tokens.
BootstrapResult steadyOutputInterval(const TimedAmounts &events, const PointWindow &window,
                                     std::size_t slices, double level)
{
    const SlicedWindow w = sliceWindow(events.timesS, events.amounts, double(window.w0Ns) / 1e9,
                                       double(window.w1Ns) / 1e9, slices);
    BlockBootstrapOptions o;
    o.level = level;
    return blockBootstrapRatio(w.sums, w.seconds, o);
}

// total_tps: output tokens by event time plus input tokens of measured successful requests by send time.
Interval totalTpsInterval(TimedAmounts all, const PointWindow &window, const SendTimeSeries &sent,
                          std::size_t slices, double level)
{
    all.timesS.insert(all.timesS.end(), sent.times.begin(), sent.times.end());
    all.amounts.insert(all.amounts.end(), sent.inputTokens.begin(), sent.inputTokens.end());
    return rateInterval(all.timesS, all.amounts, window.w0Ns, window.w1Ns, slices, level);
}

} // namespace

BootstrapResult steadyOutputTpsInterval(std::span<const RequestRecord> records,
                                        std::span<const RequestMetrics> metrics, const PointWindow &window,
                                        const PointIntervalOptions &options)
{
    return steadyOutputInterval(contentEventTokens(records, metrics), window,
                                defaultSlices(records, metrics, window, options), options.level);
}

void addRateIntervals(PointIntervals &out, const PointInput &in, std::span<const RequestMetrics> metrics,
                      const PointWindow &window)
{
    const double level = in.confidenceLevel;
    PointIntervalOptions options;
    options.level = level;
    const std::size_t slices = defaultSlices(in.records, metrics, window, options);
    // The content events' tokens feed both the output rate and the total rate: collected once.
    const TimedAmounts events = contentEventTokens(in.records, metrics);
    const Interval output = steadyOutputInterval(events, window, slices, level).interval;
    out.set("output_tps", "value", output);
    out.set("output_tps_per_gpu", "value", divided(output, in.gpus.total));
    out.set("output_tps_per_decode_gpu", "value", divided(output, in.gpus.decodeOrTotal()));

    const SendTimeSeries s = sendTimeSeries(in, metrics, window);
    const auto sendRate = [&](const std::vector<double> &values) {
        return rateInterval(s.times, values, window.w0Ns, window.w1Ns, slices, level);
    };
    out.set("request_rate", "value", sendRate(s.ok));
    out.set("goodput_rps", "value", sendRate(s.good));
    out.set("goodput_tps", "value", sendRate(s.goodTokens));
    out.set("output_tps_mlperf", "value", sendRate(s.mlperfTokens));
    out.set("input_tps_per_prefill_gpu", "value", divided(sendRate(s.inputTokens), in.gpus.prefillOrTotal()));
    out.set("output_tps_whole", "value", wholeRunOutputInterval(in, metrics, window, slices, level));
    out.set("total_tps_per_gpu", "value",
            divided(totalTpsInterval(events, window, s, slices, level), in.gpus.total));
}

} // namespace Throughline
