// A user's first session, clicked through with real widgets (offscreen): the main window on the demo
// campaign, every page visited through the navigation list before and after one demo run on the in-process
// simulated endpoint. No page is a placeholder; after the run the run monitor's curve holds ≥ 4 points per
// scenario, History has the new run selected with a non-empty curve, and Targets shows that run's pass/fail
// matrix (one row per scenario, judged), and Plan sizes that run's two deployments.
#include "guitestmain.h"
#include "simrunwindow.h"

#include "ui/history/chartview.h"
#include "ui/history/historypage.h"
#include "ui/pages/designerpage.h"
#include "ui/pages/planpage.h"
#include "ui/plots/curveplot.h"
#include "ui/targets/targetspage.h"

#include <QAction>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableWidget>

#include <map>

using namespace Throughline;

namespace {

// Clicks the navigation entry of `page` and returns the page widget shown.
QWidget *visit(MainWindow &window, MainWindow::Page page)
{
    auto *nav = window.findChild<QListWidget *>(QStringLiteral("navigation"));
    if (!nav)
        return nullptr;
    QListWidgetItem *item = nav->item(int(page));
    QTest::mouseClick(nav->viewport(), Qt::LeftButton, {}, nav->visualItemRect(item).center());
    if (window.currentPage() != page)
        return nullptr;
    for (QStackedWidget *stack : window.findChildren<QStackedWidget *>())
        if (stack->parentWidget() && stack->parentWidget()->parentWidget() == &window)
            return stack->currentWidget();
    return nullptr;
}

// Text a placeholder would show ("… arrives with the next issue", "coming soon", "TODO").
QString placeholderText(QWidget *page)
{
    for (const QLabel *l : page->findChildren<QLabel *>()) {
        const QString t = l->text().toLower();
        if (t.contains(u"arrive") || t.contains(u"coming soon") || t.contains(u"todo") ||
            t.contains(u"placeholder") || t.contains(u"not implemented"))
            return l->text();
    }
    return {};
}

} // namespace

class TestClickThrough : public QObject
{
    Q_OBJECT
private slots:
    void everyPageAfterADemoRun()
    {
        TestFixture::SimRunWindow fixture;
        MainWindow &window = fixture.window;
        window.resize(1360, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // Before any run: every page real, Targets and History say what to do.
        const MainWindow::Page pages[] = {MainWindow::DesignPage, MainWindow::RunMonitorPage,
                                          MainWindow::HistoryPage, MainWindow::TargetsPage,
                                          MainWindow::PlanPage};
        for (MainWindow::Page p : pages) {
            QWidget *shown = visit(window, p);
            QVERIFY2(shown, qPrintable(QString::number(int(p))));
            QVERIFY2(placeholderText(shown).isEmpty(), qPrintable(placeholderText(shown)));
        }
        QVERIFY(window.targetsPage()->matrixHint().contains(u"Run the campaign"_qs));
        QVERIFY(window.historyPage()->curveChart()->showsEmptyText());

        // The demo, started from the Run menu action as a user would (F5).
        QCOMPARE(visit(window, MainWindow::DesignPage), static_cast<QWidget *>(window.designerPage()));
        QVERIFY(window.designerPage()->scenarioCount() == 2);
        RunPage *run = fixture.simulatedRunPage();
        run->setWorkers(2);
        QSignalSpy recorded(run, &RunPage::runRecorded);
        QSignalSpy finished(run, &RunPage::runFinished);
        QAction *start = window.findChild<QAction *>(QStringLiteral("startRun"));
        QVERIFY(start && start->isEnabled());
        start->trigger();
        QCOMPARE(window.currentPage(), MainWindow::RunMonitorPage);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 90000);
        QCOMPARE(recorded.count(), 1);
        const QString uuid = recorded.at(0).at(0).toString();
        QVERIFY(!uuid.isEmpty());

        // Run monitor: ≥ 4 points per scenario on the throughput-vs-interactivity curve.
        QCOMPARE(visit(window, MainWindow::RunMonitorPage), static_cast<QWidget *>(run));
        std::map<int, int> perScenario;
        for (const CurvePlot::Point &p : run->curvePlot()->points())
            ++perScenario[p.series];
        QCOMPARE(int(perScenario.size()), 2);
        for (const auto &[series, n] : perScenario)
            QVERIFY2(n >= 4, qPrintable(QStringLiteral("scenario %1: %2 points").arg(series).arg(n)));

        // History: the new run selected, its detail and curve filled.
        QWidget *history = visit(window, MainWindow::HistoryPage);
        QCOMPARE(history, static_cast<QWidget *>(window.historyPage()));
        QTRY_COMPARE(window.historyPage()->currentRun(), uuid); // the list is re-read in the background
        QCOMPARE(window.historyPage()->selectedRuns(), QStringList{uuid});
        const Chart curve = window.historyPage()->curveChart()->chart();
        QVERIFY(!window.historyPage()->curveChart()->showsEmptyText());
        QCOMPARE(curve.series.size(), 2);
        for (const ChartSeries &s : curve.series)
            QVERIFY2(s.markerCount() >= 4, qPrintable(s.name));

        // Targets: the pass/fail matrix of that run, one judged row per scenario.
        QWidget *targets = visit(window, MainWindow::TargetsPage);
        QCOMPARE(targets, static_cast<QWidget *>(window.targetsPage()));
        QCOMPARE(window.targetsPage()->currentRun(), uuid);
        QVERIFY(window.targetsPage()->matrixHint().isEmpty());
        QTableWidget *matrix = window.targetsPage()->matrix();
        QVERIFY(matrix->isVisible());
        QCOMPARE(matrix->rowCount(), 2);
        for (int r = 0; r < matrix->rowCount(); ++r) {
            const QString verdict = matrix->item(r, 1)->text();
            QVERIFY2(verdict == u"pass"_qs || verdict == u"fail"_qs || verdict == u"inconclusive"_qs,
                     qPrintable(verdict));
        }
        QVERIFY(matrix->columnCount() > 3); // checks of the demo's target table

        // Plan: opened with nothing ticked it takes History's selection; one row per scenario (deployment).
        QWidget *plan = visit(window, MainWindow::PlanPage);
        QCOMPARE(plan, static_cast<QWidget *>(window.planPage()));
        QCOMPARE(window.planPage()->checkedRuns(), QStringList{uuid});
        QVERIFY2(!window.planPage()->messageIsError(), qPrintable(window.planPage()->message()));
        QCOMPARE(window.planPage()->table()->rowCount(), 2);

        for (MainWindow::Page p : pages) {
            QWidget *shown = visit(window, p);
            QVERIFY(shown);
            QVERIFY2(placeholderText(shown).isEmpty(), qPrintable(placeholderText(shown)));
        }
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestClickThrough)
#include "tst_clickthrough.moc"
