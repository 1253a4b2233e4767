// Main window: first launch opens the demo, typed settings (compare before emitting), theme
// switching follows / overrides the palette, recent files, window state restored, drag & drop,
// navigation shortcuts, title shows the modified state.
#include "guitestmain.h"

#include "ui/document/campaigndocument.h"
#include "ui/mainwindow.h"
#include "ui/pages/designerpage.h"
#include "ui/settings/preferences.h"
#include "ui/settings/settingvalue.h"
#include "ui/settings/themecontroller.h"
#include "ui/targets/targetspage.h"

#include <QComboBox>
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QUndoStack>
#include <QUrl>

using namespace Throughline;

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void init() { QSettings().clear(); }

    void settingValueComparesBeforeWriting()
    {
        SettingValue<int> v(QStringLiteral("test/value"), 5);
        QCOMPARE(v.get(), 5);
        QVERIFY(!v.set(5)); // equal to the default: nothing written, caller emits nothing
        QVERIFY(!QSettings().contains(QStringLiteral("test/value")));
        QVERIFY(v.set(7));
        QVERIFY(!v.set(7));
        QCOMPARE(SettingValue<int>(QStringLiteral("test/value"), 0).get(), 7);
        QSettings().setValue(QStringLiteral("test/value"), QStringLiteral("not a number"));
        QCOMPARE(v.get(), 5); // wrong type → default
    }

    void preferencesEmitOnlyOnChange()
    {
        Preferences prefs;
        QSignalSpy theme(&prefs, &Preferences::themeChanged);
        QSignalSpy recent(&prefs, &Preferences::recentFilesChanged);
        prefs.setTheme(Preferences::Theme::System);
        QCOMPARE(theme.count(), 0);
        prefs.setTheme(Preferences::Theme::Dark);
        prefs.setTheme(Preferences::Theme::Dark);
        QCOMPARE(theme.count(), 1);
        QCOMPARE(Preferences().theme(), Preferences::Theme::Dark);
        for (int i = 0; i < Preferences::kMaxRecentFiles + 3; ++i)
            prefs.addRecentFile(QStringLiteral("/tmp/c%1.json").arg(i));
        prefs.addRecentFile(QStringLiteral("/tmp/c5.json")); // moves to the front
        QCOMPARE(prefs.recentFiles().size(), Preferences::kMaxRecentFiles);
        QCOMPARE(prefs.recentFiles().front(), QStringLiteral("/tmp/c5.json"));
        const int n = int(recent.count());
        prefs.addRecentFile(QStringLiteral("/tmp/c5.json"));
        QCOMPARE(int(recent.count()), n);
    }

    void themeFollowsPaletteAndSetting()
    {
        Preferences prefs;
        ThemeController theme(&prefs);
        QSignalSpy dark(&theme, &ThemeController::darkChanged);
        prefs.setTheme(Preferences::Theme::Dark);
        QVERIFY(theme.isDark());
        QVERIFY(ThemeController::paletteIsDark(QApplication::palette()));
        prefs.setTheme(Preferences::Theme::Light);
        QVERIFY(!theme.isDark());
        QCOMPARE(dark.count(), 2);
        // System: follows palette changes made by the platform (simulated by setting the app palette).
        prefs.setTheme(Preferences::Theme::System);
        QSignalSpy changed(&theme, &ThemeController::paletteChanged);
        QApplication::setPalette(ThemeController::darkPalette());
        QTRY_VERIFY(changed.count() > 0);
        QVERIFY(theme.isDark());
        prefs.setTheme(Preferences::Theme::Light);
    }

    void firstLaunchOpensDemoThenLastCampaign()
    {
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("mine.json"));
        {
            MainWindow w(MainWindow::Options{QStringLiteral("/tmp/h.sqlite"), {}, false});
            QCOMPARE(w.document()->filePath(), MainWindow::demoCampaignPath());
            QVERIFY(!w.document()->isModified());
            QVERIFY(w.designerPage()->scenarioCount() > 0); // ready to run
            QVERIFY(w.windowTitle().startsWith(QStringLiteral("Demo")));
            w.document()->edit(QStringLiteral("Rename"), [](Campaign &c) { c.name = "Mine"; });
            QVERIFY(w.isWindowModified());
            QVERIFY(w.saveAs(saved));
            QVERIFY(!w.isWindowModified());
            QCOMPARE(w.preferences()->recentFiles().value(0), QFileInfo(saved).absoluteFilePath());
        }
        MainWindow again(MainWindow::Options{QStringLiteral("/tmp/h.sqlite"), {}, false});
        QCOMPARE(again.document()->filePath(), QFileInfo(saved).absoluteFilePath());
        QCOMPARE(again.document()->campaign().name, std::string("Mine"));
    }

    void windowStateRestored()
    {
        QSize saved;
        {
            MainWindow w(MainWindow::Options{{}, {}, true});
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.resize(w.minimumSizeHint().expandedTo(QSize(1300, 850)) + QSize(37, 21));
            saved = w.size();
            QVERIFY(saved != QSize(1360, 860)); // differs from the default size
            w.setCurrentPage(MainWindow::TargetsPage);
            QVERIFY(w.close());
        }
        MainWindow w(MainWindow::Options{{}, {}, true});
        QCOMPARE(w.currentPage(), MainWindow::TargetsPage);
        QCOMPARE(w.size(), saved);
    }

    void shortcutsNavigate()
    {
        MainWindow w(MainWindow::Options{{}, {}, false});
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(w.currentPage(), MainWindow::RunMonitorPage);
        QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(w.currentPage(), MainWindow::HistoryPage);
        QTest::keyClick(&w, Qt::Key_4, Qt::ControlModifier);
        QCOMPARE(w.currentPage(), MainWindow::TargetsPage);
        QTest::keyClick(&w, Qt::Key_1, Qt::ControlModifier);
        QCOMPARE(w.currentPage(), MainWindow::DesignPage);
        // Undo / redo through the standard shortcuts.
        w.document()->edit(QStringLiteral("Rename"), [](Campaign &c) { c.name = "X"; });
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(w.document()->campaign().name != "X");
    }

    // Every page is a real one: the Targets page shows the campaign's table, no page says "arrives with".
    void targetsPageIsWiredIn()
    {
        QTemporaryDir dir;
        MainWindow w(MainWindow::Options{dir.filePath(QStringLiteral("h.sqlite")), {}, false});
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setCurrentPage(MainWindow::TargetsPage);
        QVERIFY(w.targetsPage()->isVisible());
        QCOMPARE(w.targetsPage()->tableCombo()->currentData().toString(),
                 QStringLiteral(":/targets/demo-targets.json"));
        QVERIFY(w.targetsPage()->matrixHint().contains(QStringLiteral("Run the campaign")));
        for (const QLabel *label : w.findChildren<QLabel *>())
            QVERIFY2(!label->text().contains(QStringLiteral("arrive")), qPrintable(label->text()));
    }

    void dropOpensCampaign()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dropped.json"));
        QFile::copy(QStringLiteral(":/campaigns/demo.json"), path);
        MainWindow w(MainWindow::Options{{}, {}, false});
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QCOMPARE(w.document()->filePath(), path);
        // Not a campaign file: refused at drag-enter.
        QMimeData other;
        other.setUrls({QUrl::fromLocalFile(dir.filePath(QStringLiteral("x.png")))});
        QDragEnterEvent enter2(QPoint(10, 10), Qt::CopyAction, &other, Qt::LeftButton, Qt::NoModifier);
        enter2.setAccepted(false);
        QApplication::sendEvent(&w, &enter2);
        QVERIFY(!enter2.isAccepted());
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
