// Produces the screenshots of every page for the README and docs/: the designer with the demo campaign, the
// run monitor mid-run (the demo on the in-process simulated endpoint), then — once the run is recorded —
// History with that run selected (and its "Where the time goes" tab), Targets with its pass/fail matrix and
// Plan sizing its deployment, then the demo once more (another simulator seed) and History's Compare tab on
// the two runs. Run by packaging/screenshots.sh (offscreen platform, 96 DPI, Fusion, fixed window size):
// throughline-screenshots OUT_DIR [--lang de] (with --lang the files are named designer-de.png,
// run-monitor-de.png, history-detail-de.png, history-breakdown-de.png, targets-de.png, plan-de.png,
// history-compare-de.png)
#include <utility>

#include "core/sim/simlauncher.h"
#include "ui/document/campaigndocument.h"
#include "ui/history/breakdownview.h"
#include "ui/history/chartview.h"
#include "ui/history/historydetailwidget.h"
#include "ui/history/historypage.h"
#include "ui/mainwindow.h"
#include "ui/pages/runpage.h"
#include "ui/plots/curveplot.h"
#include "ui/settings/preferences.h"
#include "ui/settings/translationloader.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

using namespace Throughline;

namespace {

void pump(int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
}

bool save(QWidget *w, const QString &path)
{
    pump(300); // queued replots and layouts settle
    const bool ok = w->grab().save(path);
    std::fprintf(stderr, "%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
    return ok;
}

} // namespace

int main(int argc, char *argv[])
{
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toLocal8Bit());
    qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toLocal8Bit());
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Throughline"));
    QApplication::setApplicationName(QStringLiteral("throughline-screenshots"));
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    const QString outDir = app.arguments().value(1, QStringLiteral("."));
    const bool dark = app.arguments().contains(QStringLiteral("--dark"));
    QDir().mkpath(outDir);
    const QString lang = TranslationLoader::languageArgument(app.arguments());
    QString suffix;
    if (!lang.isEmpty())
        suffix = QStringLiteral("-") + TranslationLoader::resolve(lang);
    if (!lang.isEmpty() && !TranslationLoader::install(&app, TranslationLoader::resolve(lang)))
        return 1;

    MainWindow::Options options;
    options.databasePath = home.filePath(QStringLiteral("history.sqlite"));
    options.restoreState = false;
    MainWindow window(options);
    window.preferences()->setTheme(dark ? Preferences::Theme::Dark : Preferences::Theme::Light);
    window.resize(1440, 900);
    window.show();
    pump(500);
    bool ok = save(&window, QDir(outDir).filePath(QStringLiteral("designer") + suffix + u".png"));

    // Mid-run: after the first scenario finished (its four curve points are on the plot) and the second
    // has been running for a moment.
    RunPage *run = window.runPage();
    run->setSimLauncher(SimLauncher(&launchSimulator));
    window.document()->edit(QStringLiteral("Slower for the screenshot"), [](Campaign &c) {
        for (Endpoint &e : c.endpoints)
            e.sim.timeScale = 10;
    });
    if (!run->start()) {
        std::fprintf(stderr, "run did not start\n");
        return 1;
    }
    QElapsedTimer t;
    t.start();
    while (run->isRunning() && t.elapsed() < 120000 && run->curvePlot()->pointCount() < 4)
        pump(100);
    pump(2500);
    ok = save(&window, QDir(outDir).filePath(QStringLiteral("run-monitor") + suffix + u".png")) && ok;
    t.restart();
    while (run->isRunning() && t.elapsed() < 180000)
        pump(100);
    if (run->isRunning()) {
        std::fprintf(stderr, "run did not finish\n");
        return 1;
    }
    window.setCurrentPage(MainWindow::HistoryPage);
    // History reads in the background: wait until the recorded run is shown with its curve.
    t.restart();
    while (t.elapsed() < 30000 && (window.historyPage()->currentRun().isEmpty() ||
                                   window.historyPage()->curveChart()->showsEmptyText()))
        pump(100);
    pump(500);
    ok = save(&window, QDir(outDir).filePath(QStringLiteral("history-detail") + suffix + u".png")) && ok;
    // The demo's endpoint publishes server timing: its "Where the time goes" tab with a request's waterfall.
    HistoryDetailWidget *detail = window.historyPage()->detailWidget();
    detail->plotTabs()->setCurrentWidget(detail->breakdownView());
    t.restart();
    while (t.elapsed() < 30000 && detail->breakdownView()->shownRequest() < 0)
        pump(100);
    pump(500);
    ok = save(&window, QDir(outDir).filePath(QStringLiteral("history-breakdown") + suffix + u".png")) && ok;
    detail->plotTabs()->setCurrentIndex(0);
    window.setCurrentPage(MainWindow::TargetsPage);
    ok = save(&window, QDir(outDir).filePath(QStringLiteral("targets") + suffix + u".png")) && ok;
    // Plan opens on History's selection: the demo run's deployment sized at the page's default demand.
    window.setCurrentPage(MainWindow::PlanPage);
    ok = save(&window, QDir(outDir).filePath(QStringLiteral("plan") + suffix + u".png")) && ok;

    // The Compare tab on two real runs: the demo again, its simulator with jitter 0.1 and another seed, so
    // the stored intervals give error bars and the deltas are judged beyond noise.
    const QString first = window.historyPage()->currentRun();
    window.document()->edit(QStringLiteral("Another seed for the comparison"), [](Campaign &c) {
        for (Endpoint &e : c.endpoints) {
            e.sim.jitter = 0.1;
            e.sim.seed = 9;
        }
    });
    window.setCurrentPage(MainWindow::RunMonitorPage);
    if (!run->start()) {
        std::fprintf(stderr, "second run did not start\n");
        return 1;
    }
    t.restart();
    while (run->isRunning() && t.elapsed() < 180000)
        pump(100);
    window.setCurrentPage(MainWindow::HistoryPage);
    t.restart();
    while (t.elapsed() < 30000 && window.historyPage()->currentRun() == first)
        pump(100);
    const QString second = window.historyPage()->currentRun();
    if (second.isEmpty() || second == first || !window.historyPage()->compareRuns({first, second}).ok()) {
        std::fprintf(stderr, "cannot compare the two runs\n");
        return 1;
    }
    pump(1500); // both runs are read in the background
    ok = save(&window, QDir(outDir).filePath(QStringLiteral("history-compare") + suffix + u".png")) && ok;
    return ok ? 0 : 1;
}
