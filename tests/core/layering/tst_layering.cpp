// Layering check: core/ (including core/sim) never includes a GUI header. The CMake configure step
// checks the link libraries; this test checks the sources, so a stray include fails the suite.

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

// Not a raw string: moc's preprocessor trips over an include directive inside one.
static QString forbiddenPattern()
{
    return QStringLiteral("^\\s*#\\s*include\\s*[<\"](QtGui/|QtWidgets/|QWidget|QColor|QFont|QImage|QPainter|"
                          "QPixmap|QPdfWriter|qcustomplot\\.h)");
}

class TestLayering : public QObject
{
    Q_OBJECT
private slots:
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
