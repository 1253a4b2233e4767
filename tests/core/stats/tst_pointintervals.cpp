// Every statistic a point reports carries its interval (PointResult::intervals, results.json "intervals"):
// on a seeded simulator point (coveragestudy.h) aggregated with a confidence level, each reportable
// percentile and mean of every distribution and each defined scalar has an interval around the reported
// value, whose own centre is that value — so the bootstrap's numerators are the metric's own definition
// (goodput under an SLO, per-GPU divisors, send-time rates, the whole-run variant). Unreported
// percentiles get none; without a level nothing is computed; the JSON form round-trips and names bad fields.
#include "coveragestudy.h"

#include "core/metrics/pointintervalsjson.h"
#include "core/metrics/pointrateintervals.h"
#include "core/stats/blockbootstrap.h"
#include "core/stats/autocorrelation.h"
#include "core/stats/meaninterval.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <numeric>

using namespace StudySupport;

namespace {
PointResult aggregated(double level)
{
    StudyConfig c;
    const Measured m = measure(c, 7, c.requests(), c.warmup());
    PointInput in;
    in.load.concurrency = c.concurrency;
    in.records = m.records;
    in.gpus.total = 2;
    in.slo.ttftMs = 65; // between TTFT p50 and p90: goodput below the request rate
    in.validity.minWindowS = 0;
    in.confidenceLevel = level;
    return aggregatePoint(in);
}
} // namespace

class TestPointIntervals : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { m_point = aggregated(0.95); }

    void everyReportedStatisticHasOne()
    {
        const PointResult &p = m_point;
        QCOMPARE(p.intervals.level, 0.95);
        QVERIFY(p.metrics.goodputRps < p.metrics.requestRate); // the SLO bites
        int checked = 0;
        for (std::string_view metric : distributionMetricKeys()) {
            for (std::string_view stat : {"p50", "p90", "p95", "p99", "p999", "mean"}) {
                const auto value = p.metricValue(metric, stat);
                const Interval *iv = p.intervals.find(metric, stat);
                QVERIFY2(bool(value) == (iv != nullptr),
                         qPrintable(QString::fromUtf8(metric.data(), int(metric.size())) + u'.' +
                                    QString::fromUtf8(stat.data(), int(stat.size()))));
                if (!value)
                    continue;
                QVERIFY(iv->lower <= *value && *value <= iv->upper);
                QCOMPARE(iv->level, 0.95);
                QVERIFY(iv->method ==
                        (stat == "mean" ? IntervalMethod::NormalMean : IntervalMethod::OrderStatistic));
                ++checked;
            }
        }
        QVERIFY(!p.intervals.find("ttft_ms", "p99")); // 128 measured requests: p99 is not reportable
        for (std::string_view metric : scalarMetricKeys()) {
            const auto value = p.metricValue(metric, "value");
            const Interval *iv = p.intervals.find(metric, "value");
            QVERIFY2(value && iv, metric.data());
            QCOMPARE(iv->method, IntervalMethod::BlockBootstrap);
            QVERIFY2(iv->bounded() && iv->lower < *value && *value < iv->upper, metric.data());
            // The bootstrap's own centre is the reported figure: same numerators, same window.
            QVERIFY2(std::fabs(iv->estimate - *value) <= 1e-9 * std::fabs(*value), metric.data());
            ++checked;
        }
        // p50, p90 and the mean of six distributions, the pooled chunk gaps' five percentiles and mean, ten
        // scalars (128 measured requests: p95 and up are not reportable for per-request metrics).
        QVERIFY2(checked >= 34, qPrintable(QString::number(checked)));
        const auto perGpu = p.metricInterval("output_tps_per_gpu", "value");
        const auto total = p.metricInterval("output_tps", "value");
        QVERIFY(perGpu && total);
        QCOMPARE(perGpu->upper * 2, total->upper);
    }

    void inFlightOverlapCountsLaterSends()
    {
        // Sends at 0, 1, 2 s, all ending at 2.5 s: the first sees two later sends before its end, the
        // second one, the last none — 1 on average. A failed request is not a sample and does not count.
        std::vector<RequestRecord> records(4);
        std::vector<RequestMetrics> metrics(4);
        for (std::size_t i = 0; i < records.size(); ++i) {
            records[i].tSend = std::int64_t(i) * 1'000'000'000;
            records[i].tEnd = 2'500'000'000;
            metrics[i].ok = i < 3;
        }
        PointWindow w;
        w.w0Ns = 0;
        w.w1Ns = 10'000'000'000;
        QCOMPARE(inFlightOverlap(records, metrics, w), std::size_t(1));
        records[0].tEnd = 1'500'000'000; // now 1 + 1 + 0 later sends: ⌈2/3⌉
        QCOMPARE(inFlightOverlap(records, metrics, w), std::size_t(1));
        records[1].tEnd = 1'500'000'000; // 1 + 0 + 0: ⌈1/3⌉
        QCOMPARE(inFlightOverlap(records, metrics, w), std::size_t(1));
        records[0].tEnd = records[1].tEnd = 500'000'000; // nobody overlaps
        QCOMPARE(inFlightOverlap(records, metrics, w), std::size_t(0));
    }

    void percentileWindowReachesTheRequestsInFlight()
    {
        // A closed loop of C = 16: about C − 1 requests are sent while one is in flight, and the point's
        // TPOT p50 bounds are those of a lag window at least that long.
        StudyConfig c;
        const Measured m = measure(c, 7, c.requests(), c.warmup());
        const std::size_t reach = inFlightOverlap(m.records, m.metrics, m.window);
        QVERIFY2(reach >= 10 && reach <= 16, qPrintable(QString::number(reach)));
        const auto sample = timeOrderedSample(m.records, m.metrics, m.window, PointDistribution::Tpot);
        const QuantileBounds expected = quantileBounds(sample, 0.5, {0.95, true, reach});
        const QuantileBounds got =
            pointPercentileBounds(m.records, m.metrics, m.window, PointDistribution::Tpot, 0.5);
        QVERIFY(got.tau == expected.tau && got.degreesOfFreedom == expected.degreesOfFreedom);
        QCOMPARE(got.interval.lower, expected.interval.lower);
        QCOMPARE(got.interval.upper, expected.interval.upper);
        QVERIFY(got.degreesOfFreedom <= lagWindowDegreesOfFreedom(sample.size(), reach) + 1e-9);
        const Interval *mean = m_point.intervals.find("tpot_ms", "mean");
        QVERIFY(mean);
        const Interval meanExpected = meanInterval(sample, 0.95, reach);
        QCOMPARE(mean->lower, meanExpected.lower); // m_point is this same seed's point
        QCOMPARE(mean->upper, meanExpected.upper);
    }

    void slicedAsTheEventsComeEqualsHeldPairs()
    {
        // The output-token rates slice each content event as it is read (WindowSlicer) instead of holding a
        // (time, tokens) pair per event for the whole point (issue 23: a long point has millions). Their
        // intervals are the held pairs' ones, bit for bit: the same sums in the same order.
        StudyConfig c;
        const Measured m = measure(c, 7, c.requests(), c.warmup());
        PointInput in;
        in.load.concurrency = c.concurrency;
        in.records = m.records;
        in.gpus.total = 2;
        in.confidenceLevel = 0.95;
        const std::size_t slices = defaultSlices(m.records, m.metrics, m.window, {});
        std::vector<double> times, tokens, wholeTimes, wholeTokens;
        std::int64_t start = kNoTime, end = kNoTime;
        for (std::size_t i = 0; i < m.records.size(); ++i) {
            const RequestRecord &r = m.records[i];
            const RequestMetrics &rm = m.metrics[i];
            const std::vector<double> perEvent = tokensPerContentEvent(r, rm.nOut);
            const bool measuredOk = m.window.measures(r) && rm.ok;
            if (measuredOk) {
                start = start == kNoTime ? r.tSend : std::min(start, r.tSend);
                end = r.tEnd == kNoTime ? end : std::max(end, r.tEnd);
            }
            const double sum = std::accumulate(perEvent.begin(), perEvent.end(), 0.0);
            std::size_t k = 0;
            for (const StreamEvent &e : r.events) {
                if (e.kind != StreamEvent::Kind::Content)
                    continue;
                if (rm.contentEvents > 0) {
                    times.push_back(double(e.tNs) / 1e9);
                    tokens.push_back(k < perEvent.size() ? perEvent[k] : 0.0);
                }
                if (measuredOk) {
                    wholeTimes.push_back(double(e.tNs) / 1e9);
                    wholeTokens.push_back(sum > 0 ? perEvent[k] * rm.nOut / sum : 0.0);
                }
                ++k;
            }
        }
        const auto held = [&](const std::vector<double> &t, const std::vector<double> &v, std::int64_t w0,
                              std::int64_t w1) {
            const SlicedWindow w = sliceWindow(t, v, double(w0) / 1e9, double(w1) / 1e9, slices);
            BlockBootstrapOptions o;
            o.level = 0.95;
            return blockBootstrapRatio(w.sums, w.seconds, o).interval;
        };
        const Interval output = held(times, tokens, m.window.w0Ns, m.window.w1Ns);
        // total_tps: the same events, then the input tokens of the measured successful requests by t_send.
        for (std::size_t i = 0; i < m.records.size(); ++i)
            if (m.window.measures(m.records[i]) && m.metrics[i].ok) {
                times.push_back(double(m.records[i].tSend) / 1e9);
                tokens.push_back(m.metrics[i].nIn);
            }
        const Interval total = held(times, tokens, m.window.w0Ns, m.window.w1Ns);
        const Interval whole = held(wholeTimes, wholeTokens, start, end);
        const PointResult p = aggregatePoint(in, m.metrics);
        const auto same = [](const Interval *got, const Interval &want, double by) {
            return got && got->estimate == want.estimate / by && got->lower == want.lower / by &&
                   got->upper == want.upper / by;
        };
        QVERIFY(output.bounded() && whole.bounded() && total.bounded());
        QVERIFY(same(p.intervals.find("output_tps", "value"), output, 1));
        QVERIFY(same(p.intervals.find("output_tps_per_gpu", "value"), output, 2));
        QVERIFY(same(p.intervals.find("output_tps_whole", "value"), whole, 1));
        QVERIFY(same(p.intervals.find("total_tps_per_gpu", "value"), total, 2));
        const BootstrapResult steady =
            steadyOutputTpsInterval(m.records, m.metrics, m.window, {.level = 0.95});
        QVERIFY(same(&steady.interval, output, 1));
    }

    void chunkGapsMergedEqualTheStableSort()
    {
        // The chunk gaps' time-ordered sample merges each request's gaps (already in time order) instead of
        // sorting a (time, gap) pair per gap (issue 23): the same sample, ties in the same order — on a
        // simulator point and on three streams whose events share read times.
        const auto sorted = [](const std::vector<RequestRecord> &records,
                               const std::vector<std::size_t> &order) {
            std::vector<std::pair<std::int64_t, double>> keyed;
            for (std::size_t i : order) {
                std::int64_t prev = kNoTime;
                for (const StreamEvent &e : records[i].events) {
                    if (e.kind != StreamEvent::Kind::Content)
                        continue;
                    if (prev != kNoTime)
                        keyed.emplace_back(e.tNs, double(e.tNs - prev) / 1e6);
                    prev = e.tNs;
                }
            }
            std::stable_sort(keyed.begin(), keyed.end(),
                             [](const auto &a, const auto &b) { return a.first < b.first; });
            std::vector<double> out;
            for (const auto &k : keyed)
                out.push_back(k.second);
            return out;
        };
        StudyConfig c;
        const Measured m = measure(c, 7, c.requests(), c.warmup());
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < m.records.size(); ++i)
            if (m.window.measures(m.records[i]) && m.metrics[i].ok)
                order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return m.records[a].tSend < m.records[b].tSend;
        });
        const std::vector<double> merged =
            timeOrderedSample(m.records, m.metrics, m.window, PointDistribution::ChunkGap);
        QVERIFY(merged.size() > 1000);
        QVERIFY(merged == sorted(m.records, order));

        // Events two by two on one read: stream k's gaps are 0 and 2 (k + 1) ms, many ending at equal times
        // across the streams (at 14 ms: stream 0's 2 and 0, stream 1's 4 and 0, in that order).
        std::vector<RequestRecord> three(3);
        std::vector<RequestMetrics> metrics(3);
        for (int k = 0; k < 3; ++k) {
            RequestRecord &r = three[std::size_t(k)];
            r.tSend = 1'000'000 * k;
            r.tEnd = 100'000'000;
            const std::int64_t step = 1'000'000 * (k + 1);
            for (int e = 0; e < 6; ++e)
                r.events.push_back(
                    StreamEvent{10'000'000 + step * (e / 2 * 2), StreamEvent::Kind::Content, 1});
            metrics[std::size_t(k)].ok = true;
        }
        PointWindow w;
        w.w0Ns = 0;
        w.w1Ns = 50'000'000;
        const std::vector<double> got = timeOrderedSample(three, metrics, w, PointDistribution::ChunkGap);
        QCOMPARE(got, sorted(three, {0, 1, 2}));
    }

    void noLevelNoIntervals()
    {
        const PointResult p = aggregated(0);
        QVERIFY(p.intervals.empty());
        QVERIFY(!p.toJson().contains("intervals"));
        QVERIFY(!p.metricInterval("ttft_ms", "p90"));
    }

    void jsonRoundTrip()
    {
        PointResult p = m_point;
        Interval open = *p.intervals.find("ttft_ms", "p90");
        open.upper = std::numeric_limits<double>::infinity(); // a side the sample could not bound
        p.intervals.set("ttft_ms", "p90", open);
        const nlohmann::json j = p.toJson();
        QVERIFY(j["intervals"]["metrics"]["ttft_ms"]["p90"]["upper"].is_null());
        QCOMPARE(j["intervals"]["metrics"]["output_tps"]["value"]["method"].get<std::string>(),
                 std::string("block_bootstrap"));
        const auto back = PointResult::fromJson(j);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QVERIFY(std::isinf(back->intervals.find("ttft_ms", "p90")->upper));
        QVERIFY(back->toJson() == j);

        nlohmann::json bad = j;
        bad["intervals"]["metrics"]["ttft_ms"]["p90"]["lower"] = "low";
        auto err = PointResult::fromJson(bad);
        QVERIFY(!err.ok());
        QCOMPARE(err.error().message, std::string("point.intervals.metrics.ttft_ms.p90.lower: not a number"));
        bad = j;
        bad["intervals"]["metrics"]["tpot_ms"]["p50"]["method"] = "guess";
        err = PointResult::fromJson(bad);
        QVERIFY(!err.ok());
        QCOMPARE(err.error().message,
                 std::string("point.intervals.metrics.tpot_ms.p50.method: unknown method \"guess\""));
        bad = j;
        bad["intervals"]["level"] = 95;
        QVERIFY(!PointResult::fromJson(bad).ok());
    }

private:
    PointResult m_point;
};

QTEST_GUILESS_MAIN(TestPointIntervals)
#include "tst_pointintervals.moc"
