// The simulated endpoint really runs the model: closed-loop throughput, queueing past KV capacity and
// /metrics vs the ground-truth log, measured over loopback with curl-multi (time scale 1, zero jitter).
#include "core/campaign/catalog.h"
#include "core/sim/simserver.h"
#include "simtestclient.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <regex>

using namespace Throughline;
using nlohmann::json;

namespace {

std::string completionBody(int isl, int osl)
{
    std::string ids;
    ids.reserve(size_t(isl) * 4);
    for (int i = 0; i < isl; ++i) {
        if (i)
            ids += ',';
        ids += std::to_string(100 + i % 900);
    }
    return "{\"prompt\":[" + ids + "],\"max_tokens\":" + std::to_string(osl) +
           ",\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
}

double metricValue(const std::string &text, const std::string &name)
{
    std::regex re("\n" + std::regex_replace(name, std::regex(":"), ":") + "\\{[^}]*\\} ([0-9.eE+-]+)");
    std::smatch m;
    const std::string t = "\n" + text;
    if (!std::regex_search(t, m, re))
        return -1;
    return std::stod(m[1].str());
}

} // namespace

class TestSimCapacity : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { curl_global_init(CURL_GLOBAL_ALL); }

    // Closed loop at C = B: output tokens/s over a steady window vs the analytic operating point.
    void closedLoopThroughputMatchesModel()
    {
        auto o = SimServer::optionsFromCatalog("gpt-oss-120b", "H200", 1, "FP8");
        QVERIFY(o.ok());
        o->timeScale = 1;
        o->jitter = 0;
        SimServer s(*o);
        auto port = s.start("127.0.0.1", 0);
        QVERIFY(port.ok());
        const int isl = 200, osl = 100, conc = 48;
        const auto sat = s.predictedCapacity(isl, osl);
        const auto op = s.predictedCapacity(isl, osl, conc);
        QCOMPARE(op.batch, conc);
        std::printf("saturated batch B=%d for ISL %d / OSL %d; test runs B=%d (sized down by %.1fx)\n",
                    sat.batch, isl, osl, conc, double(sat.batch) / conc);
        std::printf("analytic at B=%d: step %.2f ms, prefill %.2f ms, %.1f output tok/s\n", conc,
                    op.decodeStepS * 1e3, op.prefillS * 1e3, op.outputTokPerS);
        const std::string body = completionBody(isl, osl);
        const double runS = 14;
        auto res = SimTest::closedLoop(
            "http://127.0.0.1:" + std::to_string(*port) + "/v1/completions", [&] { return body; }, conc,
            runS);
        QCOMPARE(res.failed, 0);
        // Steady window: skip the start-up burst, stop before the drain.
        std::sort(res.eventTimes.begin(), res.eventTimes.end());
        const double t0 = res.eventTimes.front();
        const double w0 = t0 + 4.0, w1 = t0 + runS - 1.0;
        const auto n = std::count_if(res.eventTimes.begin(), res.eventTimes.end(),
                                     [&](double t) { return t >= w0 && t < w1; });
        const double measured = double(n) / (w1 - w0);
        const double ratio = measured / op.outputTokPerS;
        std::printf("measured %.1f tok/s over [%.0f s, %.0f s] = %.3f × analytic\n", measured, w0 - t0,
                    w1 - t0, ratio);
        QVERIFY2(std::fabs(ratio - 1.0) <= 0.05, std::to_string(ratio).c_str());
    }

    // Concurrency 2·B_kv: B_kv sequences run, the rest wait; TTFT grows by the queueing time of Little's law.
    void pastKvCapacityQueues()
    {
        QTemporaryDir dir;
        const std::string gtPath = QString(dir.path() + u"/gt.jsonl"_qs).toStdString();
        auto o = SimServer::optionsFromCatalog("Llama-3.3-70B-Instruct", "H200", 1, "FP8");
        QVERIFY(o.ok());
        const int isl = 256, osl = 64, bKv = 12;
        // A sized-down GPU: HBM for the weights plus KV for exactly bKv sequences of ISL + OSL (+ half a
        // slot).
        PerformanceModel probe(o->model, o->gpu, 1, o->precision);
        o->gpu.name = "H200-sized-down";
        o->gpu.hbmGb =
            (probe.weightBytes() + (bKv + 0.5) * (isl + osl) * probe.kvBytesPerToken()) / 0.9 / 1e9;
        o->timeScale = 1;
        o->groundTruthPath = gtPath;
        SimServer s(*o);
        auto port = s.start("127.0.0.1", 0);
        QVERIFY(port.ok());
        const auto op = s.predictedCapacity(isl, osl, 1 << 20);
        QCOMPARE(op.batch, bKv);
        const std::string url = "http://127.0.0.1:" + std::to_string(*port) + "/v1/completions";
        const std::string body = completionBody(isl, osl);

        // Baseline at C = B: no queueing.
        auto base = SimTest::closedLoop(
            url, [&] { return body; }, bKv, 6);
        QCOMPARE(base.failed, 0);
        auto meanTtft = [](const SimTest::LoopResult &r, double after) {
            double sum = 0;
            int n = 0;
            const double t0 = *std::min_element(r.sendTimes.begin(), r.sendTimes.end());
            for (size_t i = 0; i < r.ttft.size(); ++i)
                if (r.sendTimes[i] - t0 >= after) {
                    sum += r.ttft[i];
                    ++n;
                }
            return n ? sum / n : -1.0;
        };
        const double ttftBase = meanTtft(base, 2.0);

        // C = 2·B: waiting gauge sampled from the scheduler and through /metrics.
        const int conc = 2 * bKv;
        std::vector<double> waiting;
        std::vector<double> waitingHttp;
        auto loaded = SimTest::closedLoop(
            url, [&] { return body; }, conc, 14,
            [&](double t) {
                if (t < 3 || t > 13)
                    return;
                waiting.push_back(s.gauges().waiting);
                if (waitingHttp.size() < 20 && int(t * 10) % 5 == 0) {
                    auto m = SimTest::request("http://127.0.0.1:" + std::to_string(*port) + "/metrics");
                    waitingHttp.push_back(metricValue(m.body, "vllm:num_requests_waiting"));
                }
            });
        QCOMPARE(loaded.failed, 0);
        const double ttftLoaded = meanTtft(loaded, 4.0);
        const double meanWaiting =
            std::accumulate(waiting.begin(), waiting.end(), 0.0) / std::max<size_t>(1, waiting.size());
        const double meanWaitingHttp = std::accumulate(waitingHttp.begin(), waitingHttp.end(), 0.0) /
                                       std::max<size_t>(1, waitingHttp.size());
        // Prediction: C − B wait; each waits (C − B) / X for a slot (X = completions/s at B), plus the
        // unloaded TTFT.
        const double predictedWaiting = conc - bKv;
        const double predictedTtft = (conc - bKv) / op.requestsPerS + ttftBase;
        std::printf("C=%d B=%d: waiting %.2f (HTTP %.2f), predicted %.0f; TTFT %.3f s (unloaded %.3f s), "
                    "predicted %.3f s\n",
                    conc, bKv, meanWaiting, meanWaitingHttp, predictedWaiting, ttftLoaded, ttftBase,
                    predictedTtft);
        QVERIFY(ttftLoaded > 3 * ttftBase);
        QVERIFY2(std::fabs(meanWaiting / predictedWaiting - 1) <= 0.10, std::to_string(meanWaiting).c_str());
        QVERIFY2(std::fabs(meanWaitingHttp / predictedWaiting - 1) <= 0.15,
                 std::to_string(meanWaitingHttp).c_str());
        QVERIFY2(std::fabs(ttftLoaded / predictedTtft - 1) <= 0.10, std::to_string(ttftLoaded).c_str());

        // /metrics counters equal the ground-truth log's totals.
        QTRY_COMPARE_WITH_TIMEOUT(s.gauges().running, 0, 5000);
        QTest::qWait(200);
        auto m = SimTest::request("http://127.0.0.1:" + std::to_string(*port) + "/metrics");
        s.stop();
        std::ifstream in(gtPath);
        std::string line;
        long long prompt = 0, gen = 0, lines = 0;
        while (std::getline(in, line)) {
            auto j = json::parse(line);
            QCOMPARE(j["clock"].get<std::string>(), std::string("CLOCK_MONOTONIC"));
            QCOMPARE(j["t_token_write_ns"].size(), j["n_out"].get<size_t>());
            QVERIFY(j["t_done_ns"].get<long long>() >= j["t_accept_ns"].get<long long>());
            prompt += j["n_prompt"].get<long long>();
            gen += j["n_out"].get<long long>();
            ++lines;
        }
        std::printf("ground truth: %lld requests, %lld prompt, %lld generated tokens\n", lines, prompt, gen);
        QCOMPARE(lines, (long long)(base.completed + loaded.completed));
        QCOMPARE((long long)metricValue(m.body, "vllm:prompt_tokens_total"), prompt);
        QCOMPARE((long long)metricValue(m.body, "vllm:generation_tokens_total"), gen);
        QCOMPARE(gen, lines * osl);
    }
};

QTEST_GUILESS_MAIN(TestSimCapacity)
#include "tst_simcapacity.moc"
