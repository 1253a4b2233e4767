#pragma once
// Shared by the run page's end-to-end tests: a main window (demo campaign, no saved state restored) on a
// fresh history database in a temporary folder, and its run page on the simulated endpoint (the app's own
// launcher, core/sim/simlauncher.h). GUI thread only.
#include "core/sim/simlauncher.h"
#include "ui/mainwindow.h"
#include "ui/pages/runpage.h"

#include <QTemporaryDir>

namespace Throughline::TestFixture {

struct SimRunWindow {
    SimRunWindow()
        : options{dir.filePath(QStringLiteral("history.sqlite")), QString(), false}
        , window(options)
    {
    }

    // The run page with the in-process simulator as its launcher.
    RunPage *simulatedRunPage()
    {
        RunPage *run = window.runPage();
        run->setSimLauncher(SimLauncher(&launchSimulator));
        return run;
    }

    QTemporaryDir dir;           // holds the history database; removed with the fixture
    MainWindow::Options options; // databasePath = dir/history.sqlite, restoreState = false
    MainWindow window;
};

} // namespace Throughline::TestFixture
