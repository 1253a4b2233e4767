// The autocorrelations behind every interval's dependence correction are computed several lags per pass
// over the series (core/stats/autocorrelation.cpp); each must be bit-for-bit the lag-by-lag value, so no
// interval moves by a rounding step: on seeded AR(1) series, on 0/1 indicator series (the quantile
// bounds' input), at every length around the block size and up to the last lag of a short series.
#include "core/stats/autocorrelation.h"

#include "seededsamples.h"

#include <QTest>

#include <vector>

using namespace Throughline;

namespace {
void compareEveryLag(const std::vector<double> &x, std::size_t maxLag)
{
    const std::vector<double> all = autocorrelations(x, maxLag);
    const std::size_t expected = x.empty() ? 0 : std::min(maxLag, x.size() - 1) + 1;
    QCOMPARE(all.size(), expected);
    for (std::size_t k = 0; k < all.size(); ++k) {
        // Exact equality, not QCOMPARE's fuzzy one: the point is the same bits.
        if (all[k] != autocorrelation(x, k))
            QFAIL(qPrintable(QStringLiteral("n = %1, lag %2: %3 against lag by lag %4")
                                 .arg(x.size())
                                 .arg(k)
                                 .arg(all[k], 0, 'g', 17)
                                 .arg(autocorrelation(x, k), 0, 'g', 17)));
    }
}
} // namespace

class TestAutocorrelation : public QObject
{
    Q_OBJECT
private slots:
    void everyLengthAroundTheBlockToTheLastLag()
    {
        for (int n = 1; n <= 40; ++n)
            compareEveryLag(StatsTest::ar1(std::uint64_t(n), n, 0.6, 3.0), std::size_t(n));
    }

    void longSeriesAndIndicatorsUpToTheLagCap()
    {
        const std::vector<double> x = StatsTest::ar1(11, 20011, 0.9, 40.0);
        compareEveryLag(x, 600);
        std::vector<double> indicator;
        for (double v : x)
            indicator.push_back(v <= 40.0 ? 1.0 : 0.0);
        compareEveryLag(indicator, 600);
    }

    void constantSeriesHasNoCorrelation()
    {
        const std::vector<double> all = autocorrelations(std::vector<double>(50, 2.5), 10);
        QCOMPARE(all.size(), std::size_t(11));
        for (double r : all)
            QCOMPARE(r, 0.0);
        QVERIFY(autocorrelations({}, 5).empty());
    }

    void estimatorsSeeTheSameDependence()
    {
        // τ and the bandwidth on an AR(1) with φ = 0.8: τ = (1 + φ) / (1 − φ) = 9 in theory.
        const std::vector<double> x = StatsTest::ar1(5, 40000, 0.8);
        const AutocorrelationTime t = autocorrelationTime(x);
        QVERIFY2(t.tau > 8.0 && t.tau < 10.0, qPrintable(QString::number(t.tau)));
        QVERIFY(flatTopBandwidth(x) > 5);
        QVERIFY(politisWhiteBlockLength(x) > 10);
    }
};

QTEST_GUILESS_MAIN(TestAutocorrelation)
#include "tst_autocorrelation.moc"
