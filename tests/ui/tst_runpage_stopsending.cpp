// The run page's "Stop sending" path, end to end on the in-process simulated endpoint: the demo
// campaign starts from the main window, the points table and the curve grow point by point while the
// run goes on (RunOptions::onPointFinished), a click on the Stop sending tool button lets in-flight
// requests finish (nothing harness-cancelled), and the run lands in the history database (same
// recording code as the CLI) and in the History page's list. Metric tooltips come from
// resources/catalog/metric_definitions.json.
#include "guitestmain.h"

#include "app/gui/simlauncher.h"
#include "core/engine/requestrecord.h"
#include "core/storage/historyreader.h"
#include "ui/document/campaigndocument.h"
#include "ui/history/historypage.h"
#include "ui/history/runstablemodel.h"
#include "ui/mainwindow.h"
#include "ui/models/runpointsmodel.h"
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
        QTemporaryDir dir;
        MainWindow::Options options;
        options.databasePath = dir.filePath(QStringLiteral("history.sqlite"));
        options.restoreState = false;
        MainWindow window(options);
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

    void stopSendingFinishesInFlightAndRecords()
    {
        QTemporaryDir dir;
        MainWindow::Options options;
        options.databasePath = dir.filePath(QStringLiteral("history.sqlite"));
        options.restoreState = false;
        MainWindow window(options);
        window.resize(1280, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.document()->filePath(), MainWindow::demoCampaignPath());
        // Longer points (more requests each) so the run is still busy when the first points are in.
        window.document()->edit(QStringLiteral("longer"), [](Campaign &c) { c.plan.requestMultiplier = 30; });

        RunPage *run = window.runPage();
        run->setSimLauncher(makeInProcessSimLauncher());
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

        // History database: the run, its points and every request (none harness-cancelled).
        QCOMPARE(recorded.count(), 1);
        const QString uuid = QString::fromStdString(outcome->runId);
        QCOMPARE(recorded.at(0).at(0).toString(), uuid);
        QVERIFY2(run->lastRunRecorded(), qPrintable(run->lastRecordNote()));
        HistoryReader reader;
        QVERIFY(reader.open(options.databasePath.toStdString()));
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

        // The History page lists it.
        bool listed = false;
        for (const RunSummary &r : window.historyPage()->runsModel()->rows())
            listed = listed || r.uuid == outcome->runId;
        QVERIFY(listed);
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestRunPageStopSending)
#include "tst_runpage_stopsending.moc"
