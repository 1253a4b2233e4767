// Coverage of the intervals on seeded simulator runs against the simulator's long-run truth
// (coveragestudy.h): 40 repeats of a closed-loop point (C = 16, the default 10 × C budget, jitter 0.1,
// natural output lengths) — the nominal 95 % intervals of TTFT p90, TPOT p50 and output tok/s each hold
// the truth in ≥ 85 % of repeats, and the same intervals narrowed to a nominal 50 % do not (the test can
// fail). The benchmark (tests/bench/bench_intervals) repeats this with ≥ 400 repeats.
#include "coveragestudy.h"

#include <QTest>

using namespace StudySupport;

class TestCoverage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { m_truth = longRunTruth(m_config); }

    void estimatesAreTheReportedFigures()
    {
        // The interval's centre is what aggregatePoint reports for the same records.
        const Measured m = measure(m_config, 1, m_config.requests(), m_config.warmup());
        PointInput in;
        in.load.mode = PointLoad::Mode::Concurrency;
        in.load.concurrency = m_config.concurrency;
        in.records = m.records;
        const PointResult pr = aggregatePoint(in);
        const Figures f = repeatFigures(m_config, 1, 0.95);
        QVERIFY(std::fabs(f.outputTps.estimate - pr.metrics.outputTps) < 1e-9 * pr.metrics.outputTps);
        QCOMPARE(f.ttftP90.estimate, *pr.metrics.ttftMs.stat("p90"));
        QVERIFY(f.ttftP90.lower < f.ttftP90.estimate && f.ttftP90.estimate < f.ttftP90.upper);
        QVERIFY(f.outputTps.lower < f.outputTps.estimate && f.outputTps.estimate < f.outputTps.upper);
        // Pooled chunk gaps (event order) get bounds too, around the reported percentile.
        const QuantileBounds gap =
            pointPercentileBounds(m.records, m.metrics, m.window, PointDistribution::ChunkGap, 0.9);
        QCOMPARE(gap.interval.estimate, *pr.metrics.chunkGapMs.stat("p90"));
        QVERIFY(gap.interval.bounded() && gap.interval.lower <= gap.interval.estimate);
    }

    void nominal95Covers()
    {
        const Coverage c = coverage(m_config, m_truth, 40, 0.95);
        qInfo("truth: TTFT p90 %.2f ms, TPOT p50 %.3f ms, output %.1f tok/s; 95 %% coverage of 40: %d %d %d",
              m_truth.ttftP90, m_truth.tpotP50, m_truth.outputTps, c.ttft, c.tpot, c.tps);
        QVERIFY2(c.share(c.ttft) >= 0.85, qPrintable(QString::number(c.ttft)));
        QVERIFY2(c.share(c.tpot) >= 0.85, qPrintable(QString::number(c.tpot)));
        QVERIFY2(c.share(c.tps) >= 0.85, qPrintable(QString::number(c.tps)));
    }

    void narrowedIntervalsFailTheBar()
    {
        const Coverage c = coverage(m_config, m_truth, 40, 0.50);
        qInfo("50 %% coverage of 40: %d %d %d", c.ttft, c.tpot, c.tps);
        QVERIFY2(c.share(c.ttft) < 0.85, qPrintable(QString::number(c.ttft)));
        QVERIFY2(c.share(c.tpot) < 0.85, qPrintable(QString::number(c.tpot)));
        QVERIFY2(c.share(c.tps) < 0.85, qPrintable(QString::number(c.tps)));
    }

    void falseAlarmsAndDetection()
    {
        // 40 pairs of one configuration: a campaign-level `regressed` in at most 4. 40 pairs with the
        // candidate deployment 10 % slower (every step 10 % longer): `regressed` on output tok/s in ≥ 36.
        StudyConfig slower = m_config;
        slower.slowdownPct = 10;
        int alarms = 0, detected = 0;
        for (std::uint64_t i = 0; i < 40; ++i) {
            alarms += overallOutcome(comparePair(m_config, m_config, 10000 + 2 * i, 10001 + 2 * i)) ==
                      ComparisonOutcome::Regressed;
            const auto r = comparePair(m_config, slower, 20000 + 2 * i, 20001 + 2 * i);
            detected += r[2].outcome == ComparisonOutcome::Regressed;
        }
        qInfo("identical pairs regressed: %d of 40; 10 %% slower regressed on output tok/s: %d of 40", alarms,
              detected);
        QVERIFY2(alarms <= 4, qPrintable(QString::number(alarms)));
        QVERIFY2(detected >= 36, qPrintable(QString::number(detected)));
    }

private:
    StudyConfig m_config;
    Truth m_truth;
};

QTEST_GUILESS_MAIN(TestCoverage)
#include "tst_coverage.moc"
