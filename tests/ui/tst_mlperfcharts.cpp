// The MLPerf Endpoints charts of the report (ui/report/mlperfcharts.h) on a run measured in MLPerf mode: the
// frontier series is core's step function (core/mlperf/frontier.h) of the valid points, drawn with every
// measured point (an invalid one hollow) and the rules' coordinates; the plan's regions are shaded in plan
// order on both kinds of chart; error bars are the stored intervals of the mlperf throughput and of 1000 /
// TPOT p90 without TTFT; a run without MLPerf provenance has no such charts.
#include "guitestmain.h"

#include "core/metrics/stats.h"
#include "ui/history/chartview.h"
#include "ui/history/mlperfcurveview.h"
#include "ui/report/mlperfcharts.h"
#include "ui/report/reportwriter.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <QTest>

#include <cmath>

using namespace Throughline;

namespace {

// A closed-loop point at concurrency c: system tok/s `tps` (the mlperf variant), TPOT-without-TTFT p90
// `tpot`.
PointResult point(int c, double tps, double tpot, bool valid = true)
{
    PointResult p;
    p.load.mode = PointLoad::Mode::Concurrency;
    p.load.concurrency = c;
    p.nOk = p.nSent = 200;
    p.metrics.outputTps = p.metrics.outputTpsMlperf = tps;
    std::vector<double> v(200, tpot);
    p.metrics.tpotMlperfMs = summarize(v);
    p.metrics.ttftMs = summarize(std::vector<double>(200, 10.0 * c));
    p.validity.valid = valid;
    if (!valid)
        p.validity.flags = {"window_short"};
    Interval tpsIv;
    tpsIv.lower = 0.95 * tps;
    tpsIv.upper = 1.05 * tps;
    tpsIv.method = IntervalMethod::BlockBootstrap;
    p.intervals.level = 0.95;
    p.intervals.set("output_tps_mlperf", "value", tpsIv);
    Interval tpotIv;
    tpotIv.lower = 0.9 * tpot;
    tpotIv.upper = 1.1 * tpot;
    tpotIv.method = IntervalMethod::OrderStatistic;
    p.intervals.set("tpot_mlperf_ms", "p90", tpotIv);
    return p;
}

ReportData mlperfRun()
{
    ScenarioResult s;
    s.id = "gpt-oss-20b/vllm/H200×1/Chat";
    // Interactivity 1000 / TPOT: 125, 100, 80, 50, 40 tok/s per user, throughput rising with concurrency:
    // every valid point is on the frontier; the C = 64 point is invalid and is not.
    s.points = {point(1, 100, 8), point(4, 350, 10), point(16, 1200, 12.5), point(32, 2000, 20),
                point(64, 3000, 25, false)};
    RunResults run;
    run.runId = "0123456789abcdef";
    run.scenarios = {s};
    ReportData data = ReportData::fromResults(run);
    data.provenance["mlperf"] = {{"schema", "throughline.mlperf-compliance/1"},
                                 {"preset", "mlperf-endpoints-1.0"},
                                 {"scenarios",
                                  {{{"scenario", s.id},
                                    {"plan",
                                     {{{"concurrency", 1}, {"region", "ultra_low"}},
                                      {{"concurrency", 4}, {"region", "ultra_low"}},
                                      {{"concurrency", 16}, {"region", "low"}},
                                      {{"concurrency", 32}, {"region", "medium"}},
                                      {{"concurrency", 64}, {"region", "high"}}}}}}}};
    return data;
}

} // namespace

class TestMlperfCharts : public QObject
{
    Q_OBJECT
private slots:
    void frontierIsCoresStepFunction()
    {
        const ReportData run = mlperfRun();
        const auto curves = MlperfCharts::curvesOf(run);
        QCOMPARE(curves.size(), std::size_t(1));
        QCOMPARE(curves[0].preset, std::string("mlperf-endpoints-1.0"));
        QCOMPARE(curves[0].regionOf.at(32), std::string("medium"));
        const Chart chart = MlperfCharts::frontier(curves[0]);
        QCOMPARE(chart.series.size(), 2);
        const ChartSeries &steps = chart.series[0];
        const Mlperf::Frontier f = MlperfCharts::frontierOf(*curves[0].scenario);
        QCOMPARE(f.points().size(), std::size_t(4)); // the invalid C = 64 point is not on it
        QCOMPARE(steps.points.size(), qsizetype(2 * f.steps().size()));
        for (std::size_t i = 0; i < f.steps().size(); ++i) {
            QCOMPARE(steps.points[qsizetype(2 * i)].x, f.steps()[i].xFrom);
            QCOMPARE(steps.points[qsizetype(2 * i + 1)].x, f.steps()[i].xTo);
            QCOMPARE(steps.points[qsizetype(2 * i)].y, f.steps()[i].systemTps);
        }
        // Up to the least interactive valid point (40 tok/s per user) the best is C = 32's 2,000 tok/s.
        QCOMPARE(steps.points[0].y, 2000.0);
        QCOMPARE(*f.throughputAt(90), 350.0);
        const ChartSeries &measured = chart.series[1];
        QCOMPARE(measured.points.size(), 5);
        QCOMPARE(measured.hollowMarkerCount(), 1);
        const ChartPoint &c32 = measured.points[3];
        QCOMPARE(c32.x, 50.0);
        QCOMPARE(c32.y, 2000.0);
        QVERIFY(c32.yInterval && c32.xInterval);
        QCOMPARE(c32.yInterval->low, 1900.0);
        QCOMPARE(c32.xInterval->low, 1000.0 / 22.0); // TPOT's upper bound gives the lower end
        // Regions in interactivity: Ultra Low the most interactive, then Low, Medium, High.
        QCOMPARE(chart.regions.size(), 4);
        QStringList labels;
        for (const ChartRegion &r : chart.regions)
            labels << r.label;
        QCOMPARE(labels, (QStringList{u"High"_qs, u"Medium"_qs, u"Low"_qs, u"Ultra Low"_qs}));
        for (qsizetype i = 1; i < chart.regions.size(); ++i)
            QCOMPARE(chart.regions[i].x0, chart.regions[i - 1].x1); // contiguous
    }

    void againstConcurrencyOnALogAxis()
    {
        const ReportData run = mlperfRun();
        const auto curves = MlperfCharts::curvesOf(run);
        const Chart perUser = MlperfCharts::againstConcurrency(curves[0], MlperfCharts::Axis::TpsPerUser);
        QVERIFY(perUser.logX);
        QCOMPARE(perUser.series.front().points.size(), 5);
        QCOMPARE(perUser.series.front().points[0].y, 125.0);
        QCOMPARE(perUser.series.front().points[4].x, 64.0);
        QVERIFY(perUser.series.front().points[4].hollow());
        const Chart system = MlperfCharts::againstConcurrency(curves[0], MlperfCharts::Axis::SystemTps);
        QCOMPARE(system.series.front().points[2].y, 1200.0);
        QCOMPARE(system.series.front().points[2].yInterval->high, 1260.0);
        const Chart ttft = MlperfCharts::againstConcurrency(curves[0], MlperfCharts::Axis::TtftP90);
        QCOMPARE(ttft.series.front().points[1].y, 40.0);
        // Bands on concurrency: Ultra Low holds 1 and 4, edges halfway (geometrically) to the next region.
        QCOMPARE(system.regions.size(), 4);
        QCOMPARE(system.regions[0].label, u"Ultra Low"_qs);
        QCOMPARE(system.regions[0].x1, std::sqrt(4.0 * 16.0));
        QCOMPARE(system.regions[3].x0, std::sqrt(32.0 * 64.0));
    }

    void levelsInsideTheRange()
    {
        const ReportData run = mlperfRun();
        const Mlperf::Frontier f = MlperfCharts::frontierOf(run.run.scenarios.front());
        const std::vector<double> levels = MlperfCharts::levels(f);
        QVERIFY(!levels.empty());
        for (double l : levels)
            QVERIFY(l > 0 && l <= f.maxTpsPerUser() && f.throughputAt(l));
    }

    void noMlperfProvenanceNoCharts()
    {
        ReportData run = mlperfRun();
        run.provenance.erase("mlperf");
        QVERIFY(MlperfCharts::curvesOf(run).empty());
        MlperfCurveView view;
        QVERIFY(!view.setRun(run));
        QCOMPARE(view.scenarioCount(), 0);
    }

    // History's tab shows the same charts and the frontier's numbers.
    void historyViewShowsTheCurve()
    {
        MlperfCurveView view;
        QVERIFY(view.setRun(mlperfRun()));
        QCOMPARE(view.scenarioCount(), 1);
        const Chart &frontier = view.frontierView()->chart();
        QCOMPARE(frontier.series.size(), 2);
        QCOMPARE(frontier.series[1].points.size(), 5);
        const Mlperf::Frontier f = MlperfCharts::frontierOf(mlperfRun().run.scenarios.front());
        QVERIFY2(view.summaryText().contains(QString::number(f.area(), 'f', 0)),
                 qPrintable(view.summaryText()));
        QVERIFY2(view.summaryText().contains(u"2000 tok/s at 20 tok/s per user"_qs),
                 qPrintable(view.summaryText()));
    }

    // A candidate 10 % faster at every point against the baseline: core's comparison over the common range,
    // area and every level at 110 %; the comparison report prints it. A candidate without MLPerf provenance
    // is not compared.
    void frontierAgainstBaseline()
    {
        const ReportData base = mlperfRun();
        ReportData faster = mlperfRun();
        faster.run.runId = "fedcba9876543210";
        for (PointResult &p : faster.run.scenarios.front().points)
            p.metrics.outputTpsMlperf *= 1.1;
        const auto against = MlperfCharts::againstBaseline(faster, base);
        QCOMPARE(against.size(), std::size_t(1));
        const Mlperf::FrontierComparison &c = against.front().comparison;
        QCOMPARE(c.xTo, 125.0);
        QVERIFY(c.areaRatio && std::abs(*c.areaRatio - 1.1) < 1e-9);
        QVERIFY(!c.levels.empty());
        for (const Mlperf::LevelComparison &l : c.levels)
            QVERIFY2(l.ratio && std::abs(*l.ratio - 1.1) < 1e-9, qPrintable(QString::number(l.tpsPerUser)));

        QTemporaryDir dir;
        const QString pdf = dir.filePath(u"compare.pdf"_qs);
        QVERIFY(ReportWriter::writeComparison({base, faster}, pdf, {}).ok());
        if (qEnvironmentVariableIsSet("THROUGHLINE_REPORT_KEEP"))
            QFile::copy(pdf, qEnvironmentVariable("THROUGHLINE_REPORT_KEEP") + u"/compare-mlperf.pdf"_qs);
        QProcess text;
        text.start(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs});
        QVERIFY(text.waitForFinished(30000));
        const QString out = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY2(out.contains(u"MLPerf Endpoints frontiers against the baseline"_qs), qPrintable(out));
        QVERIFY2(out.contains(QRegularExpression(
                     u"Area over 0.125\\.0 tok/s per user\\s+[\\d,]+\\s+[\\d,]+\\s+110\\.0 %"_qs)),
                 qPrintable(out));

        ReportData plain = faster;
        plain.provenance.erase("mlperf");
        QVERIFY(MlperfCharts::againstBaseline(plain, base).empty());
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestMlperfCharts)
#include "tst_mlperfcharts.moc"
