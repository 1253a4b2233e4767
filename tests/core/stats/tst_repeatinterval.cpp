// Across-repeat Student-t interval: exact small case, unbounded for one repeat, and which interval a
// verdict uses when both exist.
#include "core/stats/repeatinterval.h"

#include <QTest>

#include <cmath>
#include <vector>

using namespace Throughline;

class TestRepeatInterval : public QObject
{
    Q_OBJECT
private slots:
    void fiveRepeats()
    {
        // mean 3, s = √2.5, t(0.975, 4) = 2.7764451051977987 → half-width 1.963243.
        const Interval iv = repeatMeanInterval(std::vector<double>{1, 2, 3, 4, 5});
        QCOMPARE(iv.estimate, 3.0);
        const double half = 2.7764451051977987 * std::sqrt(2.5) / std::sqrt(5.0);
        QVERIFY(std::fabs(iv.lower - (3 - half)) < 1e-9);
        QVERIFY(std::fabs(iv.upper - (3 + half)) < 1e-9);
        QCOMPARE(iv.method, IntervalMethod::StudentT);
    }

    void oneRepeatIsUnbounded()
    {
        const Interval iv = repeatMeanInterval(std::vector<double>{7});
        QCOMPARE(iv.estimate, 7.0);
        QVERIFY(!iv.bounded());
    }

    void widerWins()
    {
        Interval within{10, 9, 11, 0.95, IntervalMethod::BlockBootstrap};
        Interval across{10, 8, 12, 0.95, IntervalMethod::StudentT};
        QCOMPARE(widerInterval(within, across).method, IntervalMethod::StudentT);
        QCOMPARE(widerInterval(across, within).method, IntervalMethod::StudentT);
        Interval open{10, 9, INFINITY, 0.95, IntervalMethod::OrderStatistic};
        QCOMPARE(widerInterval(across, open).method, IntervalMethod::OrderStatistic);
    }
};

QTEST_GUILESS_MAIN(TestRepeatInterval)
#include "tst_repeatinterval.moc"
