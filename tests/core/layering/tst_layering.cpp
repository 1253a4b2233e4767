// Layering check: core/ (including core/sim) never includes a GUI header, and no core folder includes one
// above it in the order docs/architecture.md states (folderorder.h). The CMake configure step checks the
// link libraries; this test checks the sources, so a stray include fails the suite.

#include "folderorder.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

// Not a raw string: moc's preprocessor trips over an include directive inside one.
static QString forbiddenPattern()
{
    return QStringLiteral("^\\s*#\\s*include\\s*[<\"](QtGui/|QtWidgets/|QWidget|QColor|QFont|QImage|QPainter|"
                          "QPixmap|QPdfWriter|qcustomplot\\.h)");
}

static QString sourceCore()
{
    return QStringLiteral(THROUGHLINE_SOURCE_DIR "/core");
}

static QStringList statedOrder()
{
    return Throughline::Layering::readFolderOrder(
        QStringLiteral(THROUGHLINE_SOURCE_DIR "/docs/architecture.md"));
}

// Copies every .h/.cpp of core/ into dest (same layout).
static bool copyCore(const QString &dest)
{
    const QDir src(sourceCore());
    QDirIterator it(src.path(), {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString target = dest + u'/' + src.relativeFilePath(path);
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(path, target))
            return false;
    }
    return true;
}

class TestLayering : public QObject
{
    Q_OBJECT
private slots:
    void orderIsStated()
    {
        const QStringList order = statedOrder();
        // The order names every folder core has today, lowest first.
        QVERIFY2(order.size() >= 13, qPrintable(order.join(u' ')));
        QCOMPARE(order.first(), QStringLiteral("util"));
        QCOMPARE(order.last(), QStringLiteral("run"));
        QVERIFY(order.indexOf(QStringLiteral("engine")) < order.indexOf(QStringLiteral("metrics")));
        QVERIFY(order.indexOf(QStringLiteral("storage")) < order.indexOf(QStringLiteral("run")));
    }

    void coreFollowsTheFolderOrder()
    {
        int scanned = 0;
        const QStringList offenders =
            Throughline::Layering::upwardIncludes(sourceCore(), statedOrder(), &scanned);
        QVERIFY2(scanned > 100, "the scan found few core sources: wrong source dir?");
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(u'\n')));
    }

    // A copy of the real tree with one bad include injected must fail, naming the file and the reason.
    void brokenCopyFails_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("include");
        QTest::addColumn<QString>("reason");
        QTest::newRow("metrics includes run") << "metrics/stats.cpp"
                                              << "core/run/runcontroller.h"
                                              << "run is above metrics";
        QTest::newRow("engine includes storage") << "engine/worker.h"
                                                 << "core/storage/storagewriter.h"
                                                 << "storage is above engine";
        QTest::newRow("telemetry includes engine") << "telemetry/telemetryscraper.cpp"
                                                   << "core/engine/requestrecord.h"
                                                   << "engine is above telemetry";
        QTest::newRow("run includes sim") << "run/runcontroller.cpp"
                                          << "core/sim/simserver.h"
                                          << "core/sim is its own library";
        QTest::newRow("storage includes ui") << "storage/schema.cpp"
                                             << "ui/pages/runpage.h"
                                             << "core never includes ui/";
        QTest::newRow("unknown folder") << "util/glob.cpp"
                                        << "core/nowhere/x.h"
                                        << "not in the folder order";
    }

    void brokenCopyFails()
    {
        QFETCH(QString, file);
        QFETCH(QString, include);
        QFETCH(QString, reason);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString core = tmp.path() + QStringLiteral("/core");
        QVERIFY(copyCore(core));
        const QStringList order = statedOrder();
        QVERIFY2(Throughline::Layering::upwardIncludes(core, order).isEmpty(), "the copy is not clean");
        QFile f(core + u'/' + file);
        QVERIFY(f.open(QIODevice::Append));
        f.write("\n#include \"" + include.toUtf8() + "\"\n");
        f.close();
        const QStringList offenders = Throughline::Layering::upwardIncludes(core, order);
        QCOMPARE(offenders.size(), 1);
        QVERIFY2(offenders.first().startsWith(QStringLiteral("core/") + file + u':'),
                 qPrintable(offenders.first()));
        QVERIFY2(offenders.first().contains(reason), qPrintable(offenders.first()));
    }

    void unlistedFolderFails()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString core = tmp.path() + QStringLiteral("/core");
        QVERIFY(copyCore(core));
        QVERIFY(QDir().mkpath(core + QStringLiteral("/nowhere")));
        const QStringList offenders = Throughline::Layering::upwardIncludes(core, statedOrder());
        QCOMPARE(offenders, QStringList{QStringLiteral(
                                "core/nowhere: not in the folder order of docs/architecture.md")});
    }

    void coreHasNoGuiIncludes()
    {
        const QRegularExpression forbidden(forbiddenPattern());
        QStringList offenders;
        int scanned = 0;
        QDirIterator it(QStringLiteral(THROUGHLINE_SOURCE_DIR "/core"),
                        {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
            ++scanned;
            int lineNo = 0;
            while (!file.atEnd()) {
                ++lineNo;
                const QString line = QString::fromUtf8(file.readLine());
                if (forbidden.match(line).hasMatch())
                    offenders << path + u':' + QString::number(lineNo) + u": " + line.trimmed();
            }
        }
        QVERIFY2(scanned > 5, "the scan found no core sources: wrong source dir?");
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(u'\n')));
    }

    void detectorCatchesAGuiInclude()
    {
        // Guard the guard: the pattern must flag the headers it is meant to flag.
        const QRegularExpression forbidden(forbiddenPattern());
        QVERIFY(forbidden.match(QStringLiteral("#include <QColor>")).hasMatch());
        QVERIFY(forbidden.match(QStringLiteral("#include <QtGui/QImage>")).hasMatch());
        QVERIFY(forbidden.match(QStringLiteral("#include \"qcustomplot.h\"")).hasMatch());
        QVERIFY(!forbidden.match(QStringLiteral("#include <QString>")).hasMatch());
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "tst_layering.moc"
