// Point aggregation on hand-built records with hand-computed answers: window edges, throughput
// variants, per-GPU variants, goodput, error classes and validity flags.
#include "core/engine/readdelayhistogram.h"
#include "core/metrics/clientbudget.h"
#include "core/metrics/pointaggregate.h"
#include "recordbuilder.h"

#include <QElapsedTimer>
#include <QTest>

#include <cmath>

#include <nlohmann/json.hpp>

using namespace Throughline;
using Throughline::Test::ms;
using Throughline::Test::RecordBuilder;

Q_DECLARE_METATYPE(Throughline::PointLoad::Mode)

namespace {

bool near(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || std::abs(a - b) < 1e-9 * std::max(1.0, std::abs(b));
}

// Closed loop C = 2: two warm-up requests, then four measured ones, 4 tokens each, 100 ms apart.
//   W1 (warm-up) send 0   tokens 100 200 300 400   end 400
//   W2 (warm-up) send 0   tokens 150 250 350 450   end 450
//   M1           send 400 tokens 500 600 700 800   end 800
//   M2           send 450 tokens 550 650 750 850   end 850
//   M3           send 800 tokens 900 … 1200        end 1200
//   M4           send 850 tokens 950 … 1250        end 1250
// Closed loop: W0 = 400 (first measured send), W1 = 850 (last send); measured = M1..M3 (t_send in
// [W0, W1)); window 0.45 s. Content events in [400, 850]: W1@400, W2@450, M1×4, M2×4 (850 inclusive)
// = 10 tokens.
std::vector<RequestRecord> closedLoopRecords()
{
    std::vector<RequestRecord> v;
    v.push_back(RecordBuilder(1).warmup().send(0).content({100, 200, 300, 400}).end(400).usage(4, 10));
    v.push_back(RecordBuilder(2).warmup().send(0).content({150, 250, 350, 450}).end(450).usage(4, 10));
    v.push_back(RecordBuilder(3).send(400).content({500, 600, 700, 800}).end(800).usage(4, 10));
    v.push_back(RecordBuilder(4).send(450).content({550, 650, 750, 850}).end(850).usage(4, 10));
    v.push_back(RecordBuilder(5).send(800).content({900, 1000, 1100, 1200}).end(1200).usage(4, 10));
    v.push_back(RecordBuilder(6).send(850).content({950, 1050, 1150, 1250}).end(1250).usage(4, 10));
    return v;
}

PointInput baseInput(const std::vector<RequestRecord> &records)
{
    PointInput in;
    in.load.mode = PointLoad::Mode::Concurrency;
    in.load.concurrency = 2;
    in.records = records;
    in.gpus.total = 2;
    in.validity.minWindowS = 0.1;
    in.validity.e2eFactor = 0;
    in.validity.minCompleted = 3;
    return in;
}

} // namespace

class TestPointAggregate : public QObject
{
    Q_OBJECT
private slots:
    void closedLoop();
    void windowEdges_data();
    void windowEdges();
    void perGpuVariants_data();
    void perGpuVariants();
    void perEventTokenCounts();
    void goodput_data();
    void goodput();
    void allFailed();
    void validityFlags_data();
    void validityFlags();
    void jsonRoundTrip();
    void sendBlockedIsAUnion();
    void readDelayQuantile();
    void metricValueAndCurve();
    void largePointIsFast();
};

void TestPointAggregate::closedLoop()
{
    const auto records = closedLoopRecords();
    const PointResult p = aggregatePoint(baseInput(records));
    QCOMPARE(p.windowS, 0.45);
    QCOMPARE(p.w0S, 0.4);
    QCOMPARE(p.w1S, 0.85);
    QCOMPARE(p.nSent, 3);
    QCOMPARE(p.nOk, 3);
    QVERIFY(p.errors.empty());
    QVERIFY(near(p.metrics.outputTps, 10 / 0.45));
    QVERIFY(near(p.metrics.outputTpsPerGpu, 10 / 0.45 / 2));
    QVERIFY(near(p.metrics.outputTpsPerDecodeGpu, 10 / 0.45 / 2));
    // Input: 3 measured ok × 10 prompt tokens.
    QVERIFY(near(p.metrics.totalTpsPerGpu, (10 + 30) / 0.45 / 2));
    QVERIFY(near(p.metrics.inputTpsPerPrefillGpu, 30 / 0.45 / 2));
    QVERIFY(near(p.metrics.requestRate, 3 / 0.45));
    // whole: Σ N_out of ok measured (12) ÷ (max t_end 1200 − min t_send 400) = 15 tokens/s.
    QVERIFY(near(p.metrics.outputTpsWhole, 15));
    // mlperf: 12 tokens of requests issued in [W0, W1) ÷ 0.45 s.
    QVERIFY(near(p.metrics.outputTpsMlperf, 12 / 0.45));
    QCOMPARE(p.metrics.ttftMs.n, std::size_t(3));
    QCOMPARE(p.metrics.ttftMs.mean, 100.0);
    QCOMPARE(p.metrics.tpotMs.mean, 100.0);
    QCOMPARE(p.metrics.e2eMs.mean, 400.0);
    QCOMPARE(p.metrics.chunkGapMs.n, std::size_t(9));
    QCOMPARE(p.metrics.interactivityTpsUser.mean, 10.0);
    QCOMPARE(p.metrics.ttftQMs.mean, 100.0);
    QCOMPARE(p.client.sendLatenessP99Ms, 0.0); // derived from t_send − t_sched
    QVERIFY(p.validity.valid);
    QVERIFY(p.validity.flags.empty());
}

void TestPointAggregate::windowEdges_data()
{
    QTest::addColumn<PointLoad::Mode>("mode");
    QTest::addColumn<double>("scheduleEndMs");
    QTest::addColumn<double>("windowS");
    QTest::addColumn<int>("nSent");
    QTest::addColumn<double>("tokens");
    // Closed loop: the request sent exactly at W1 is outside [W0, W1); the token at W1 is inside [W0, W1].
    QTest::newRow("closed: W1 = last send") << PointLoad::Mode::Concurrency << -1.0 << 0.45 << 3 << 10.0;
    // Open loop, schedule ends at 1000 ms: M1..M4 measured; tokens in [400, 1000]:
    // W1@400, W2@450, M1×4, M2×4, M3@900,1000, M4@950 = 13.
    QTest::newRow("open: W1 = schedule end") << PointLoad::Mode::Rate << 1000.0 << 0.6 << 4 << 13.0;
    // Open loop without a schedule end falls back to the last send.
    QTest::newRow("open: no schedule end") << PointLoad::Mode::Rate << -1.0 << 0.45 << 3 << 10.0;
    // Open loop, schedule end at 849.999 ms: M2 token at 850 is outside.
    QTest::newRow("open: token just after W1") << PointLoad::Mode::Rate << 849.999 << 0.449999 << 3 << 9.0;
}

void TestPointAggregate::windowEdges()
{
    QFETCH(PointLoad::Mode, mode);
    QFETCH(double, scheduleEndMs);
    QFETCH(double, windowS);
    QFETCH(int, nSent);
    QFETCH(double, tokens);
    const auto records = closedLoopRecords();
    PointInput in = baseInput(records);
    in.load.mode = mode;
    in.load.rate = 4;
    in.achievedRate = 4;
    in.scheduleEndNs = scheduleEndMs < 0 ? kNoTime : ms(scheduleEndMs);
    const PointResult p = aggregatePoint(in);
    QVERIFY2(near(p.windowS, windowS), qPrintable(QString::number(p.windowS, 'g', 12)));
    QCOMPARE(p.nSent, nSent);
    QVERIFY2(near(p.metrics.outputTps, tokens / windowS),
             qPrintable(QString::number(p.metrics.outputTps * windowS)));
}

void TestPointAggregate::perGpuVariants_data()
{
    QTest::addColumn<int>("total");
    QTest::addColumn<int>("prefill");
    QTest::addColumn<int>("decode");
    QTest::addColumn<double>("perGpu");
    QTest::addColumn<double>("perDecodeGpu");
    QTest::addColumn<double>("totalPerGpu");
    QTest::addColumn<double>("inputPerPrefillGpu");
    const double out = 10 / 0.45;
    const double in = 30 / 0.45;
    QTest::newRow("1 GPU") << 1 << 0 << 0 << out << out << out + in << in;
    QTest::newRow("8 GPUs") << 8 << 0 << 0 << out / 8 << out / 8 << (out + in) / 8 << in / 8;
    // Disaggregated 24 prefill + 8 decode.
    QTest::newRow("disagg 24+8") << 32 << 24 << 8 << out / 32 << out / 8 << (out + in) / 32 << in / 24;
    QTest::newRow("no GPU count") << 0 << 0 << 0 << std::nan("") << std::nan("") << std::nan("")
                                  << std::nan("");
}

void TestPointAggregate::perGpuVariants()
{
    QFETCH(int, total);
    QFETCH(int, prefill);
    QFETCH(int, decode);
    QFETCH(double, perGpu);
    QFETCH(double, perDecodeGpu);
    QFETCH(double, totalPerGpu);
    QFETCH(double, inputPerPrefillGpu);
    const auto records = closedLoopRecords();
    PointInput in = baseInput(records);
    in.gpus = GpuCounts{total, prefill, decode};
    const PointResult p = aggregatePoint(in);
    QVERIFY(near(p.metrics.outputTpsPerGpu, perGpu));
    QVERIFY(near(p.metrics.outputTpsPerDecodeGpu, perDecodeGpu));
    QVERIFY(near(p.metrics.totalTpsPerGpu, totalPerGpu));
    QVERIFY(near(p.metrics.inputTpsPerPrefillGpu, inputPerPrefillGpu));
}

void TestPointAggregate::perEventTokenCounts()
{
    // GpuCounts from deployments: replicas add up.
    Deployment d;
    d.gpus = 4;
    d.replicas = 2;
    QCOMPARE(GpuCounts::fromDeployment(d).total, 8);
    Deployment dis;
    dis.gpus = 32;
    dis.prefillGpus = 24;
    dis.decodeGpus = 8;
    const GpuCounts g = GpuCounts::fromDeployment(dis);
    QCOMPARE(g.total, 32);
    QCOMPARE(g.prefill, 24);
    QCOMPARE(g.decode, 8);
    LoadPlan plan;
    plan.minWindowS = 5;
    QCOMPARE(ValidityOptions::fromPlan(plan).minWindowS, 5.0);
    QCOMPARE(ValidityOptions::fromPlan(plan).minCompleted, 100);

    // M1's first chunk carries 3 tokens (per-event counts): tokens in window become 12 instead of 10.
    auto records = closedLoopRecords();
    records[2] = RecordBuilder(3)
                     .send(400)
                     .contentTokens({{500, 3}, {600, 1}, {700, 1}, {800, 1}})
                     .end(800)
                     .usage(6, 10);
    const PointResult p = aggregatePoint(baseInput(records));
    QVERIFY(near(p.metrics.outputTps, 12 / 0.45));
    // Without per-event counts, N_out = 8 spreads evenly: M1 contributes 8 → 14 tokens.
    records[2] = RecordBuilder(3).send(400).content({500, 600, 700, 800}).end(800).usage(8, 10);
    QVERIFY(near(aggregatePoint(baseInput(records)).metrics.outputTps, 14 / 0.45));
}

void TestPointAggregate::goodput_data()
{
    QTest::addColumn<double>("ttftMs");
    QTest::addColumn<double>("tpotMs");
    QTest::addColumn<double>("e2eMs");
    QTest::addColumn<int>("good");
    QTest::newRow("no SLO") << 0.0 << 0.0 << 0.0 << 3;
    QTest::newRow("ttft met") << 100.0 << 0.0 << 0.0 << 3; // TTFT exactly 100: ≤ holds
    QTest::newRow("ttft missed") << 99.0 << 0.0 << 0.0 << 0;
    QTest::newRow("tpot met") << 0.0 << 100.0 << 0.0 << 3;
    QTest::newRow("e2e missed") << 0.0 << 0.0 << 399.0 << 0;
    QTest::newRow("all met") << 150.0 << 150.0 << 500.0 << 3;
}

void TestPointAggregate::goodput()
{
    QFETCH(double, ttftMs);
    QFETCH(double, tpotMs);
    QFETCH(double, e2eMs);
    QFETCH(int, good);
    const auto records = closedLoopRecords();
    PointInput in = baseInput(records);
    in.slo = Slo{ttftMs, tpotMs, e2eMs, 90};
    const PointResult p = aggregatePoint(in);
    QVERIFY(near(p.metrics.goodputRps, good / 0.45));
    QVERIFY(near(p.metrics.goodputTps, good * 4 / 0.45));
}

void TestPointAggregate::allFailed()
{
    std::vector<RequestRecord> v;
    v.push_back(RecordBuilder(1).send(0).end(5).fail(ErrorClass::HttpStatus, 503));
    v.push_back(RecordBuilder(2).send(100).end(105).fail(ErrorClass::HttpStatus, 503));
    v.push_back(RecordBuilder(3).send(200).end(205).fail(ErrorClass::Connect));
    v.push_back(RecordBuilder(4).send(300).end(305).fail(ErrorClass::Connect));
    PointInput in = baseInput(v);
    in.load.concurrency = 1;
    const PointResult p = aggregatePoint(in);
    QCOMPARE(p.nSent, 3);
    QCOMPARE(p.nOk, 0);
    QCOMPARE(p.errors.at("http_status"), 2);
    QCOMPARE(p.errors.at("connect"), 1);
    QCOMPARE(p.metrics.outputTps, 0.0);
    QVERIFY(std::isnan(p.metrics.outputTpsWhole));
    QCOMPARE(p.metrics.ttftMs.n, std::size_t(0));
    QVERIFY(!p.metricValue("ttft_ms", "mean").has_value());
    QVERIFY(!p.validity.valid);
    QCOMPARE(p.validity.flags, (std::vector<std::string>{"low_sample", "error_rate", "client_bound"}));
    const nlohmann::json j = p.toJson();
    QVERIFY(j["metrics"]["ttft_ms"]["mean"].is_null());
    QCOMPARE(j["errors"]["http_status"].get<int>(), 2);

    // No records at all: empty window, everything undefined, no crash.
    const PointResult empty = aggregatePoint(baseInput({}));
    QCOMPARE(empty.nSent, 0);
    QVERIFY(std::isnan(empty.metrics.outputTps));
    QVERIFY(!empty.validity.valid);
}

void TestPointAggregate::validityFlags_data()
{
    QTest::addColumn<int>("scenario");
    QTest::addColumn<QByteArray>("flags");
    QTest::newRow("clean") << 0 << QByteArray("");
    QTest::newRow("window shorter than min") << 1 << QByteArray("window_short");
    QTest::newRow("window shorter than 3x median E2E") << 2 << QByteArray("window_short");
    QTest::newRow("fewer than min completed") << 3 << QByteArray("low_sample");
    QTest::newRow("error rate above 1 %") << 4 << QByteArray("error_rate");
    QTest::newRow("truncated by harness") << 5 << QByteArray("error_rate,truncated");
    QTest::newRow("truncated flag from engine") << 6 << QByteArray("truncated");
    QTest::newRow("client cpu") << 7 << QByteArray("client_bound");
    // Send lateness is reported, not judged: 6 ms late once blocks the send path 5 ms of 1,250 (0.4 %).
    QTest::newRow("send lateness alone is not a flag") << 8 << QByteArray("");
    QTest::newRow("achieved concurrency below target") << 9 << QByteArray("client_bound");
    QTest::newRow("achieved rate below target") << 10 << QByteArray("client_bound");
    QTest::newRow("loop lag alone is not a flag") << 11 << QByteArray("");
    QTest::newRow("send path blocked, from records") << 12 << QByteArray("client_bound"); // 105 of 1,250 ms
    QTest::newRow("send path blocked, from the engine") << 13 << QByteArray("client_bound");
    QTest::newRow("client-added delay above 5 ms") << 14 << QByteArray("client_bound");
    QTest::newRow("budget just inside both limits") << 15 << QByteArray("");
    QTest::newRow("blocked 9 % of a short point, 95 ms") << 16 << QByteArray("");
}

void TestPointAggregate::validityFlags()
{
    QFETCH(int, scenario);
    QFETCH(QByteArray, flags);
    auto records = closedLoopRecords();
    PointInput in = baseInput(records);
    switch (scenario) {
    case 1:
        in.validity.minWindowS = 0.5;
        break;
    case 2:
        in.validity.e2eFactor = 3;
        break; // 3 × 0.4 s > 0.45 s
    case 3:
        in.validity.minCompleted = 4;
        break;
    case 4:
        in.validity.minCompleted = 2;
        records[3] = RecordBuilder(4).send(450).end(850).fail(ErrorClass::StallMidStream);
        break;
    case 5:
        in.validity.minCompleted = 2;
        records[3] = RecordBuilder(4).send(450).content({550}).end(900).fail(ErrorClass::HarnessCancelled);
        break;
    case 6:
        in.truncated = true;
        break;
    case 7:
        in.client.cpuPct = 85.5;
        break;
    case 8:
        records[2] = RecordBuilder(3).send(400, 394).content({500, 600, 700, 800}).end(800).usage(4, 10);
        break;
    case 9:
        in.load.concurrency = 3;
        break; // achieved 2.0 < 0.9 × 3
    case 10:
        in.load.mode = PointLoad::Mode::Rate;
        in.load.rate = 10;
        in.achievedRate = 8.9;
        break;
    case 11:
        in.client.loopLagP99Ms = 50;
        break;
    case 12:
        records[2] = RecordBuilder(3).send(400, 290).content({500, 600, 700, 800}).end(800).usage(4, 10);
        break;
    case 13:
        in.client.sendBlockedMs = 120;
        in.client.sendBlockedPct = 5.5;
        break;
    case 16: // a short point: above 5 % of it, but for less than 100 ms in all
        in.client.sendBlockedMs = 95;
        in.client.sendBlockedPct = 9;
        break;
    case 14:
        in.client.addedDelayP99Ms = 5.5;
        break;
    case 15:
        in.client.sendBlockedMs = 60;
        in.client.sendBlockedPct = 4.9;
        in.client.addedDelayP99Ms = 4.9;
        break;
    default:
        break;
    }
    in.records = records;
    const PointResult p = aggregatePoint(in);
    QByteArray got;
    for (const auto &f : p.validity.flags)
        got += (got.isEmpty() ? "" : ",") + QByteArray::fromStdString(f);
    QCOMPARE(got, flags);
    QCOMPARE(p.validity.valid, flags.isEmpty());
}

// Overlapping waits count once; waits within the 5 ms grace not at all.
void TestPointAggregate::sendBlockedIsAUnion()
{
    std::vector<RequestRecord> v;
    v.push_back(RecordBuilder(1).send(12, 0).end(20));  // blocked [5, 12]
    v.push_back(RecordBuilder(2).send(16, 5).end(25));  // [10, 16]: overlaps → [5, 16]
    v.push_back(RecordBuilder(3).send(34, 30).end(40)); // 4 ms late: inside the grace
    v.push_back(RecordBuilder(4).send(54, 40).end(60)); // [45, 54]
    v.push_back(RecordBuilder(5).send(70).end(80));     // on time
    QCOMPARE(sendBlockedNs(v), std::int64_t(11'000'000 + 9'000'000));
    QCOMPARE(sendBlockedNs({}), std::int64_t(0));
    // In a point: 20 ms of the records' 80 ms span.
    PointInput in = baseInput(v);
    const PointResult p = aggregatePoint(in);
    QCOMPARE(p.client.sendBlockedMs, 20.0);
    QVERIFY(near(p.client.sendBlockedPct, 100.0 * 20 / 80));
    QCOMPARE(addedDelayEstimateMs(0.25, 1.5), 1.75);
    QCOMPARE(addedDelayEstimateMs(0.25, std::nan("")), 0.25);
    QVERIFY(std::isnan(addedDelayEstimateMs(std::nan(""), std::nan(""))));
}

void TestPointAggregate::readDelayQuantile()
{
    ReadDelayHistogram h;
    for (int i = 0; i < 98; ++i)
        h.add(3'000); // first 10 µs bucket
    h.add(-5);        // clamped into the first bucket
    h.add(2'345'000); // bucket 234: upper edge 2.35 ms
    std::vector<std::uint64_t> counts;
    h.takeInto(counts);
    QCOMPARE(ReadDelayHistogram::total(counts), std::uint64_t(100));
    QCOMPARE(ReadDelayHistogram::quantileMs(counts, 0.99), 0.01);
    QCOMPARE(ReadDelayHistogram::quantileMs(counts, 1.0), 2.35);
    h.add(999'000'000); // ≥ 50 ms: the last bucket
    std::vector<std::uint64_t> next;
    h.takeInto(next); // taken counts are gone: only the new one
    QCOMPARE(ReadDelayHistogram::total(next), std::uint64_t(1));
    QCOMPARE(ReadDelayHistogram::quantileMs(next, 0.5), 50.0);
    QVERIFY(std::isnan(ReadDelayHistogram::quantileMs({}, 0.99)));
}

void TestPointAggregate::jsonRoundTrip()
{
    const auto records = closedLoopRecords();
    PointInput in = baseInput(records);
    in.client.cpuPct = 12.5;
    const PointResult p = aggregatePoint(in);
    const nlohmann::json j = p.toJson();
    for (const char *k : {"load", "window_s", "n_sent", "n_ok", "errors", "validity", "client", "metrics"})
        QVERIFY2(j.contains(k), k);
    QVERIFY(j["load"] == (nlohmann::json{{"mode", "concurrency"}, {"concurrency", 2}}));
    for (const char *k : {"output_tps", "output_tps_per_gpu", "output_tps_per_decode_gpu",
                          "total_tps_per_gpu", "request_rate", "goodput_rps", "ttft_ms", "ttft_q_ms",
                          "tpot_ms", "e2e_ms", "chunk_gap_ms", "interactivity_tps_user"})
        QVERIFY2(j["metrics"].contains(k), k);
    QCOMPARE(j["client"]["cpu_pct"].get<double>(), 12.5);
    QVERIFY(j["client"]["loop_lag_p99_ms"].is_null());
    const auto back = PointResult::fromJson(j);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QVERIFY2(back->toJson() == j, back->toJson().dump().c_str());

    nlohmann::json broken = j;
    broken["load"]["mode"] = "burst";
    const auto bad = PointResult::fromJson(broken);
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().message.find("load.mode") != std::string::npos);
    broken = j;
    broken.erase("n_ok");
    QVERIFY(!PointResult::fromJson(broken).ok());
}

void TestPointAggregate::metricValueAndCurve()
{
    // 200 requests, TPOT 10 ms each → p90 reportable; curve y = 1000 / 10 = 100 tokens/s per user.
    std::vector<RequestRecord> v;
    for (int i = 0; i < 201; ++i)
        v.push_back(RecordBuilder(i)
                        .send(i * 10)
                        .content({i * 10 + 50.0, i * 10 + 60.0, i * 10 + 70.0})
                        .end(i * 10 + 70)
                        .usage(3, 5));
    PointInput in = baseInput(v);
    in.load.concurrency = 1;
    in.gpus.total = 1;
    in.validity.minCompleted = 100;
    const PointResult p = aggregatePoint(in);
    QCOMPARE(p.nOk, 200);
    QVERIFY(p.metricValue("tpot_ms", "p90").has_value());
    QCOMPARE(*p.metricValue("tpot_ms", "p90"), 10.0);
    QVERIFY(!p.metricValue("tpot_ms", "p99").has_value()); // n = 200 < 1000
    QVERIFY(!p.metricValue("tpot_ms", "value").has_value());
    QVERIFY(!p.metricValue("output_tps", "p90").has_value());
    QCOMPARE(*p.metricValue("n_ok", "value"), 200.0);
    const auto curve = p.curvePoint();
    QVERIFY(curve.has_value());
    QVERIFY(near(curve->first, p.metrics.outputTpsPerGpu));
    QCOMPARE(curve->second, 100.0);
    QVERIFY(!aggregatePoint(baseInput(closedLoopRecords())).curvePoint().has_value()); // n = 3
}

void TestPointAggregate::largePointIsFast()
{
    // 100k Chat-like requests (16 content events each) — a sanity bound, not a benchmark
    // (tests/bench/bench_metrics.cpp prints figures).
    std::vector<RequestRecord> v;
    v.reserve(100000);
    for (int i = 0; i < 100000; ++i) {
        RequestRecord r;
        r.seq = i;
        r.tSched = r.tSend = ms(i * 0.5);
        for (int k = 0; k < 16; ++k)
            r.events.push_back({r.tSend + ms(20 + 5 * k + (i % 7)), StreamEvent::Kind::Content, -1});
        r.tEnd = r.events.back().tNs;
        r.usage.completionTokens = 128;
        v.push_back(std::move(r));
    }
    PointInput in = baseInput(v);
    in.load.concurrency = 32;
    QElapsedTimer t;
    t.start();
    const PointResult p = aggregatePoint(in);
    const qint64 elapsed = t.elapsed();
    qInfo("aggregatePoint on 100k records × 16 events: %lld ms", static_cast<long long>(elapsed));
    QCOMPARE(p.nSent, 99999);
    QVERIFY(elapsed < 20000);
}

QTEST_GUILESS_MAIN(TestPointAggregate)
#include "tst_pointaggregate.moc"
