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

namespace {
bool emptySpan(std::int64_t startNs, std::int64_t endNs)
{
    return startNs == kNoTime || endNs == kNoTime || endNs <= startNs;
}

Interval slicedInterval(const SlicedWindow &w, double level)
{
    BlockBootstrapOptions o;
    o.level = level;
    return blockBootstrapRatio(w.sums, w.seconds, o).interval;
}

// Block bootstrap of Σ values ÷ (end − start) over slices of [startNs, endNs].
Interval rateInterval(const std::vector<double> &timesS, const std::vector<double> &values,
                      std::int64_t startNs, std::int64_t endNs, std::size_t slices, double level)
{
    if (emptySpan(startNs, endNs))
        return Interval{.level = level, .method = IntervalMethod::BlockBootstrap};
    return slicedInterval(sliceWindow(timesS, values, double(startNs) / 1e9, double(endNs) / 1e9, slices),
                          level);
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

// Calls add(time s, tokens) for every content event of record r, each request's tokens spread over its
// events so they sum to its N_out when `normalised` (OutputThroughput::wholeTps), else as
// tokensPerContentEvent gives them (the steady-state rule).
template <typename Add>
void forContentEventTokens(const RequestRecord &r, const RequestMetrics &m, bool normalised, Add &&add)
{
    const std::vector<double> perEvent = tokensPerContentEvent(r, m.nOut);
    const double sum = normalised ? std::accumulate(perEvent.begin(), perEvent.end(), 0.0) : 0.0;
    std::size_t k = 0;
    for (const StreamEvent &e : r.events) {
        if (e.kind != StreamEvent::Kind::Content)
            continue;
        if (normalised)
            add(double(e.tNs) / 1e9, sum > 0 ? perEvent[k] * m.nOut / sum : 0.0);
        else
            add(double(e.tNs) / 1e9, k < perEvent.size() ? perEvent[k] : 0.0);
        ++k;
    }
}

// Output tokens of the whole-run variant: content events of measured successful requests, over the span from
// the first t_send to the last t_end. Two passes over the records (the span, then the slices) instead of one
// (time, tokens) pair per event held for the whole point.
Interval wholeRunOutputInterval(const PointInput &in, std::span<const RequestMetrics> metrics,
                                const PointWindow &window, std::size_t slices, double level)
{
    std::int64_t start = kNoTime, end = kNoTime;
    for (std::size_t i = 0; i < in.records.size() && i < metrics.size(); ++i) {
        const RequestRecord &r = in.records[i];
        if (!window.measures(r) || !metrics[i].ok)
            continue;
        start = start == kNoTime ? r.tSend : std::min(start, r.tSend);
        if (r.tEnd != kNoTime)
            end = end == kNoTime ? r.tEnd : std::max(end, r.tEnd);
    }
    if (emptySpan(start, end))
        return Interval{.level = level, .method = IntervalMethod::BlockBootstrap};
    WindowSlicer slicer(double(start) / 1e9, double(end) / 1e9, slices);
    for (std::size_t i = 0; i < in.records.size() && i < metrics.size(); ++i)
        if (window.measures(in.records[i]) && metrics[i].ok)
            forContentEventTokens(in.records[i], metrics[i], true,
                                  [&slicer](double t, double tokens) { slicer.add(t, tokens); });
    return slicedInterval(slicer.window(), level);
}

// Output tokens of every content event of any request (warm-up and failed included), with the same
// tokens-per-event rule as OutputThroughput, sliced over the window: the numerators of the steady-state
// output rate.
WindowSlicer contentEventTokens(std::span<const RequestRecord> records,
                                std::span<const RequestMetrics> metrics, const PointWindow &window,
                                std::size_t slices)
{
    WindowSlicer slicer(double(window.w0Ns) / 1e9, double(window.w1Ns) / 1e9, slices);
    for (std::size_t i = 0; i < records.size() && i < metrics.size(); ++i)
        if (metrics[i].contentEvents > 0)
            forContentEventTokens(records[i], metrics[i], false,
                                  [&slicer](double t, double tokens) { slicer.add(t, tokens); });
    return slicer;
}

// The steady-state output rate over the window, from the content events' tokens.
BootstrapResult steadyOutputInterval(const WindowSlicer &events, double level)
{
    BlockBootstrapOptions o;
    o.level = level;
    return blockBootstrapRatio(events.window().sums, events.window().seconds, o);
}

// total_tps: output tokens by event time plus input tokens of measured successful requests by send time.
Interval totalTpsInterval(WindowSlicer events, const PointWindow &window, const SendTimeSeries &sent,
                          double level)
{
    if (emptySpan(window.w0Ns, window.w1Ns))
        return Interval{.level = level, .method = IntervalMethod::BlockBootstrap};
    for (std::size_t i = 0; i < sent.times.size() && i < sent.inputTokens.size(); ++i)
        events.add(sent.times[i], sent.inputTokens[i]);
    return slicedInterval(events.window(), level);
}

} // namespace

BootstrapResult steadyOutputTpsInterval(std::span<const RequestRecord> records,
                                        std::span<const RequestMetrics> metrics, const PointWindow &window,
                                        const PointIntervalOptions &options)
{
    return steadyOutputInterval(
        contentEventTokens(records, metrics, window, defaultSlices(records, metrics, window, options)),
        options.level);
}

void addRateIntervals(PointIntervals &out, const PointInput &in, std::span<const RequestMetrics> metrics,
                      const PointWindow &window)
{
    const double level = in.confidenceLevel;
    PointIntervalOptions options;
    options.level = level;
    const std::size_t slices = defaultSlices(in.records, metrics, window, options);
    // The content events' tokens feed both the output rate and the total rate: collected once.
    const WindowSlicer events = contentEventTokens(in.records, metrics, window, slices);
    const Interval output = steadyOutputInterval(events, level).interval;
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
    out.set("total_tps_per_gpu", "value", divided(totalTpsInterval(events, window, s, level), in.gpus.total));
}

} // namespace Throughline
