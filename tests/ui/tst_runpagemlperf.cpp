// MLPerf Endpoints mode on the Run page (issue 23), end to end on the in-process simulated endpoint: the
// toolbar's switch plans the campaign by the rules, a plan that cannot comply is refused before any request
// with its rule id (in the status line and the panel), and a run's checks are shown live — a real-time
// curve whose first point is far shorter than the rules' 600 s fails exactly EPR-28 after that point, the
// scenario is stopped before its other points, and the report is stored with the run. The same cases as
// tst_climlperf, through the app's run path.
#include "guitestmain.h"
#include "simrunwindow.h"

#include "core/storage/historyreader.h"
#include "ui/document/campaigndocument.h"
#include "ui/history/chartview.h"
#include "ui/history/mlperfcurveview.h"
#include "ui/pages/runpage.h"
#include "ui/run/mlperfpanel.h"
#include "ui/run/mlperfruncontrols.h"

#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTreeWidget>

using namespace Throughline;

namespace {

// One short phase in real time: a few requests per point, so a point lasts about a second.
void realTimeShortPhase(Campaign &c)
{
    c.endpoints[0].sim.timeScale = 1;
    c.endpoints[0].serverTiming = {};
    c.phases = {Phase{"Short", 64, 16, {}, {}, {}}};
    c.slos.erase("Chat"); // the demo's SLO of a phase no longer there
    c.plan.requestCount = 8;
    c.plan.warmupRequests = 0;
    c.plan.warmupMultiplier = 0;
    c.plan.cooldownS = 0;
    c.plan.minWindowS = 0;
}

QString statusText(RunPage *run)
{
    return run->findChild<QLabel *>(QStringLiteral("runStatus"))->text();
}

} // namespace

class TestRunPageMlperf : public QObject
{
    Q_OBJECT
private slots:
    void brokenPlanIsRefusedWithItsRule()
    {
        TestFixture::SimRunWindow fixture;
        RunPage *run = fixture.simulatedRunPage();
        fixture.window.document()->edit(QStringLiteral("four points"), [](Campaign &c) {
            realTimeShortPhase(c);
            c.plan.mode = LoadPlan::Mode::Closed;
            c.plan.concurrencies = {1, 4, 8, 64}; // C_max 64 wants at least seven points
        });
        MlperfRunControls *mlperf = run->mlperfControls();
        QVERIFY(!mlperf->panel()->isVisibleTo(run));
        run->findChild<QCheckBox *>(QStringLiteral("mlperfMode"))->click();
        QVERIFY(mlperf->enabled());
        QSignalSpy started(run, &RunPage::runStarted);
        QVERIFY(!run->start());
        QCOMPARE(started.count(), 0);
        QVERIFY2(statusText(run).contains(u"cannot comply"_qs) && statusText(run).contains(u"EPR-09"_qs),
                 qPrintable(statusText(run)));
        QVERIFY(mlperf->panel()->isVisibleTo(run));
        QCOMPARE(mlperf->panel()->stateOf(0, u"EPR-09"_qs), u"fail"_qs);
        QVERIFY(!run->isRunning());
    }

    void liveChecksStopAScenarioThatCannotComply()
    {
        TestFixture::SimRunWindow fixture;
        RunPage *run = fixture.simulatedRunPage();
        fixture.window.document()->edit(QStringLiteral("a real-time curve"), [](Campaign &c) {
            realTimeShortPhase(c);
            c.plan.mode = LoadPlan::Mode::Curve;
            c.plan.spacing = LoadPlan::CurveSpacing::MlperfEndpoints;
            c.plan.cMin = 1;
            c.plan.cMax = 64;
        });
        MlperfRunControls *mlperf = run->mlperfControls();
        mlperf->setEnabled(true);
        QSignalSpy checked(mlperf, &MlperfRunControls::pointChecked);
        QSignalSpy finished(run, &RunPage::runFinished);
        QVERIFY2(run->start(), qPrintable(statusText(run)));
        // Before any point: the plan's seven points, the duration rule still pending.
        QCOMPARE(mlperf->panel()->tree()->topLevelItemCount(), 1);
        QCOMPARE(mlperf->panel()->stateOf(0, u"EPR-28"_qs), u"pending"_qs);
        QVERIFY(
            !run->findChild<QCheckBox *>(QStringLiteral("mlperfMode"))->isEnabled()); // locked while running
        // Live: the first point's line names the rule, and the panel shows it failed while the run goes on.
        QVERIFY(checked.wait(60000));
        QVERIFY2(checked.first().at(1).toString().startsWith(u"C=1: fail EPR-28"_qs),
                 qPrintable(checked.first().at(1).toString()));
        QCOMPARE(mlperf->panel()->stateOf(0, u"EPR-28"_qs), u"fail"_qs);
        // The official charts of the points so far: the frontier of the one measured point.
        QTRY_COMPARE(mlperf->panel()->curve()->scenarioCount(), 1);
        int markers = 0;
        for (const ChartSeries &s : mlperf->panel()->curve()->frontierView()->chart().series)
            markers += s.markerCount();
        QVERIFY2(markers >= 1, qPrintable(QString::number(markers)));
        QVERIFY(finished.wait(60000) || finished.count() == 1);
        QCOMPARE(checked.count(), 1); // stopped after its first point: nothing else was measured
        QCOMPARE(mlperf->panel()->stateOf(0, u"EPR-28"_qs), u"fail"_qs);
        QVERIFY2(mlperf->panel()->headline().contains(u"not compliant"_qs),
                 qPrintable(mlperf->panel()->headline()));
        const QTreeWidgetItem *scenario = mlperf->panel()->tree()->topLevelItem(0);
        QVERIFY2(scenario->text(2).contains(u"EPR-28"_qs) &&
                     scenario->text(2).contains(u"1 point(s) measured of 7"_qs),
                 qPrintable(scenario->text(2)));
        // A look at the page (docs, reviews): THROUGHLINE_MLPERF_SHOT=FILE.png saves the window as it is now.
        if (const QString shot = qEnvironmentVariable("THROUGHLINE_MLPERF_SHOT"); !shot.isEmpty()) {
            fixture.window.resize(1440, 900);
            fixture.window.setCurrentPage(MainWindow::RunMonitorPage);
            fixture.window.show();
            QTest::qWait(300);
            QVERIFY(fixture.window.grab().save(shot));
            mlperf->panel()->tabs()->setCurrentWidget(mlperf->panel()->curve());
            QTest::qWait(300);
            QVERIFY(fixture.window.grab().save(QString(shot).replace(u".png"_qs, u"-curve.png"_qs)));
        }
        // Stored with the run, as the CLI stores it.
        QVERIFY(run->lastRunRecorded());
        HistoryReader reader;
        QVERIFY(reader.open(fixture.options.databasePath.toStdString()).ok());
        auto runs = reader.listRuns();
        QVERIFY(runs.ok() && runs->size() == 1);
        auto detail = reader.runDetail(runs->front().uuid);
        QVERIFY(detail.ok());
        QCOMPARE(detail->provenance["mlperf"]["scenarios"][0]["failed_rules"].dump(),
                 std::string(R"(["EPR-28"])"));
    }

    void datasetSizeGivesWholePassesAndSteadyState()
    {
        // The toolbar's dataset size reaches the mode: a dedicated Offline point at the dataset size (40),
        // whole passes per point (at least 4), the steady-state verdict and the sample order, live and in the
        // stored report. In real time the first point is too short (EPR-28) and the scenario stops there.
        TestFixture::SimRunWindow fixture;
        RunPage *run = fixture.simulatedRunPage();
        fixture.window.document()->edit(QStringLiteral("a real-time curve with a dataset"), [](Campaign &c) {
            realTimeShortPhase(c);
            c.phases = {Phase{"Short", 64, 4, {}, {}, {}}};
            c.plan.mode = LoadPlan::Mode::Curve;
            c.plan.spacing = LoadPlan::CurveSpacing::MlperfEndpoints;
            c.plan.cMin = 1;
            c.plan.cMax = 40;
            c.plan.requestCount = 100000;
            c.plan.pointDurationS = 1;
        });
        MlperfRunControls *mlperf = run->mlperfControls();
        mlperf->setEnabled(true);
        auto *dataset = run->findChild<QSpinBox *>(QStringLiteral("mlperfDatasetSize"));
        QVERIFY(dataset && dataset->isEnabled());
        dataset->setValue(40);
        QSignalSpy checked(mlperf, &MlperfRunControls::pointChecked);
        QSignalSpy finished(run, &RunPage::runFinished);
        QVERIFY2(run->start(), qPrintable(statusText(run)));
        QVERIFY(!dataset->isEnabled()); // locked while running
        QVERIFY(checked.wait(60000));
        QVERIFY2(checked.first().at(1).toString().startsWith(u"C=1: fail EPR-28 "_qs),
                 qPrintable(checked.first().at(1).toString()));
        // Per-point rules stay pending for the campaign until every point is in; none of them failed.
        for (const QString &id : {u"EPR-30"_qs, u"EPR-31"_qs, u"EPR-36"_qs, u"EPR-37"_qs, u"EPR-38"_qs})
            QVERIFY2(mlperf->panel()->stateOf(0, id) == u"pending"_qs,
                     qPrintable(id + u" "_qs + mlperf->panel()->stateOf(0, id)));
        QVERIFY(finished.wait(60000) || finished.count() == 1);
        HistoryReader reader;
        QVERIFY(reader.open(fixture.options.databasePath.toStdString()).ok());
        auto runs = reader.listRuns();
        QVERIFY(runs.ok() && runs->size() == 1);
        auto detail = reader.runDetail(runs->front().uuid);
        QVERIFY(detail.ok());
        const nlohmann::json &sc = detail->provenance["mlperf"]["scenarios"][0];
        QCOMPARE(sc["failed_rules"].dump(), std::string(R"(["EPR-28"])"));
        QCOMPARE(sc["dataset_size"].get<int>(), 40);
        QCOMPARE(sc["sample_order"].get<std::string>(), std::string("with_replacement"));
        QCOMPARE(sc["steady_state"][0]["verdict"].get<std::string>(), std::string("STEADY STATE"));
        QVERIFY(sc["steady_state"][0]["super_passes"].get<int>() >= 4);
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestRunPageMlperf)
#include "tst_runpagemlperf.moc"
