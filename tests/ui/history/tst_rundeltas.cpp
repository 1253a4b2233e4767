// The compare tab's deltas judged beyond noise where both values carry intervals: two real runs of the demo's
// Chat phase against throughline-sim (jitter 0.1; tests/data/results/compare-base.json and, on a deployment
// 10 % slower, compare-slow10.json, both results /3). The slower one is `regressed` on throughput and TPOT,
// the other way round `improved`, a run against itself `within noise`; an open interval is `not enough data`;
// values without intervals keep the ±1 % marks.
#include "ui/history/rundeltas.h"

#include <QTest>

using namespace Throughline;

namespace {
ReportData load(const char *name)
{
    auto r = ReportData::fromResultsJson(std::string(THROUGHLINE_TEST_DATA_DIR "/results/") + name);
    if (!r)
        qFatal("%s", r.error().message.c_str());
    return *r;
}

std::vector<RunDeltas::Row> deltas(const ReportData &base, const ReportData &cand)
{
    const DeriveVariant v;
    return RunDeltas::compute(base, RunComparison::storedValues(base, v), cand,
                              RunComparison::storedValues(cand, v), v);
}

const RunDeltas::Row *rowOf(const std::vector<RunDeltas::Row> &rows, const QString &metric)
{
    for (const RunDeltas::Row &r : rows)
        if (r.metric == metric)
            return &r;
    return nullptr;
}
} // namespace

class TestRunDeltas : public QObject
{
    Q_OBJECT
private slots:
    void slowerDeploymentRegresses()
    {
        const auto rows = deltas(load("compare-base.json"), load("compare-slow10.json"));
        for (const char *metric : {"output_tps", "output_tps_per_gpu"}) {
            const RunDeltas::Row *r = rowOf(rows, QString::fromLatin1(metric));
            QVERIFY2(r && r->outcome, metric);
            QCOMPARE(*r->outcome, ComparisonOutcome::Regressed);
            QCOMPARE(r->better, -1);
            QVERIFY(r->effect.lower < -0.05 && r->effect.upper < 0); // about 9 % slower
        }
        // The request rate counts sends per time slice, which come in waves in a closed loop: its interval
        // (±8 % here) is too wide to call the same 9 % drop beyond noise.
        const RunDeltas::Row *rate = rowOf(rows, u"request_rate"_qs);
        QVERIFY(rate && rate->outcome);
        QCOMPARE(*rate->outcome, ComparisonOutcome::WithinNoise);
        QVERIFY(rate->deltaPct < -5);
        const RunDeltas::Row *tpot = rowOf(rows, u"tpot_ms p90"_qs);
        QVERIFY(tpot && tpot->outcome);
        QCOMPARE(*tpot->outcome, ComparisonOutcome::Regressed);
        // TTFT p90 at 300 requests of a closed loop of 16: its upper bound is open.
        const RunDeltas::Row *ttft = rowOf(rows, u"ttft_ms p90"_qs);
        QVERIFY(ttft && ttft->outcome);
        QCOMPARE(*ttft->outcome, ComparisonOutcome::NotEnoughData);
        QCOMPARE(ttft->better, 0);
    }

    void fasterCandidateImproves()
    {
        const auto rows = deltas(load("compare-slow10.json"), load("compare-base.json"));
        const RunDeltas::Row *r = rowOf(rows, u"output_tps"_qs);
        QVERIFY(r && r->outcome);
        QCOMPARE(*r->outcome, ComparisonOutcome::Improved);
        QCOMPARE(r->better, 1);
    }

    void aRunAgainstItselfIsWithinNoise()
    {
        const ReportData base = load("compare-base.json");
        for (const RunDeltas::Row &r : deltas(base, base)) {
            QVERIFY(r.outcome);
            QVERIFY2(*r.outcome == ComparisonOutcome::WithinNoise ||
                         *r.outcome == ComparisonOutcome::NotEnoughData,
                     qPrintable(r.metric));
            QCOMPARE(r.better, 0);
        }
    }

    // Without intervals (runs before results /3, imports): the ±1 % marks, no outcome.
    void withoutIntervalsTheFixedRule()
    {
        ReportData base = load("compare-base.json");
        ReportData slow = load("compare-slow10.json");
        for (ReportData *d : {&base, &slow})
            for (ScenarioResult &s : d->run.scenarios)
                for (PointResult &p : s.points)
                    p.intervals = {};
        const RunDeltas::Row *r = rowOf(deltas(base, slow), u"output_tps"_qs);
        QVERIFY(r);
        QVERIFY(!r->outcome);
        QCOMPARE(r->better, -1);
    }
};

QTEST_GUILESS_MAIN(TestRunDeltas)
#include "tst_rundeltas.moc"
