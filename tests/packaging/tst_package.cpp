// Packaging test: builds the .deb with cpack from this build tree, unpacks it with `dpkg-deb -x` into a
// scratch folder and runs the packaged executables from there (LD_LIBRARY_PATH unset, so only system
// libraries and what the package ships can be used), then asks lintian for errors.
// Needs the executables built (the test target depends on throughline_package_inputs).
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace Qt::StringLiterals;

#if THROUGHLINE_WITH_GUI
#define THROUGHLINE_PACKAGE_NAME "throughline"
#else
#define THROUGHLINE_PACKAGE_NAME "throughline-cli" // headless build (see cmake/Packaging.cmake)
#endif

namespace {

struct ProcResult {
    int exitCode = -1;
    bool finished = false;
    QString out;
    QString err;
};

// Runs a program with LD_LIBRARY_PATH removed and HOME/XDG dirs pointed into `home`.
ProcResult runTool(const QString &program, const QStringList &args, const QString &home,
                   int timeoutMs = 120000)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"LD_LIBRARY_PATH"_s);
    env.remove(u"THROUGHLINE_DB"_s);
    if (!home.isEmpty()) {
        env.insert(u"HOME"_s, home);
        env.insert(u"XDG_DATA_HOME"_s, home + u"/.local/share"_s);
        env.insert(u"XDG_CONFIG_HOME"_s, home + u"/.config"_s);
        env.insert(u"XDG_CACHE_HOME"_s, home + u"/.cache"_s);
    }
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProcResult r;
    if (!p.waitForStarted(10000)) {
        r.err = u"could not start "_s + program + u": "_s + p.errorString();
        return r;
    }
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// Width and height from a PNG's IHDR chunk (bytes 16..23, big endian).
QSize pngSize(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray h = f.read(24);
    if (h.size() < 24 || !h.startsWith("\x89PNG"))
        return {};
    auto be32 = [&](int o) {
        return (quint32(quint8(h[o])) << 24) | (quint32(quint8(h[o + 1])) << 16) |
               (quint32(quint8(h[o + 2])) << 8) | quint32(quint8(h[o + 3]));
    };
    return QSize(int(be32(16)), int(be32(20)));
}

} // namespace

class TstPackage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void controlFields();
    void contents();
    void icons();
    void cliVersion();
    void demoValidate();
    void demoRun();
    void desktopAndMetainfo();
    void lintianHasNoErrors();

private:
    QString bin(const QString &name) const { return m_root + u"/usr/bin/"_s + name; }
    QString demoCampaign() const { return m_root + u"/usr/share/throughline/campaigns/demo.json"_s; }

    QTemporaryDir m_scratch;
    QString m_deb;  // the built package
    QString m_root; // dpkg-deb -x target
    QString m_home; // HOME for the packaged programs
};

void TstPackage::initTestCase()
{
    QVERIFY(m_scratch.isValid());
    for (const char *tool : {"dpkg-deb", "dpkg-shlibdeps"}) {
        if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
            QSKIP(qPrintable(
                QStringLiteral("%1 not installed (apt-get install dpkg-dev)").arg(QLatin1String(tool))));
    }
    const QString outDir = m_scratch.filePath(u"deb"_s);
    m_root = m_scratch.filePath(u"root"_s);
    m_home = m_scratch.filePath(u"home"_s);
    QVERIFY(QDir().mkpath(outDir) && QDir().mkpath(m_root) && QDir().mkpath(m_home));

    const ProcResult cp =
        runTool(QStringLiteral(THROUGHLINE_CPACK),
                {u"-G"_s, u"DEB"_s, u"--config"_s,
                 QStringLiteral(THROUGHLINE_BINARY_DIR "/CPackConfig.cmake"), u"-B"_s, outDir},
                QString(), 240000);
    QVERIFY2(cp.finished && cp.exitCode == 0, qPrintable(u"cpack failed:\n"_s + cp.out + cp.err));

    const QStringList debs = QDir(outDir).entryList({u"*.deb"_s}, QDir::Files);
    QCOMPARE(debs.size(), 1);
    const QString expected = QStringLiteral(THROUGHLINE_PACKAGE_NAME "_" THROUGHLINE_VERSION "_");
    QVERIFY2(debs.first().startsWith(expected), qPrintable(debs.first()));
    m_deb = outDir + u'/' + debs.first();

    const ProcResult x = runTool(u"dpkg-deb"_s, {u"-x"_s, m_deb, m_root}, QString());
    QVERIFY2(x.exitCode == 0, qPrintable(x.err));
}

void TstPackage::controlFields()
{
    auto field = [&](const QString &name) {
        const ProcResult r = runTool(u"dpkg-deb"_s, {u"-f"_s, m_deb, name}, QString());
        return r.out.trimmed();
    };
    QCOMPARE(field(u"Package"_s), QStringLiteral(THROUGHLINE_PACKAGE_NAME));
    QCOMPARE(field(u"Version"_s), QStringLiteral(THROUGHLINE_VERSION));
    QCOMPARE(field(u"Section"_s), u"science"_s);
    QVERIFY(field(u"Maintainer"_s).contains(QRegularExpression(u"^.+ <[^ >]+@[^ >]+>$"_s)));
    const QString desc = field(u"Description"_s);
    QVERIFY2(desc.count(u'\n') >= 3, qPrintable(desc)); // synopsis + extended description

    // Depends comes from dpkg-shlibdeps: versioned system libraries, nothing from the build tree.
    const QString depends = field(u"Depends"_s);
    qInfo("Depends: %s", qPrintable(depends));
    for (const QString &lib : {u"libc6 (>="_s, u"libqt6core6"_s, u"libcurl4"_s, u"libsqlite3-0"_s})
        QVERIFY2(depends.contains(lib), qPrintable(lib + u" missing from Depends: "_s + depends));
#if THROUGHLINE_WITH_GUI
    for (const QString &lib : {u"libqcustomplot2.1-qt6"_s, u"libqt6widgets6"_s})
        QVERIFY2(depends.contains(lib), qPrintable(lib + u" missing from Depends: "_s + depends));
#else
    QVERIFY2(!depends.contains(u"libqt6widgets6"_s),
             qPrintable(u"headless package pulls Widgets: "_s + depends));
#endif
}

void TstPackage::contents()
{
    const QString doc = u"/usr/share/doc/"_s + QStringLiteral(THROUGHLINE_PACKAGE_NAME);
    QStringList files = {
        u"/usr/bin/throughline-cli"_s,
        u"/usr/bin/throughline-sim"_s,
        doc + u"/copyright"_s,
        doc + u"/changelog.gz"_s,
        u"/usr/share/throughline/campaigns/demo.json"_s,
        u"/usr/share/throughline/targets/demo-targets.json"_s,
        u"/usr/share/throughline/schemas/results.schema.json"_s,
        u"/usr/share/man/man1/throughline-cli.1.gz"_s,
    };
#if THROUGHLINE_WITH_GUI
    files << u"/usr/bin/throughline"_s
          << u"/usr/share/applications/io.github.throughline.Throughline.desktop"_s
          << u"/usr/share/metainfo/io.github.throughline.Throughline.metainfo.xml"_s
          << u"/usr/share/icons/hicolor/scalable/apps/throughline.svg"_s;
#endif
    for (const QString &f : files)
        QVERIFY2(QFileInfo::exists(m_root + f), qPrintable(f + u" not in the package"_s));
    for (const QString &exe : {u"throughline-cli"_s, u"throughline-sim"_s})
        QVERIFY2(QFileInfo(bin(exe)).isExecutable(), qPrintable(exe));

    QFile copyright(m_root + doc + u"/copyright"_s);
    QVERIFY(copyright.open(QIODevice::ReadOnly));
    const QByteArray c = copyright.readAll();
    QVERIFY(c.startsWith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"));
    QVERIFY(c.contains("License: GPL-3.0-or-later"));
}

void TstPackage::icons()
{
#if THROUGHLINE_WITH_GUI
    for (int n : {16, 22, 24, 32, 48, 64, 128, 256}) {
        const QString p =
            m_root + QStringLiteral("/usr/share/icons/hicolor/%1x%1/apps/throughline.png").arg(n);
        QCOMPARE(pngSize(p), QSize(n, n));
    }
#else
    QSKIP("headless package ships no icons");
#endif
}

void TstPackage::cliVersion()
{
    const ProcResult r = runTool(bin(u"throughline-cli"_s), {u"--version"_s}, m_home);
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.startsWith(QStringLiteral("throughline " THROUGHLINE_VERSION)), qPrintable(r.out));

    const ProcResult j = runTool(bin(u"throughline-cli"_s), {u"--version"_s, u"--json"_s}, m_home);
    QCOMPARE(j.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(j.out.toUtf8()).object().value(u"tool_version"_s).toString(),
             QStringLiteral(THROUGHLINE_VERSION));
}

void TstPackage::demoValidate()
{
    const ProcResult ok = runTool(bin(u"throughline-cli"_s), {u"validate"_s, demoCampaign()}, m_home);
    QVERIFY2(ok.exitCode == 0, qPrintable(ok.out + ok.err));

    // And it can fail: a broken copy of the installed demo is rejected as bad input (exit 2).
    QFile src(demoCampaign());
    QVERIFY(src.open(QIODevice::ReadOnly));
    QByteArray broken = src.readAll();
    broken.replace("\"closed\"", "\"sideways\"");
    const QString bad = m_scratch.filePath(u"broken.json"_s);
    QFile out(bad);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(broken);
    out.close();
    const ProcResult ko = runTool(bin(u"throughline-cli"_s), {u"validate"_s, bad}, m_home);
    QCOMPARE(ko.exitCode, 2);
}

void TstPackage::demoRun()
{
    const QString outDir = m_scratch.filePath(u"demo-out"_s);
    const QString db = m_scratch.filePath(u"history.sqlite"_s);
    const ProcResult r = runTool(
        bin(u"throughline-cli"_s),
        {u"--db"_s, db, u"run"_s, demoCampaign(), u"--out"_s, outDir, u"--no-history"_s}, m_home, 90000);
    QVERIFY2(r.finished, "demo run did not finish in 90 s");
    // 0 pass, 1 a target failed, 4 invalid point: all are completed runs; 2/3 are not.
    QVERIFY2(r.exitCode == 0 || r.exitCode == 1 || r.exitCode == 4,
             qPrintable(QStringLiteral("exit %1\n").arg(r.exitCode) + r.out + r.err));

    QFile f(outDir + u"/results.json"_s);
    QVERIFY2(f.open(QIODevice::ReadOnly), "results.json not written");
    const QJsonObject res = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(res.value(u"schema"_s).toString(), u"throughline.results/5"_s);
    QCOMPARE(res.value(u"tool_version"_s).toString(), QStringLiteral(THROUGHLINE_VERSION));
    const QJsonArray scenarios = res.value(u"scenarios"_s).toArray();
    QCOMPARE(scenarios.size(), 2); // 1 model x 1 backend x 1 deployment x 2 phases
    for (const QJsonValue &s : scenarios) {
        const QJsonArray points = s.toObject().value(u"points"_s).toArray();
        QCOMPARE(points.size(), 4); // concurrencies 4, 8, 16, 32
        for (const QJsonValue &p : points) {
            const QJsonObject po = p.toObject();
            QVERIFY(po.value(u"n_ok"_s).toInt() > 0);
            QVERIFY(po.value(u"metrics"_s).toObject().value(u"output_tps"_s).toDouble() > 0.0);
        }
    }
}

void TstPackage::desktopAndMetainfo()
{
#if THROUGHLINE_WITH_GUI
    bool checked = false;
    const QString desktop = m_root + u"/usr/share/applications/io.github.throughline.Throughline.desktop"_s;
    if (!QStandardPaths::findExecutable(u"desktop-file-validate"_s).isEmpty()) {
        const ProcResult r = runTool(u"desktop-file-validate"_s, {desktop}, QString());
        QVERIFY2(r.exitCode == 0 && !r.out.contains(u"error"_s), qPrintable(r.out + r.err));
        checked = true;
    }
    if (!QStandardPaths::findExecutable(u"appstreamcli"_s).isEmpty()) {
        const ProcResult r =
            runTool(u"appstreamcli"_s,
                    {u"validate"_s, u"--no-net"_s,
                     m_root + u"/usr/share/metainfo/io.github.throughline.Throughline.metainfo.xml"_s},
                    QString());
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        checked = true;
    }
    if (!checked)
        QSKIP("neither desktop-file-validate nor appstreamcli installed");
#else
    QSKIP("headless package ships no desktop file");
#endif
}

void TstPackage::lintianHasNoErrors()
{
    if (QStandardPaths::findExecutable(u"lintian"_s).isEmpty())
        QSKIP("lintian not installed (apt-get install lintian)");
    const ProcResult r = runTool(u"lintian"_s, {u"--tag-display-limit"_s, u"0"_s, m_deb}, QString(), 240000);
    QVERIFY2(r.finished, "lintian did not finish");
    const QStringList lines = QString(r.out + r.err).split(u'\n', Qt::SkipEmptyParts);
    QStringList errors;
    int warnings = 0;
    for (const QString &l : lines) {
        if (l.startsWith(u"E: "_s))
            errors << l;
        else if (l.startsWith(u"W: "_s))
            ++warnings;
    }
    qInfo("lintian: %lld error(s), %d warning(s)", qlonglong(errors.size()), warnings);
    for (const QString &l : lines)
        qInfo("  %s", qPrintable(l));
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
    // Exit 0 = no errors (lintian's default fail-on is "error").
    QCOMPARE(r.exitCode, 0);
}

QTEST_GUILESS_MAIN(TstPackage)
#include "tst_package.moc"
