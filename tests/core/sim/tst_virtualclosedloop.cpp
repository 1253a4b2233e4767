// The simulator's scheduler on a virtual clock (core/sim/virtualclosedloop.h) and the slowdown options:
// closed-loop bookkeeping, determinism, agreement with the analytic model, "X % slower" exactly, and a
// server that gets slower after a time (on the virtual clock and on the wall-clock BatchScheduler).
#include "core/sim/batchscheduler.h"
#include "core/sim/batchstepper.h"
#include "core/sim/simserver.h"
#include "core/sim/virtualclosedloop.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>

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

// Time per output token of one request: from its first token to its last, per later token (ns).
double tpotNs(const VirtualRequest &r)
{
    return double(r.tokenNs.back() - r.tokenNs.front()) / double(r.tokenNs.size() - 1);
}

double mean(const std::vector<double> &v)
{
    return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

// Records the step-end times the scheduler reports for one request (steady ns).
class TokenTimes : public RequestSink
{
public:
    void onAdmitted(std::uint64_t, std::int64_t) override {}
    void onTokens(std::uint64_t, int generated, std::int64_t ns) override { add(generated, ns); }
    void onFinished(std::uint64_t, int generated, std::int64_t ns) override
    {
        add(generated, ns);
        std::lock_guard lk(m_mu);
        m_done = true;
    }
    bool done()
    {
        std::lock_guard lk(m_mu);
        return m_done;
    }
    std::vector<std::int64_t> times()
    {
        std::lock_guard lk(m_mu);
        return m_ns;
    }

private:
    void add(int generated, std::int64_t ns)
    {
        std::lock_guard lk(m_mu);
        if (generated > int(m_ns.size()))
            m_ns.push_back(ns); // one token per step (coalesced events carry the latest count)
    }
    std::mutex m_mu;
    std::vector<std::int64_t> m_ns;
    bool m_done = false;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
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

    // The level shift and the drift as factors of the step's start time.
    void stepShiftIsAFunctionOfTime()
    {
        SchedulerConfig sc;
        {
            BatchStepper off(model(), PoolMode::Aggregated, sc, 1);
            QCOMPARE(off.stepShift(0), 1.0);
            QCOMPARE(off.stepShift(1e6), 1.0);
        }
        sc.slowdownFactor = 1.15;
        sc.slowdownAfterS = 30;
        BatchStepper shift(model(), PoolMode::Aggregated, sc, 1);
        QCOMPARE(shift.stepShift(29.999), 1.0);
        QCOMPARE(shift.stepShift(30), 1.15);
        QCOMPARE(shift.stepShift(3600), 1.15);
        sc.slowdownPerHour = 0.5;
        BatchStepper both(model(), PoolMode::Aggregated, sc, 1);
        QCOMPARE(both.stepShift(0), 1.0);
        QVERIFY(std::fabs(both.stepShift(18) - (1 + 0.5 * 18 / 3600.0)) < 1e-15);
        QVERIFY(std::fabs(both.stepShift(3600) - 1.15 * 1.5) < 1e-15);
    }

    // Closed loop at C = 8 with fixed lengths, no jitter: the step plan (which sequences, which chunks) does
    // not depend on durations, so the shifted run is the unshifted one with every step that starts at or
    // after T × 1.15. Requests that finished before T are identical to the microsecond; requests whose
    // first token came after T have a TPOT 1.15 × the unshifted run's (the same request) within 1e-6, and
    // 1.15 × the TPOT of the requests before T in the same run within 1 % (steady state on both sides).
    void levelShiftAfterATime()
    {
        VirtualClosedLoopSpec spec{8, 160, 512, 128, 0};
        SchedulerConfig sc;
        const auto base = runVirtualClosedLoop(model(), sc, spec);
        const std::int64_t shiftNs = base.back().doneNs / 2;
        sc.slowdownFactor = 1.15;
        sc.slowdownAfterS = double(shiftNs) / 1e9;
        const auto slow = runVirtualClosedLoop(model(), sc, spec);
        QCOMPARE(slow.size(), base.size());
        std::vector<double> before, after;
        for (std::size_t i = 0; i < slow.size(); ++i) {
            if (slow[i].doneNs < shiftNs) {
                QCOMPARE(slow[i].tokenNs, base[i].tokenNs);
                before.push_back(tpotNs(slow[i]));
            } else if (slow[i].tokenNs.front() > shiftNs) {
                const double ratio = tpotNs(slow[i]) / tpotNs(base[i]);
                QVERIFY2(std::fabs(ratio - 1.15) < 1e-6, qPrintable(QString::number(ratio, 'g', 10)));
                after.push_back(tpotNs(slow[i]));
            }
        }
        QVERIFY(before.size() >= 60 && after.size() >= 40);
        const double tpotBefore = mean(before) / 1e6, tpotAfter = mean(after) / 1e6;
        qInfo("level shift x1.15 at %.1f s: TPOT %.3f ms before (%zu requests), %.3f ms after (%zu), ratio "
              "%.4f",
              sc.slowdownAfterS, tpotBefore, before.size(), tpotAfter, after.size(), tpotAfter / tpotBefore);
        QVERIFY2(std::fabs(tpotAfter / tpotBefore - 1.15) < 0.01,
                 qPrintable(QString::number(tpotAfter / tpotBefore)));
        QVERIFY(tokensPerSecond(slow) < tokensPerSecond(base));
    }

    // Factor 1 (with a time set) is the option off: a seeded run with jitter and natural lengths is the same
    // to the nanosecond as one without the option.
    void factorOneChangesNothing()
    {
        SchedulerConfig sc;
        sc.jitter = 0.2;
        sc.seed = 11;
        VirtualClosedLoopSpec spec{8, 64, 512, 64, 192};
        const auto base = runVirtualClosedLoop(model(), sc, spec);
        sc.slowdownFactor = 1;
        sc.slowdownAfterS = 5;
        const auto same = runVirtualClosedLoop(model(), sc, spec);
        QCOMPARE(same.size(), base.size());
        for (std::size_t i = 0; i < base.size(); ++i) {
            QCOMPARE(same[i].sendNs, base[i].sendNs);
            QCOMPARE(same[i].tokenNs, base[i].tokenNs);
            QCOMPARE(same[i].outputTokens, base[i].outputTokens);
        }
        // Not vacuous: the same run with the factor on differs after the time.
        sc.slowdownFactor = 1.15;
        const auto shifted = runVirtualClosedLoop(model(), sc, spec);
        QVERIFY(shifted.back().doneNs > base.back().doneNs);
    }

    // The drift: a request's TPOT grows with the model time it ran at, × (1 + rate × hours) against the
    // same request without drift (its midpoint's factor, within 0.5 %: the factor is linear over its span).
    void driftGrowsWithModelTime()
    {
        VirtualClosedLoopSpec spec{8, 160, 512, 128, 0};
        SchedulerConfig sc;
        const auto base = runVirtualClosedLoop(model(), sc, spec);
        sc.slowdownPerHour = 36; // 1 % per model second: large, so a 60-s run shows it
        const auto drift = runVirtualClosedLoop(model(), sc, spec);
        for (std::size_t i : {std::size_t(8), std::size_t(80), drift.size() - 1}) {
            const double midS = double(drift[i].tokenNs.front() + drift[i].tokenNs.back()) / 2e9;
            const double want = 1 + 36 * midS / 3600;
            const double got = tpotNs(drift[i]) / tpotNs(base[i]);
            QVERIFY2(std::fabs(got / want - 1) < 0.005,
                     qPrintable(QStringLiteral("request %1: %2 vs %3").arg(i).arg(got).arg(want)));
        }
    }

    // The wall-clock scheduler (what SimServer and throughline-sim run) counts model time from its start:
    // one streaming request at time scale 20 whose steps after 1.5 model seconds take 1.5 × as long. Token
    // times are planned step ends, so the gaps are the step durations ÷ 20 (late wake-ups do not show);
    // medians before and after agree with × 1.5 within 1 % (the context grows by a few hundred tokens).
    void wallClockSchedulerShiftsAfterTheTime()
    {
        SchedulerConfig sc;
        sc.timeScale = 20;
        sc.slowdownFactor = 1.5;
        sc.slowdownAfterS = 1.5;
        BatchScheduler scheduler(model(), sc);
        scheduler.start();
        const std::int64_t startNs = BatchScheduler::nowNs();
        auto sink = std::make_shared<TokenTimes>();
        auto r = std::make_shared<SimRequest>();
        r->promptTokens = 128;
        r->outputTokens = 240;
        r->sink = sink;
        QVERIFY(scheduler.submit(r));
        QTRY_VERIFY_WITH_TIMEOUT(sink->done(), 10000);
        scheduler.stop();
        const auto t = sink->times();
        QCOMPARE(t.size(), std::size_t(240));
        // The step that starts at or after 1.5 model s = 75 wall ms after the scheduler started (within the
        // few µs between start() and startNs).
        const std::int64_t shiftWallNs = startNs + std::int64_t(1.5 / 20 * 1e9);
        std::vector<double> before, after;
        for (std::size_t i = 1; i < t.size(); ++i) {
            if (t[i] < shiftWallNs - 200000)
                before.push_back(double(t[i] - t[i - 1]));
            else if (t[i - 1] > shiftWallNs + 200000)
                after.push_back(double(t[i] - t[i - 1]));
        }
        QVERIFY2(before.size() >= 30 && after.size() >= 100,
                 qPrintable(QStringLiteral("%1 before, %2 after").arg(before.size()).arg(after.size())));
        const double ratio = median(after) / median(before);
        qInfo("wall-clock scheduler: step %.3f ms model before, %.3f ms after, ratio %.4f",
              median(before) * 20 / 1e6, median(after) * 20 / 1e6, ratio);
        QVERIFY2(std::fabs(ratio - 1.5) < 0.015, qPrintable(QString::number(ratio)));
    }

    void serverSaysItIsSlowed()
    {
        auto o = SimServer::optionsFromCatalog("Llama-3.3-70B-Instruct", "H100", 2, "FP8");
        QVERIFY(o);
        o->slowdownPct = 10;
        SimServer server(*o);
        QVERIFY(QString::fromStdString(server.capacitySummary()).contains(u"every step takes 10 % longer"));
        o->slowdownFactor = 1.15;
        o->slowdownAfterS = 600;
        o->slowdownPerHour = 0.1;
        SimServer shifted(*o);
        const QString summary = QString::fromStdString(shifted.capacitySummary());
        QVERIFY2(summary.contains(u"every step from 600 model seconds after start takes 1.15 x as long"),
                 qPrintable(summary));
        QVERIFY2(summary.contains(u"(1 + 0.1 x model hours since start)"), qPrintable(summary));
    }
};

QTEST_GUILESS_MAIN(TestVirtualClosedLoop)
#include "tst_virtualclosedloop.moc"
