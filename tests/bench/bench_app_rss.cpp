// The app's memory over a long campaign (issue 23, "Long runs hold"; never in CI): the real RunPage, shown
// offscreen (QT_QPA_PLATFORM=offscreen unless set), runs a campaign file from the Run page into a history
// database, as the app does (CampaignRun with the records released once recorded, live plots, the points
// table), and samples this process's VmRSS and RssAnon once a second. Prints them after each finished
// point and, at the end, after the first point, the highest after it and the ratio (goal ≤ 1.10), with the
// requests the points sent. tests/bench/bench_mlperf_rss.sh runs it on the same campaign as the CLI.
// The simulator should run in a child process (sim.child_process in the campaign, throughline-sim on PATH or
// next to this binary) so the figures are the app's own memory.
// Usage: bench_app_rss CAMPAIGN.json HISTORY.sqlite [--mlperf]
//   --mlperf: the Run page's MLPerf Endpoints switch on (it stops a scenario that can no longer comply, so
//   the campaign must be long enough to comply).
#include "core/sim/simlauncher.h"
#include "ui/document/campaigndocument.h"
#include "ui/models/runpointsmodel.h"
#include "ui/pages/runpage.h"
#include "ui/run/mlperfruncontrols.h"
#include "ui/settings/preferences.h"
#include "ui/settings/themecontroller.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

using namespace Throughline;

namespace {

struct Rss {
    long long totalKb = 0; // VmRSS
    long long anonKb = 0;  // RssAnon: the heap and stacks, without the mapped binary and libraries
};

Rss readRss()
{
    Rss r;
    std::ifstream f("/proc/self/status");
    for (std::string line; std::getline(f, line);) {
        long long kb = 0;
        if (std::sscanf(line.c_str(), "VmRSS: %lld", &kb) == 1)
            r.totalKb = kb;
        else if (std::sscanf(line.c_str(), "RssAnon: %lld", &kb) == 1)
            r.anonKb = kb;
    }
    return r;
}

std::string loadAverage()
{
    std::ifstream f("/proc/loadavg");
    std::string a, b, c;
    f >> a >> b >> c;
    return a + " " + b + " " + c;
}

double ratio(long long a, long long b)
{
    return b > 0 ? double(a) / double(b) : 0.0;
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toLocal8Bit());
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Throughline"));
    QApplication::setApplicationName(QStringLiteral("bench_app_rss"));
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    const QStringList args = app.arguments();
    if (args.size() < 3 || (args.size() == 4 && args[3] != u"--mlperf") || args.size() > 4) {
        std::fprintf(stderr, "usage: bench_app_rss CAMPAIGN.json HISTORY.sqlite [--mlperf]\n");
        return 2;
    }

    Preferences prefs;
    ThemeController theme(&prefs);
    CampaignDocument document;
    if (const Status st = document.load(args[1]); !st) {
        std::fprintf(stderr, "campaign: %s\n", st.error().message.c_str());
        return 1;
    }
    RunPage page(&document, &theme, args[2]); // recorded: each point's records leave once committed
    page.setSimLauncher(SimLauncher(&launchSimulator));
    page.resize(1440, 860);
    page.show();
    if (args.size() == 4)
        page.mlperfControls()->setEnabled(true);

    Rss first, highest;
    int pointsSeen = 0;
    QElapsedTimer wall;
    QTimer sampler;
    sampler.setInterval(1000);
    QObject::connect(&sampler, &QTimer::timeout, &app, [&] {
        const Rss now = readRss();
        const int points = page.pointsModel()->rowCount();
        if (points > pointsSeen) {
            pointsSeen = points;
            std::printf("[app] point %d finished at %.0f s: RSS %lld kB, anonymous %lld kB\n", points,
                        double(wall.elapsed()) / 1e3, now.totalKb, now.anonKb);
            std::fflush(stdout);
            if (first.totalKb == 0) {
                first = now;
                return;
            }
        }
        if (first.totalKb > 0) {
            highest.totalKb = std::max(highest.totalKb, now.totalKb);
            highest.anonKb = std::max(highest.anonKb, now.anonKb);
        }
    });

    bool ok = false;
    QObject::connect(&page, &RunPage::runFinished, &app, [&](bool finishedOk) {
        ok = finishedOk;
        // The page's end of run (results, curve) is part of what the app holds: one more sample after it.
        QTimer::singleShot(1500, &app, [&] {
            const Rss now = readRss();
            highest.totalKb = std::max(highest.totalKb, now.totalKb);
            highest.anonKb = std::max(highest.anonKb, now.anonKb);
            app.quit();
        });
    });
    QTimer::singleShot(0, &app, [&] {
        std::printf("[app] load average before: %s\n", loadAverage().c_str());
        wall.start();
        sampler.start();
        if (!page.start()) {
            std::fprintf(stderr, "run did not start\n");
            app.exit(1);
        }
    });
    const int rc = app.exec();
    if (rc != 0)
        return rc;
    long long sent = 0, firstSent = 0, lastSent = 0;
    for (int i = 0; i < page.pointsModel()->rowCount(); ++i) {
        const int n = page.pointsModel()->row(i).point.nSent;
        sent += n;
        firstSent = i == 0 ? n : firstSent;
        lastSent = n;
    }
    std::printf("[app] %d points in %.0f s wall, %lld requests measured (first point %lld, last %lld)%s\n",
                page.pointsModel()->rowCount(), double(wall.elapsed()) / 1e3, sent, firstSent, lastSent,
                ok ? "" : " (run did not finish cleanly)");
    std::printf("[app] RSS after the first point %.1f MiB, highest after it %.1f MiB, ratio %.3f (goal <= "
                "1.10)\n",
                double(first.totalKb) / 1024, double(highest.totalKb) / 1024,
                ratio(highest.totalKb, first.totalKb));
    std::printf("[app] anonymous RSS after the first point %.1f MiB, highest after it %.1f MiB, ratio %.3f\n",
                double(first.anonKb) / 1024, double(highest.anonKb) / 1024,
                ratio(highest.anonKb, first.anonKb));
    return 0;
}
