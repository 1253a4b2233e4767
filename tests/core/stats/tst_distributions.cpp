// Special functions against exact values (binomial sums by hand or exact integer arithmetic) and
// standard tables (normal and Student-t quantiles to 10+ digits).
#include "core/stats/distributions.h"

#include <QTest>

#include <cmath>

using namespace Throughline;

class TestDistributions : public QObject
{
    Q_OBJECT
private slots:
    void normal()
    {
        QVERIFY(std::fabs(normalCdf(1.96) - 0.9750021048517795) < 1e-12);
        QVERIFY(std::fabs(normalQuantile(0.975) - 1.959963984540054) < 1e-9);
        QVERIFY(std::fabs(normalQuantile(0.8) - 0.8416212335729143) < 1e-9);
        QVERIFY(std::fabs(normalQuantile(0.001) + 3.090232306167813) < 1e-9); // lower tail branch
        QVERIFY(std::fabs(normalQuantile(0.5)) < 1e-12);
        QVERIFY(std::isinf(normalQuantile(1.0)) && normalQuantile(1.0) > 0);
        for (double p : {1e-6, 0.01, 0.3, 0.7, 0.99, 1 - 1e-6})
            QVERIFY2(std::fabs(normalCdf(normalQuantile(p)) - p) < 1e-12 * std::max(1.0, 1 / p),
                     qPrintable(QString::number(p)));
    }

    void incompleteBetaExact()
    {
        // I_0.4(2, 3) = P(Binomial(4, 0.4) ≥ 2) = 0.3456 + 0.1536 + 0.0256.
        QVERIFY(std::fabs(incompleteBeta(2, 3, 0.4) - 0.5248) < 1e-13);
        QCOMPARE(incompleteBeta(2, 3, 0.0), 0.0);
        QCOMPARE(incompleteBeta(2, 3, 1.0), 1.0);
        // Symmetry I_x(a, b) = 1 − I_{1−x}(b, a) on both branches of the continued fraction.
        QVERIFY(std::fabs(incompleteBeta(7.5, 2.5, 0.9) + incompleteBeta(2.5, 7.5, 0.1) - 1.0) < 1e-13);
    }

    void binomialExact()
    {
        // Binomial(10, 1/2): F(1) = 11/1024, F(2) = 56/1024, F(8) = 1013/1024.
        QVERIFY(std::fabs(binomialCdf(1, 10, 0.5) - 11.0 / 1024) < 1e-14);
        QVERIFY(std::fabs(binomialCdf(2, 10, 0.5) - 56.0 / 1024) < 1e-14);
        QVERIFY(std::fabs(binomialCdf(8, 10, 0.5) - 1013.0 / 1024) < 1e-14);
        QCOMPARE(binomialCdf(-1, 10, 0.5), 0.0);
        QCOMPARE(binomialCdf(10, 10, 0.5), 1.0);
        // Large n (exact integer sums, Python's math.comb): F(500; 1000, ½) and F(170; 200, 0.9).
        QVERIFY(std::fabs(binomialCdf(500, 1000, 0.5) - 0.5126125090891804) < 1e-12);
        QVERIFY(std::fabs(binomialCdf(170, 200, 0.9) - 0.016326565931766387) < 1e-12);
        // Millions of samples stay cheap and sane: F at the mean of Binomial(10⁷, 0.99) is ≈ ½.
        const double mid = binomialCdf(9900000, 10000000, 0.99);
        QVERIFY2(mid > 0.49 && mid < 0.52, qPrintable(QString::number(mid)));
    }

    void studentT()
    {
        QVERIFY(std::fabs(studentTCdf(2.0, 5) - 0.9490302605850709) < 1e-12);
        QVERIFY(std::fabs(studentTQuantile(0.975, 1) - 12.706204736174698) < 1e-8);
        QVERIFY(std::fabs(studentTQuantile(0.975, 9) - 2.2621571627409915) < 1e-9);
        QVERIFY(std::fabs(studentTQuantile(0.975, 39) - 2.0226909200367604) < 1e-9);
        QVERIFY(std::fabs(studentTQuantile(0.025, 9) + 2.2621571627409915) < 1e-9);
        // Large ν tends to the normal quantile.
        QVERIFY(std::fabs(studentTQuantile(0.975, 1e7) - 1.959963984540054) < 1e-5);
    }
};

QTEST_GUILESS_MAIN(TestDistributions)
#include "tst_distributions.moc"
