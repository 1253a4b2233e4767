// One rule for the throughput-vs-interactivity curve (ui/plots/curverule.h), the same in the run monitor
// (CurvePlot) and History (RunComparison's overlay): a valid point filled at 1000 / TPOT p90; a flagged point
// drawn hollow with its flags as the reason; a low-sample point (TPOT p90 not reportable) drawn hollow at
// TPOT mean and saying so; only a point without any TPOT is left out. The legend names hollow points and the
// run monitor's hover text gives the reason. Error bars are the stored intervals on both axes, the same in
// the run monitor, History's curves and bars, and the report's charts; an open side stays open.
#include "ui/plots/qcp.h" // first: qcustomplot.h before any other Qt header (STYLE.md)

#include "guitestmain.h"

#include "core/metrics/stats.h"
#include "ui/history/runcomparison.h"
#include "ui/plots/curveplot.h"
#include "ui/plots/curverule.h"
#include "ui/report/reportcharts.h"
#include "ui/report/reportdata.h"

#include <cmath>
#include <limits>

using namespace Throughline;

namespace {

PointResult loadPoint(int concurrency, int n, double tpotMs, std::vector<std::string> flags = {})
{
    PointResult p;
    p.load.concurrency = concurrency;
    p.nSent = p.nOk = n;
    p.metrics.outputTpsPerGpu = 100.0 * concurrency;
    p.metrics.outputTps = p.metrics.outputTpsPerGpu;
    std::vector<double> tpot;
    for (int i = 0; i < n; ++i)
        tpot.push_back(tpotMs + 0.01 * (i % 7));
    p.metrics.tpotMs = summarize(tpot);
    p.validity.valid = flags.empty();
    p.validity.flags = std::move(flags);
    return p;
}

} // namespace

class TestCurveRule : public QObject
{
    Q_OBJECT
private slots:
    void oneRuleForEveryPoint()
    {
        const auto valid = CurveRule::point(loadPoint(16, 200, 10));
        QVERIFY(valid);
        QVERIFY(!valid->hollow());
        QVERIFY(valid->reason.isEmpty());
        QCOMPARE(valid->x, 1600.0);
        QVERIFY(std::abs(valid->y - 1000.0 / *loadPoint(16, 200, 10).metricValue("tpot_ms", "p90")) < 1e-9);

        const auto flagged = CurveRule::point(loadPoint(32, 200, 12, {"client_bound"}));
        QVERIFY(flagged && flagged->hollow());
        QCOMPARE(flagged->reason, u"client_bound"_qs);

        const PointResult few = loadPoint(4, 39, 8, {"low_sample"});
        QVERIFY(!few.metricValue("tpot_ms", "p90")); // not reportable at n = 39
        const auto lowSample = CurveRule::point(few);
        QVERIFY(lowSample && lowSample->hollow());
        QVERIFY(std::abs(lowSample->y - 1000.0 / few.metrics.tpotMs.mean) < 1e-9);
        QVERIFY2(lowSample->reason.contains(u"low_sample"_qs) && lowSample->reason.contains(u"TPOT mean"_qs),
                 qPrintable(lowSample->reason));

        PointResult none = loadPoint(1, 0, 0);
        QVERIFY(!CurveRule::point(none));
    }

    void runMonitorAndHistoryDrawTheSame()
    {
        ScenarioResult s;
        s.id = "m/vllm/H200×1/Chat";
        s.points = {loadPoint(4, 39, 8, {"low_sample"}), loadPoint(8, 200, 9), loadPoint(16, 200, 10),
                    loadPoint(32, 200, 12, {"client_bound"})};
        RunResults results;
        results.runId = "0123456789abcdef";
        results.scenarios = {s};
        const Chart history = RunComparison::overlay({ReportData::fromResults(results)});
        QCOMPARE(history.series.size(), 1);
        const ChartSeries &h = history.series.front();
        QVERIFY2(h.name.contains(CurveRule::hollowLegendNote()), qPrintable(h.name));

        CurvePlot monitor;
        monitor.resize(600, 400);
        monitor.setSeriesNames({QString::fromStdString(s.id)});
        QList<CurvePlot::Point> points;
        for (const PointResult &p : s.points)
            if (auto pt = CurvePlot::pointOf(0, p))
                points << *pt;
        monitor.setPoints(points);
        const ChartSeries m = monitor.chart().series.front();
        QVERIFY2(m.name.contains(CurveRule::hollowLegendNote()), qPrintable(m.name));

        QCOMPARE(h.points.size(), 4); // nothing hidden, in either view
        QCOMPARE(m.points.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(m.points[i].x, h.points[i].x);
            QCOMPARE(m.points[i].y, h.points[i].y);
            QCOMPARE(m.points[i].hollow(), h.points[i].hollow());
        }
        QCOMPARE(h.hollowMarkerCount(), 2);

        // Hover over the low-sample point: its reason.
        monitor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&monitor));
        QTest::qWait(100); // the queued replot lays the axes out
        const QPoint at = monitor.pixelOf(points[0].x, points[0].y);
        const QString tip = monitor.toolTipAt(at);
        QVERIFY2(tip.contains(u"low_sample"_qs) && tip.contains(u"not valid for a verdict"_qs),
                 qPrintable(tip));
        QVERIFY(monitor.toolTipAt(QPoint(2, 2)).isEmpty());
    }

    // A real results /3 run (tests/data/results/compare-base.json): every view's error bars are the point's
    // stored intervals — x the throughput per GPU's bootstrap, y = 1000 / TPOT p90 with TPOT's bounds
    // swapped.
    void errorBarsAreTheStoredIntervals()
    {
        auto loaded = ReportData::fromResultsJson(THROUGHLINE_TEST_DATA_DIR "/results/compare-base.json");
        QVERIFY(loaded.ok());
        const ReportData run = *loaded;
        const ScenarioResult &s = run.run.scenarios.front();
        QCOMPARE(s.points.size(), std::size_t(2));
        const Chart history = RunComparison::overlay({run});
        const Chart stored = RunComparison::overlay({run}, {RunComparison::storedValues(run, {})}, {});
        const Chart report = ReportCharts::frontier(u"Chat"_qs, ReportCharts::ofPhase(run.run, "Chat"));
        const Chart ttft =
            ReportCharts::latencyVsLoad(u"Chat"_qs, ReportCharts::ofPhase(run.run, "Chat"), "ttft_ms");
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const PointResult &p = s.points[i];
            const auto x = p.metricInterval("output_tps_per_gpu", "value");
            const auto tpot = p.metricInterval("tpot_ms", "p90");
            QVERIFY(x && x->bounded() && tpot && tpot->bounded());
            auto sameBars = [&](const ChartPoint &cp, const char *view) {
                QVERIFY2(cp.xInterval && cp.yInterval, view);
                QCOMPARE(cp.xInterval->low, x->lower);
                QCOMPARE(cp.xInterval->high, x->upper);
                QCOMPARE(cp.yInterval->low, 1000.0 / tpot->upper);
                QCOMPARE(cp.yInterval->high, 1000.0 / tpot->lower);
                QVERIFY(cp.xInterval->low < cp.x && cp.x < cp.xInterval->high);
                QVERIFY(cp.yInterval->low < cp.y && cp.y < cp.yInterval->high);
            };
            sameBars(*CurveRule::point(p), "curve rule");
            sameBars(history.series.front().points[int(i)], "History, stored");
            sameBars(stored.series.front().points[int(i)], "History, stored values");
            sameBars(report.series.front().points[int(i)], "report frontier");
            const auto ttftP90 = p.metricInterval("ttft_ms", "p90");
            QVERIFY(ttftP90 && ttft.series.front().points[int(i)].yInterval);
            QCOMPARE(ttft.series.front().points[int(i)].yInterval->high, ttftP90->upper);
        }
        // Re-derived values carry no stored interval: no bars.
        DerivedValues derived = RunComparison::storedValues(run, {})[0][0];
        derived.fromRequests = true;
        const Chart rederived = RunComparison::overlay({run}, {{{derived}}}, {});
        QVERIFY(!rederived.series.front().points.front().yInterval);
        // Another percentile: that percentile's interval.
        DeriveVariant p50;
        p50.percentile = 50;
        const Chart median = RunComparison::overlay({run}, {RunComparison::storedValues(run, p50)}, p50);
        const auto tpot50 = s.points[0].metricInterval("tpot_ms", "p50");
        QVERIFY(tpot50 && median.series.front().points[0].yInterval);
        QCOMPARE(median.series.front().points[0].yInterval->low, 1000.0 / tpot50->upper);
        // The Compare tab's bars: the operating point's throughput interval.
        const Chart bars = RunComparison::phaseBars({run}, {RunComparison::storedValues(run, {})},
                                                    RunComparison::BarMetric::OutputTpsPerGpu, {});
        const int op = RunComparison::operatingPoint(s);
        QVERIFY(op >= 0 && bars.series.front().points.front().yInterval);
        QCOMPARE(bars.series.front().points.front().yInterval->low,
                 s.points[std::size_t(op)].metricInterval("output_tps_per_gpu", "value")->lower);
        // The run monitor shows the same, and its hover text gives the intervals.
        CurvePlot monitor;
        monitor.resize(600, 400);
        QList<CurvePlot::Point> points;
        for (const PointResult &p : s.points)
            points << *CurvePlot::pointOf(0, p);
        monitor.setPoints(points);
        const ChartPoint shown = monitor.chart().series.front().points.front();
        QVERIFY(shown.xInterval && shown.yInterval);
        monitor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&monitor));
        QTest::qWait(100);
        const QString tip = monitor.toolTipAt(monitor.pixelOf(points[0].x, points[0].y));
        QVERIFY2(tip.contains(u"95 % interval"_qs), qPrintable(tip));

        // An open TPOT upper bound (too few requests for it) is an open lower end of 1000 / TPOT.
        PointResult open = s.points[0];
        Interval iv = *open.metricInterval("tpot_ms", "p90");
        iv.upper = std::numeric_limits<double>::infinity();
        open.intervals.set("tpot_ms", "p90", iv);
        const auto bar = CurveRule::point(open)->yInterval;
        QVERIFY(bar && std::isinf(bar->low) && bar->low < 0 && std::isfinite(bar->high));
        QVERIFY(CurveRule::intervalText(bar, 0.95, 1).contains(u"open"_qs));
    }

    // The run monitor's legend and its target labels never cover each other or the points: the legend sits
    // under the axes, and labels of close horizontal bounds alternate sides. (The legend used to sit in the
    // bottom-left corner, over the labels of the TPOT bounds.)
    void legendAndTargetLabelsDoNotOverlap()
    {
        CurvePlot monitor;
        monitor.resize(600, 600);
        monitor.setSeriesNames(
            {u"gpt-oss-20b/vllm/H200×1/Chat"_qs, u"gpt-oss-20b/vllm/H200×1/Reasoning-short"_qs});
        QList<CurvePlot::Point> points;
        for (int s = 0; s < 2; ++s)
            for (int c : {4, 8, 16, 32})
                points << CurvePlot::Point{s, 80.0 * c, 130.0 - 1.5 * c - 10 * s, false, true, {}, {}, {}, 0};
        monitor.setPoints(points);
        monitor.setMarkers({{false, 10, u"TPOT p90 <= 100 ms"_qs},
                            {false, 5, u"TPOT p90 <= 200 ms"_qs},
                            {true, 1000, u"baseline target 1000"_qs}});
        monitor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&monitor));
        QTest::qWait(100); // the queued replot lays the axes out
        auto *plot = monitor.findChild<QCustomPlot *>();
        QVERIFY(plot);
        plot->replot();
        const QRect axes = plot->axisRect()->rect();
        const QRect legend = plot->legend->outerRect();
        QVERIFY(plot->legend->visible());
        QVERIFY2(!legend.intersects(axes), qPrintable(u"legend %1,%2 %3×%4"_qs.arg(legend.x())
                                                          .arg(legend.y())
                                                          .arg(legend.width())
                                                          .arg(legend.height())));
        QVERIFY(legend.bottom() <= plot->height());
        QList<QRectF> labels;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                labels << QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
        QCOMPARE(labels.size(), 3);
        for (int a = 0; a < labels.size(); ++a) {
            QVERIFY(!labels[a].intersects(QRectF(legend)));
            for (int b = a + 1; b < labels.size(); ++b)
                QVERIFY2(!labels[a].intersects(labels[b]), qPrintable(u"labels %1 and %2"_qs.arg(a).arg(b)));
        }
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestCurveRule)
#include "tst_curverule.moc"
