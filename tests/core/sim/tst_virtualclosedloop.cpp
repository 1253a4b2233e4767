// The simulator's scheduler on a virtual clock (core/sim/virtualclosedloop.h) and the slowdown option:
// closed-loop bookkeeping, determinism, agreement with the analytic model, and "X % slower" exactly.
#include "core/sim/simserver.h"
#include "core/sim/virtualclosedloop.h"

#include <QTest>

#include <cmath>

using namespace Throughline;

namespace {
PerformanceModel model()
{
    auto o = SimServer::optionsFromCatalog("Llama-3.3-70B-Instruct", "H100", 2, "FP8");
    return PerformanceModel(o->model, o->gpu, o->gpus, o->precision, o->constants);
}

// Output tokens/s between the first and the last completion (long runs: start-up is negligible).
double tokensPerSecond(const std::vector<VirtualRequest> &run)
{
    double tokens = 0;
    std::int64_t end = 0;
    for (const auto &r : run) {
        tokens += r.outputTokens;
        end = std::max(end, r.doneNs);
    }
    return tokens / (double(end) / 1e9);
}
} // namespace

class TestVirtualClosedLoop : public QObject
{
    Q_OBJECT
private slots:
    void closedLoopBookkeeping()
    {
        VirtualClosedLoopSpec spec{4, 20, 256, 32, 0};
        const auto run = runVirtualClosedLoop(model(), SchedulerConfig{}, spec);
        QCOMPARE(run.size(), std::size_t(20));
        for (std::size_t i = 0; i < run.size(); ++i) {
            QCOMPARE(run[i].outputTokens, 32);
            QCOMPARE(run[i].tokenNs.size(), std::size_t(32));
            QCOMPARE(run[i].doneNs, run[i].tokenNs.back());
            QVERIFY(run[i].tokenNs.front() > run[i].sendNs);
            QVERIFY(std::is_sorted(run[i].tokenNs.begin(), run[i].tokenNs.end()));
        }
        // Four slots open at t = 0; request k ≥ 4 is sent when request k − 4 of its wave finished.
        for (int i = 0; i < 4; ++i)
            QCOMPARE(run[std::size_t(i)].sendNs, std::int64_t(0));
        for (std::size_t i = 4; i < run.size(); ++i)
            QCOMPARE(run[i].sendNs, run[i - 4].doneNs);
    }

    void seededAndDeterministic()
    {
        SchedulerConfig sc;
        sc.jitter = 0.2;
        sc.seed = 7;
        VirtualClosedLoopSpec spec{8, 64, 512, 64, 192};
        const auto a = runVirtualClosedLoop(model(), sc, spec);
        const auto b = runVirtualClosedLoop(model(), sc, spec);
        QCOMPARE(a.back().doneNs, b.back().doneNs);
        QCOMPARE(a[17].outputTokens, b[17].outputTokens);
        sc.seed = 8;
        const auto c = runVirtualClosedLoop(model(), sc, spec);
        QVERIFY(c.back().doneNs != a.back().doneNs);
        // Natural lengths stay in their range and vary.
        int minLen = 1 << 30, maxLen = 0;
        for (const auto &r : a) {
            minLen = std::min(minLen, r.outputTokens);
            maxLen = std::max(maxLen, r.outputTokens);
        }
        QVERIFY(minLen >= 64 && maxLen <= 192 && maxLen - minLen > 50);
    }

    void agreesWithTheAnalyticModel()
    {
        // Fixed lengths, no jitter: the waves of C requests are the analytic operating point (prefill not
        // overlapped with decode) up to the chunked-prefill details.
        const PerformanceModel m = model();
        VirtualClosedLoopSpec spec{16, 16 * 40, 1000, 1000, 0};
        const double sim = tokensPerSecond(runVirtualClosedLoop(m, SchedulerConfig{}, spec));
        const double analytic = m.operatingPoint(1000, 1000, 16).outputTokPerS;
        qInfo("virtual closed loop %.1f tok/s, analytic %.1f tok/s", sim, analytic);
        QVERIFY2(std::fabs(sim / analytic - 1) < 0.05, qPrintable(QString::number(sim / analytic)));
    }

    void slowdownMakesEveryStepLonger()
    {
        VirtualClosedLoopSpec spec{8, 80, 512, 128, 0};
        SchedulerConfig sc;
        const auto base = runVirtualClosedLoop(model(), sc, spec);
        sc.slowdownPct = 10;
        const auto slow = runVirtualClosedLoop(model(), sc, spec);
        // No jitter: the same schedule with every duration × 1.1, so every time is × 1.1 (± rounding).
        QVERIFY(std::fabs(double(slow.back().doneNs) / double(base.back().doneNs) - 1.1) < 1e-6);
        QVERIFY(std::fabs(tokensPerSecond(slow) / tokensPerSecond(base) - 1 / 1.1) < 1e-6);
    }

    void serverSaysItIsSlowed()
    {
        auto o = SimServer::optionsFromCatalog("Llama-3.3-70B-Instruct", "H100", 2, "FP8");
        QVERIFY(o);
        o->slowdownPct = 10;
        SimServer server(*o);
        QVERIFY(QString::fromStdString(server.capacitySummary()).contains(u"every step takes 10 % longer"));
    }
};

QTEST_GUILESS_MAIN(TestVirtualClosedLoop)
#include "tst_virtualclosedloop.moc"
