// The mean's interval x̄ ± t_{ν, 1−α/2}·s·√(τ/n): its half-width on a known case, Student's t with the lag
// window's ν (not z), ν capped at the sample variance's n − 1, a lag-window floor widening it, and coverage
// of the true mean on short seeded AR(1) series, with and without the floor.
#include "core/stats/meaninterval.h"

#include "core/stats/autocorrelation.h"
#include "core/stats/distributions.h"
#include "seededsamples.h"

#include <QTest>

#include <cmath>
#include <numeric>
#include <vector>

using namespace Throughline;

namespace {
double sampleSd(const std::vector<double> &x)
{
    const double mean = std::accumulate(x.begin(), x.end(), 0.0) / double(x.size());
    double ss = 0;
    for (double v : x)
        ss += (v - mean) * (v - mean);
    return std::sqrt(ss / double(x.size() - 1));
}
} // namespace

class TestMeanInterval : public QObject
{
    Q_OBJECT
private slots:
    void halfWidthUsesTWithTheWindowsDegreesOfFreedom()
    {
        const auto x = StatsTest::ar1(3, 128, 0.6, 50.0);
        const AutocorrelationTime t = autocorrelationTime(x);
        QVERIFY(t.truncationLag > 0);
        const double nu = std::min(t.degreesOfFreedom, 127.0);
        const double half = studentTQuantile(0.975, nu) * sampleSd(x) * std::sqrt(t.tau / 128.0);
        const Interval iv = meanInterval(x, 0.95);
        QVERIFY(std::fabs((iv.upper - iv.lower) / 2 - half) < 1e-9 * half);
        // z would be narrower by t/z.
        const double zHalf = normalQuantile(0.975) * sampleSd(x) * std::sqrt(t.tau / 128.0);
        QVERIFY((iv.upper - iv.lower) / 2 > zHalf * 1.01);
    }

    void independentSampleHasTheClassicT()
    {
        // Two values: no lag window fits (n < 3), ν = n − 1 = 1, τ = 1: x̄ ± t_{1, 0.975}·s/√2.
        const std::vector<double> x{1.0, 3.0};
        const Interval iv = meanInterval(x, 0.95);
        const double half = studentTQuantile(0.975, 1) * std::sqrt(2.0) / std::sqrt(2.0);
        QCOMPARE(iv.estimate, 2.0);
        QVERIFY(std::fabs(iv.upper - 2.0 - half) < 1e-9);
    }

    void floorWidensTheWindow()
    {
        const auto x = StatsTest::ar1(4, 128, 0.8, 50.0);
        const Interval plain = meanInterval(x, 0.95);
        const Interval floored = meanInterval(x, 0.95, 16);
        QVERIFY(floored.width() > plain.width());
    }

    void coverageOnShortCorrelatedSeries()
    {
        // 2,000 seeded AR(1) series, φ = 0.6 (τ = 4), of 128 values. The bandwidth rule alone stops where
        // |ρ̂| < 0.26 (lag 3 or so) and τ̂ is low: 91.6 % coverage of the mean 0 at 95 % (z instead of t:
        // 90.4 %). A lag floor of 16 keeps the tail: 94.3 %.
        int hits = 0, hitsFloored = 0;
        const int reps = 2000;
        for (int i = 0; i < reps; ++i) {
            const auto x = StatsTest::ar1(2000 + std::uint64_t(i), 128, 0.6);
            hits += meanInterval(x, 0.95).contains(0.0);
            hitsFloored += meanInterval(x, 0.95, 16).contains(0.0);
        }
        const double c = double(hits) / reps, cf = double(hitsFloored) / reps;
        qInfo("AR(1) mean coverage at 95 %%: %.3f, with a 16-lag floor %.3f", c, cf);
        QVERIFY2(c >= 0.90 && c <= 0.99, qPrintable(QString::number(c)));
        QVERIFY2(cf >= 0.93 && cf <= 0.99, qPrintable(QString::number(cf)));
    }
};

QTEST_GUILESS_MAIN(TestMeanInterval)
#include "tst_meaninterval.moc"
