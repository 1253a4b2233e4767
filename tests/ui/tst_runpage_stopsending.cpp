// The run page's "Stop sending" path, end to end on the in-process simulated endpoint: the demo
// campaign starts from the main window, the points table and the curve grow point by point while the
// run goes on (RunOptions::onPointFinished), a click on the Stop sending tool button lets in-flight
// requests finish (nothing harness-cancelled), and the run lands in the history database (same
// recording code as the CLI) and in the History page's list. Metric tooltips come from
// resources/catalog/metric_definitions.json.
#include "guitestmain.h"
#include "simrunwindow.h"

#include "core/engine/requestrecord.h"
#include "core/storage/historyreader.h"
#include "ui/document/campaigndocument.h"
#include "ui/history/historypage.h"
#include "ui/history/runstablemodel.h"
#include "ui/mainwindow.h"
#include "ui/models/roles.h"
#include "ui/models/runpointsmodel.h"
#include "ui/models/runresultsmodel.h"
#include "ui/pages/runpage.h"
#include "ui/plots/curveplot.h"
#include "ui/plots/timeseriesplot.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QToolButton>

#include <nlohmann/json.hpp>

using namespace Throughline;

namespace {

// Definition sentence ("tooltip") of a metric, read from the source tree, not through the reader under test.
QString definitionFromFile(const std::string &key)
{
    QFile f(QStringLiteral(THROUGHLINE_SOURCE_DIR "/resources/catalog/metric_definitions.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const auto j = nlohmann::json::parse(f.readAll().toStdString());
    for (const auto &m : j.at("metrics"))
        if (m.at("key") == key)
            return QString::fromStdString(m.at("tooltip").get<std::string>());
    return {};
}

} // namespace

class TestRunPageStopSending : public QObject
{
    Q_OBJECT
private slots:
    void metricTooltipsComeFromDefinitions()
    {
        TestFixture::SimRunWindow fixture;
        MainWindow &window = fixture.window;
        RunPage *run = window.runPage();
        const QString ttft = definitionFromFile("ttft_ms");
        const QString tpot = definitionFromFile("tpot_ms");
        QVERIFY(!ttft.isEmpty() && !tpot.isEmpty());
        const QString header = run->pointsModel()
                                   ->headerData(RunPointsModel::TtftP90Col, Qt::Horizontal, Qt::ToolTipRole)
                                   .toString();
        QVERIFY2(header.contains(ttft), qPrintable(header));
        QVERIFY(header.contains(u"p90"));
        QVERIFY(run->latencyPlot()->toolTip().contains(ttft));
        QVERIFY(run->latencyPlot()->toolTip().contains(tpot));
        QVERIFY(run->curvePlot()->toolTip().contains(definitionFromFile("output_tps_per_gpu")));
    }

    void stopMidPointCountsInFlight()
    {
        TestFixture::SimRunWindow fixture;
        MainWindow &window = fixture.window;
        // One long point at real time, no warm-up: the stop lands while measured requests are in flight.
        window.document()->edit(QStringLiteral("one long point"), [](Campaign &c) {
            c.endpoints[0].sim.timeScale = 1;
            c.plan.concurrencies = {8};
            c.plan.requestCount = 0; // 200 × C instead of the demo's fixed 210
            c.plan.requestMultiplier = 200;
            c.plan.warmupRequests = 0;
        });
        RunPage *run = fixture.simulatedRunPage();
        QSignalSpy finished(run, &RunPage::runFinished);
        QVERIFY(run->start());
        // Stop once requests have finished in two closed live buckets (the closed loop re-sent them).
        QTRY_VERIFY_WITH_TIMEOUT(run->throughputPlot()->pointCount(0) >= 2 || !run->isRunning(), 30000);
        QVERIFY(run->isRunning());
        run->stopSending();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(finished.at(0).at(0).toBool());
        const auto outcome = run->lastOutcome();
        QVERIFY(outcome && !outcome->cancelled);
        QCOMPARE(outcome->scenarios.size(), size_t(1)); // the second scenario never started
        const ScenarioOutcome &so = outcome->scenarios[0];
        QCOMPARE(so.points.size(), size_t(1));
        const PointResult &p = so.points[0].result;
        // Every request sent before the stop finished and counts: measured, ok, none cancelled.
        QVERIFY2(p.nSent >= 8, qPrintable(QString::number(p.nSent)));
        QCOMPARE(p.nOk, p.nSent);
        QVERIFY(!p.errors.contains("harness_cancelled"));
        QVERIFY(p.nSent < 8 * 200); // the stop cut the point short

        RunResultsModel *results = run->resultsModel();
        QCOMPARE(results->rowCount(), 2);
        const QModelIndex verdict = results->index(0, RunResultsModel::VerdictCol);
        QCOMPARE(verdict.data(Roles::Verdict).toString(), QStringLiteral("stopped"));
        QVERIFY2(verdict.data(Qt::ToolTipRole).toString().contains(u"stopped by the user"),
                 qPrintable(verdict.data(Qt::ToolTipRole).toString()));
        QVERIFY(results->index(0, RunResultsModel::ValidityCol).data().toString().startsWith(u"stopped"));
        // The measured figures are shown (not n/a): throughput per GPU over the point's window.
        const QVariant tps = results->index(0, RunResultsModel::OutputTpsGpuCol).data(Roles::Sort);
        QVERIFY2(tps.toDouble() > 0, qPrintable(tps.toString()));
        QCOMPARE(results->index(1, RunResultsModel::VerdictCol).data(Roles::Verdict).toString(),
                 QStringLiteral("not_run"));

        RunPointsModel *points = run->pointsModel();
        QCOMPARE(points->rowCount(), 1);
        QVERIFY(points->row(0).stopped);
        QVERIFY(points->index(0, RunPointsModel::ValidityCol).data().toString().startsWith(u"stopped"));
        QCOMPARE(points->index(0, RunPointsModel::RequestsCol).data().toString(),
                 QStringLiteral("%1 / %2").arg(p.nOk).arg(p.nSent));
        QVERIFY(points->index(0, RunPointsModel::ValidityCol)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(u"counted"));
    }

    void stopSendingFinishesInFlightAndRecords()
    {
        TestFixture::SimRunWindow fixture;
        MainWindow &window = fixture.window;
        window.resize(1280, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.document()->filePath(), MainWindow::demoCampaignPath());
        // Longer points (more requests each) so the run is still busy when the first points are in.
        window.document()->edit(QStringLiteral("longer"), [](Campaign &c) {
            c.plan.requestCount = 0; // 30 × C instead of the demo's fixed 210
            c.plan.requestMultiplier = 30;
        });

        RunPage *run = fixture.simulatedRunPage();
        run->setWorkers(2);
        RunPointsModel *points = run->pointsModel();
        QSignalSpy finished(run, &RunPage::runFinished);
        QSignalSpy recorded(run, &RunPage::runRecorded);
        QVERIFY(run->start());

        // Per-point updates: rows arrive while the run is still going.
        QTRY_VERIFY_WITH_TIMEOUT(points->rowCount() >= 2 || !run->isRunning(), 60000);
        QVERIFY2(run->isRunning(), "the run ended before two points were reported");
        const int rowsWhileRunning = points->rowCount();
        QCOMPARE(points->row(0).scenarioIndex, 0);
        QCOMPARE(points->row(0).pointIndex, 0);
        QVERIFY(run->curvePlot()->pointCount() >= 1); // the curve grew with them
        for (const CurvePlot::Point &p : run->curvePlot()->points())
            QVERIFY(!p.estimate);

        // Click the tool button of "Stop sending".
        QToolButton *stopButton = nullptr;
        for (QToolButton *b : run->findChildren<QToolButton *>())
            if (b->defaultAction() && b->defaultAction()->objectName() == u"stopSending")
                stopButton = b;
        QVERIFY(stopButton && stopButton->isEnabled());
        QTest::mouseClick(stopButton, Qt::LeftButton);
        QVERIFY(!stopButton->isEnabled());
        auto *status = run->findChild<QLabel *>(QStringLiteral("runStatus"));
        QVERIFY(status);
        if (run->isRunning()) {
            QVERIFY2(status->text().contains(u"finishing in-flight requests"), qPrintable(status->text()));
            QCOMPARE(run->engineState(), QStringLiteral("finishing in-flight requests"));
            QVERIFY(window.grab().save(QStringLiteral("/tmp/tst_runpage_stopsending_midrun.png")));
        }

        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(finished.at(0).at(0).toBool());
        QVERIFY(window.grab().save(QStringLiteral("/tmp/tst_runpage_stopsending_end.png")));
        const auto outcome = run->lastOutcome();
        QVERIFY(outcome);
        QVERIFY(!outcome->cancelled);
        QCOMPARE(run->engineState(), QStringLiteral("stopped"));
        int outcomePoints = 0;
        for (const ScenarioOutcome &so : outcome->scenarios) {
            outcomePoints += int(so.points.size());
            for (const PointOutcome &po : so.points)
                QVERIFY2(!po.result.errors.contains("harness_cancelled"), so.scenario.id.c_str());
        }
        QVERIFY(outcome->scenarios.back().aborted); // marked stopped
        QVERIFY(outcomePoints >= rowsWhileRunning);
        QVERIFY2(outcomePoints < 6, "stop sending did not end the run early"); // 2 scenarios × 3 points
        QCOMPARE(points->rowCount(), outcomePoints);

        // Honest ending: the stopped scenario is not judged pass/fail; it shows its measured figures
        // with "stopped", or "not measured" when the stop came before any measured request; scenarios
        // never started are "not run". The point cut short is marked in the points table.
        RunResultsModel *results = run->resultsModel();
        const ScenarioOutcome &stoppedScenario = outcome->scenarios.back();
        const int stoppedRow = stoppedScenario.scenarioIndex;
        const QString stoppedStatus =
            results->index(stoppedRow, RunResultsModel::VerdictCol).data(Roles::Verdict).toString();
        bool anyMeasured = false;
        for (const PointOutcome &po : stoppedScenario.points)
            anyMeasured = anyMeasured || po.result.nSent > 0;
        QCOMPARE(stoppedStatus, anyMeasured ? QStringLiteral("stopped") : QStringLiteral("not_measured"));
        for (int r = stoppedRow + 1; r < results->rowCount(); ++r)
            QCOMPARE(results->index(r, RunResultsModel::VerdictCol).data(Roles::Verdict).toString(),
                     QStringLiteral("not_run"));
        QVERIFY(outcome->scenarios.size() < 2 || stoppedRow == 1); // the run was on its 1st or 2nd scenario
        for (int i = 0; i < points->rowCount(); ++i) {
            const RunPointsModel::Row &row = points->row(i);
            const QString validity = points->index(i, RunPointsModel::ValidityCol).data().toString();
            if (row.point.nSent == 0) {
                // A point with nothing measured after the stop is never shown as a failed measurement.
                QVERIFY2(row.stopped, qPrintable(validity));
                QCOMPARE(validity, QStringLiteral("not measured (stopped)"));
            } else if (row.stopped) {
                QVERIFY2(validity.startsWith(u"stopped"), qPrintable(validity));
            }
        }

        // History database: the run, its points and every request (none harness-cancelled).
        QCOMPARE(recorded.count(), 1);
        const QString uuid = QString::fromStdString(outcome->runId);
        QCOMPARE(recorded.at(0).at(0).toString(), uuid);
        QVERIFY2(run->lastRunRecorded(), qPrintable(run->lastRecordNote()));
        HistoryReader reader;
        QVERIFY(reader.open(fixture.options.databasePath.toStdString()));
        auto detail = reader.runDetail(outcome->runId);
        QVERIFY2(detail, detail ? "" : detail.error().message.c_str());
        QCOMPARE(QString::fromStdString(detail->summary.source), QStringLiteral("throughline"));
        QCOMPARE(detail->summary.pointCount, outcomePoints);
        auto stored = reader.points({outcome->runId});
        QVERIFY(stored);
        QCOMPARE(int(stored->size()), outcomePoints);
        std::size_t requests = 0;
        for (const PointRow &p : *stored) {
            auto rows = reader.requests(p.id);
            QVERIFY(rows);
            QVERIFY(!rows->empty());
            requests += rows->size();
            for (const RequestRow &r : *rows)
                QVERIFY2(r.errorClass != int(ErrorClass::HarnessCancelled),
                         qPrintable(QString::number(r.id)));
        }
        qInfo("%d points before the end, %d in the outcome, %zu requests stored", rowsWhileRunning,
              outcomePoints, requests);

        // The History page lists it: its run list is read off the GUI thread (HistoryService), so the
        // recorded run arrives with the reload it triggered, not at once.
        const auto listed = [&] {
            for (const RunSummary &r : window.historyPage()->runsModel()->rows())
                if (r.uuid == outcome->runId)
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(listed(), 15000);
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestRunPageStopSending)
#include "tst_runpage_stopsending.moc"
