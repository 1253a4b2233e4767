// §4.4 steady state (core/mlperf/steadystate.h) on seeded synthetic points with known ground truth: a
// steady point (noise only) is a Plateau on every gating metric in nearly every seed; a point whose decode
// slows by 15 % halfway (a level shift) or drifts linearly drifts up on TPOT in every seed; a 2 % creep is
// significant but below the practical floor, so it stays a Plateau; too few super-passes is
// insufficient_passes. Also the Mann–Kendall statistic against values worked out by hand.
#include "core/mlperf/steadystate.h"

#include <QTest>

#include <cmath>
#include <random>
#include <vector>

using namespace Throughline::Mlperf;

namespace {

// The 1.0 preset: TPOT gates (the rules' definitions table and the reference detector), TTFT is diagnostic.
const std::vector<std::string> kGating{"tpot_p50", "tpot_p90"};
const std::vector<std::string> kDiagnostic{"ttft_p50", "ttft_p90"};

// n requests; TPOT 20 ms × factor(i) with 3 % noise, TTFT 150 ms with 20 % noise (closed-loop admission is
// noisy); factor(i) gives the ground truth drift.
template <typename Factor>
std::vector<SteadyStateSample> point(int n, std::uint64_t seed, Factor factor)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> tpotNoise(1.0, 0.03), ttftNoise(1.0, 0.2);
    std::vector<SteadyStateSample> v;
    for (int i = 0; i < n; ++i)
        v.push_back({150.0 * std::max(0.1, ttftNoise(rng)), 20.0 * factor(i) * tpotNoise(rng)});
    return v;
}

} // namespace

class TestSteadyState : public QObject
{
    Q_OBJECT
private slots:
    void mannKendallByHand()
    {
        // 1 2 3 4 5: S = 10, Var = 5·4·15/18 = 16.667, Z = 9 / 4.082 = 2.205, p = 0.0275.
        const MetricTrend up = trendOf("tpot_p50", {1, 2, 3, 4, 5});
        QVERIFY(std::fabs(up.mannKendallZ - 2.2045) < 1e-3);
        QVERIFY(std::fabs(up.pValue - 0.0275) < 1e-3);
        QCOMPARE(up.state, TrendState::DriftingUp); // OLS change 4 over median 3
        // At n = 4 even a perfectly monotone series is not significant at α = 0.05 (Z = 5/2.944 = 1.70).
        QCOMPARE(trendOf("tpot_p50", {1, 2, 3, 4}).state, TrendState::Plateau);
        // Ties: 1 1 1 1 1 has S = 0 and zero variance: a plateau.
        QCOMPARE(trendOf("tpot_p50", {1, 1, 1, 1, 1}).state, TrendState::Plateau);
        QCOMPARE(trendOf("tpot_p50", {1, 2}).state, TrendState::NotEnoughData);
        QCOMPARE(trendOf("tpot_p50", {5, 4, 3, 2, 1}).state, TrendState::DriftingDown);
    }

    void steadyPointsArePlateaus()
    {
        int steady = 0;
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            const auto a =
                assessSteadyState(point(64 * 12, seed, [](int) { return 1.0; }), 64, kGating, 4, kDiagnostic);
            QCOMPARE(a.superPasses, 12);
            QCOMPARE(a.metrics.size(), kGating.size());
            steady += a.steady;
        }
        // α = 0.05 on two metrics would flag about 10 % of seeds on significance alone; the 5 % practical
        // floor keeps noise from counting as drift.
        QVERIFY2(steady >= 39, qPrintable(QString::number(steady)));
    }

    void levelShiftAndDriftAreFound()
    {
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            const auto shift =
                assessSteadyState(point(64 * 12, seed, [](int i) { return i < 64 * 6 ? 1.0 : 1.15; }), 64,
                                  kGating, 4, kDiagnostic);
            QVERIFY2(!shift.steady, shift.verdict.c_str());
            // A trend test, not a change-point test: with 12 super-passes a step is not always significant
            // on both TPOT percentiles, but on at least one.
            QVERIFY2(shift.metrics[0].state == TrendState::DriftingUp ||
                         shift.metrics[1].state == TrendState::DriftingUp,
                     shift.verdict.c_str());
            const auto drift =
                assessSteadyState(point(64 * 8, seed, [](int i) { return 1.0 + 0.2 * i / (64.0 * 8); }), 64,
                                  kGating, 4, kDiagnostic);
            QVERIFY2(!drift.steady, drift.verdict.c_str());
            QCOMPARE(drift.metrics[0].state, TrendState::DriftingUp);
        }
    }

    void ttftDriftIsAWarningNotAVerdict()
    {
        // TTFT doubling over the point while TPOT holds: steady (TTFT does not gate), the warning names it.
        std::vector<SteadyStateSample> v = point(64 * 12, 3, [](int) { return 1.0; });
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i].ttftMs *= 1.0 + static_cast<double>(i) / static_cast<double>(v.size());
        const auto a = assessSteadyState(v, 64, kGating, 4, kDiagnostic);
        QVERIFY2(a.steady, a.verdict.c_str());
        QCOMPARE(a.diagnostics.size(), std::size_t(2));
        QCOMPARE(a.diagnostics[0].state, TrendState::DriftingUp);
        QVERIFY2(a.warnings.rfind("ttft_p50 drifting up (+", 0) == 0, a.warnings.c_str());
        // Gated, the same series breaks the steady state.
        QVERIFY(!assessSteadyState(v, 64, kDiagnostic, 4).steady);
    }

    void smallCreepIsBelowThePracticalFloor()
    {
        // +2 % over the point: significant with 30 super-passes, but under kMinRelativeDrift (5 %).
        const auto a =
            assessSteadyState(point(64 * 30, 7, [](int i) { return 1.0 + 0.02 * i / (64.0 * 30); }), 64,
                              kGating, 4, kDiagnostic);
        QVERIFY2(a.steady, a.verdict.c_str());
        QVERIFY(a.metrics[0].pValue < kTrendAlpha);
        QVERIFY(std::fabs(a.metrics[0].relativeDrift) < kMinRelativeDrift);
    }

    void tooFewSuperPasses()
    {
        const auto a =
            assessSteadyState(point(64 * 3 + 10, 1, [](int) { return 1.0; }), 64, kGating, 4, kDiagnostic);
        QCOMPARE(a.superPasses, 3); // the partial fourth pass does not count
        QVERIFY(!a.steady);
        QCOMPARE(a.verdict, std::string("insufficient_passes: 3 super-passes, at least 4 needed"));
        QVERIFY(!assessSteadyState({}, 0, kGating, 4).steady);
    }
};

QTEST_APPLESS_MAIN(TestSteadyState)
#include "tst_steadystate.moc"
