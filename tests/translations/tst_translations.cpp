// The German catalogue translations/throughline_de.ts: every entry finished (no unfinished, vanished or
// obsolete entry, no empty form, same placeholders and accelerators as the source), in step with the
// sources (lupdate run on ui/ and app/ into a scratch copy finds exactly the stored message set), and
// the .qm that qt_add_translations embeds into throughline_ui is loaded by TranslationLoader and shows
// in the main window. The checks run once more on deliberately broken copies, so they can fail.
#include "ui/guitestmain.h"

#include "ui/mainwindow.h"
#include "ui/settings/translationloader.h"

#include <QFile>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QTranslator>
#include <QXmlStreamReader>

#include <functional>

using namespace Throughline;
using namespace Qt::StringLiterals;

namespace {

const QString kTsPath = QStringLiteral(THROUGHLINE_SOURCE_DIR "/translations/throughline_de.ts");

struct Message {
    QString context;
    QString source;
    QString comment;
    bool numerus = false;
    QString type;      // translation type attribute: "", "unfinished", "vanished", "obsolete"
    QStringList forms; // translation text, or the numerus forms
    qint64 line = 0;   // in the .ts file
};

QString key(const Message &m)
{
    return m.context + u" | " + m.source + (m.comment.isEmpty() ? QString() : u" | " + m.comment) +
           (m.numerus ? u" [numerus]"_s : QString());
}

// Reads every <message> of a .ts file (numerus ones with their forms).
QList<Message> readCatalogue(const QString &path, QString *error)
{
    QList<Message> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = path + u": " + f.errorString();
        return out;
    }
    QXmlStreamReader xml(&f);
    QString context;
    Message m;
    bool inMessage = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isEndElement() && xml.name() == u"message") {
            out << m;
            inMessage = false;
            continue;
        }
        if (!xml.isStartElement())
            continue;
        const auto name = xml.name();
        if (name == u"name" && !inMessage) {
            context = xml.readElementText();
        } else if (name == u"message") {
            m = Message{};
            inMessage = true;
            m.context = context;
            m.numerus = xml.attributes().value(QLatin1StringView("numerus")) == u"yes";
            m.line = xml.lineNumber();
        } else if (name == u"source") {
            m.source = xml.readElementText();
        } else if (name == u"comment") {
            m.comment = xml.readElementText();
        } else if (name == u"translation") {
            m.type = xml.attributes().value(QLatin1StringView("type")).toString();
            if (!m.numerus)
                m.forms << xml.readElementText();
        } else if (name == u"numerusform") {
            m.forms << xml.readElementText();
        }
    }
    if (xml.hasError())
        *error = u"%1:%2: %3"_s.arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return out;
}

QStringList placeholders(const QString &s)
{
    static const QRegularExpression re(QStringLiteral("%(\\d+|n|p%)"));
    QStringList out;
    for (auto it = re.globalMatch(s); it.hasNext();)
        out << it.next().captured(0);
    out.sort();
    return out;
}

bool hasAccelerator(const QString &s)
{
    static const QRegularExpression re(QStringLiteral("(^|[^&])&[^&\\s]"));
    return re.match(QString(s).remove(u"&&"_s)).hasMatch();
}

// Everything wrong with the catalogue, one line per problem naming the .ts line.
QStringList completenessProblems(const QList<Message> &messages)
{
    QStringList problems;
    for (const Message &m : messages) {
        const QString where = u"line %1 (%2)"_s.arg(m.line).arg(key(m));
        if (!m.type.isEmpty())
            problems << where + u": translation type=\"" + m.type + u'"';
        const qsizetype wantForms = m.numerus ? 2 : 1; // German: singular, plural
        if (m.forms.size() != wantForms)
            problems << where + u": %1 translation form(s), expected %2"_s.arg(m.forms.size()).arg(wantForms);
        for (const QString &t : m.forms) {
            if (t.trimmed().isEmpty()) {
                problems << where + u": empty translation"_s;
                continue;
            }
            QStringList want = placeholders(m.source);
            QStringList got = placeholders(t);
            if (m.numerus) { // a form may leave %n out ("ein Lauf"), but adds nothing new
                want.removeAll(u"%n"_s);
                got.removeAll(u"%n"_s);
            }
            if (want != got)
                problems << where + u": placeholders " + got.join(u',') + u" ≠ source " + want.join(u',');
            if (hasAccelerator(m.source) != hasAccelerator(t))
                problems << where + u": accelerator (&) in only one of source and translation";
        }
    }
    return problems;
}

// Messages present in one set and not the other.
QStringList setDifference(const QList<Message> &stored, const QList<Message> &fresh)
{
    QSet<QString> a, b;
    for (const Message &m : stored)
        a.insert(key(m));
    for (const Message &m : fresh)
        b.insert(key(m));
    QStringList out;
    for (const QString &k : b - a)
        out << u"not in the .ts (run the update_translations target): " + k;
    for (const QString &k : a - b)
        out << u"no longer in the sources: " + k;
    out.sort();
    return out;
}

// Runs lupdate over ui/ and app/ into `tsCopy` the way update_translations does.
bool runLupdate(const QString &tsCopy, QString *log)
{
    QProcess p;
    p.setWorkingDirectory(QStringLiteral(THROUGHLINE_SOURCE_DIR));
    p.start(QStringLiteral(THROUGHLINE_LUPDATE),
            {u"-I"_s, QStringLiteral(THROUGHLINE_SOURCE_DIR), u"-no-obsolete"_s, u"-locations"_s, u"none"_s,
             u"-extensions"_s, u"h,cpp"_s, u"ui"_s, u"app"_s, u"-ts"_s, tsCopy});
    if (!p.waitForFinished(60000)) {
        *log = u"lupdate did not finish: "_s + p.errorString();
        return false;
    }
    *log = QString::fromLocal8Bit(p.readAllStandardOutput() + p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

bool copyTo(const QString &from, const QString &to, const std::function<void(QByteArray &)> &edit = {})
{
    QFile in(from);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QByteArray data = in.readAll();
    if (edit)
        edit(data);
    QFile out(to);
    return out.open(QIODevice::WriteOnly) && out.write(data) == data.size();
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT
private slots:
    void catalogueIsComplete()
    {
        QString error;
        const QList<Message> messages = readCatalogue(kTsPath, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(messages.size() > 300,
                 qPrintable(u"only %1 messages in %2"_s.arg(messages.size()).arg(kTsPath)));
        const QStringList problems = completenessProblems(messages);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));

        QFile f(kTsPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray head = f.read(200);
        QVERIFY2(head.contains(R"(language="de")") && head.contains(R"(sourcelanguage="en")"),
                 head.constData());
    }

    void completenessCheckFailsOnBrokenCopies()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString broken = dir.filePath(u"broken_de.ts"_s);
        QVERIFY(copyTo(kTsPath, broken, [](QByteArray &d) {
            d.replace("<translation>&amp;Datei</translation>",
                      "<translation type=\"unfinished\"></translation>");
            d.replace("<translation>Verlauf: %1</translation>", "<translation>Verlauf</translation>");
            d.replace("<translation>Lauf &amp;starten</translation>",
                      "<translation>Lauf starten</translation>");
        }));
        QString error;
        const QStringList problems = completenessProblems(readCatalogue(broken, &error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString all = problems.join(u'\n');
        QVERIFY2(all.contains(u"&File") && all.contains(u"type=\"unfinished\""), qPrintable(all));
        QVERIFY2(all.contains(u"History: %1") && all.contains(u"placeholders"), qPrintable(all));
        QVERIFY2(all.contains(u"&Start Run") && all.contains(u"accelerator"), qPrintable(all));
    }

    void lupdateWouldNotChangeTheMessageSet()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString copy = dir.filePath(u"throughline_de.ts"_s);
        QVERIFY(copyTo(kTsPath, copy));
        QString log;
        QVERIFY2(runLupdate(copy, &log), qPrintable(log));
        QString error;
        const QList<Message> stored = readCatalogue(kTsPath, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QList<Message> fresh = readCatalogue(copy, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList diff = setDifference(stored, fresh);
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(u'\n') + u"\nlupdate: " + log));
        // lupdate found no new string and left every translation finished.
        QVERIFY2(log.contains(u"(0 new and"), qPrintable(log));
        const QStringList problems = completenessProblems(fresh);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    }

    void lupdateCheckFailsOnAStaleCopy()
    {
        // A .ts that lacks one message and carries one the sources no longer have: both are reported.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString stale = dir.filePath(u"throughline_de.ts"_s);
        QVERIFY(copyTo(kTsPath, stale, [](QByteArray &d) {
            d.replace("<source>Clear List</source>", "<source>Clear The List</source>");
        }));
        QString error;
        const QList<Message> before = readCatalogue(stale, &error);
        QString log;
        QVERIFY2(runLupdate(stale, &log), qPrintable(log));
        const QList<Message> after = readCatalogue(stale, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString diff = setDifference(before, after).join(u'\n');
        QVERIFY2(
            diff.contains(
                u"not in the .ts (run the update_translations target): Throughline::MainWindow | Clear List"),
            qPrintable(diff));
        QVERIFY2(diff.contains(u"no longer in the sources: Throughline::MainWindow | Clear The List"),
                 qPrintable(diff));
        QVERIFY(!completenessProblems(after).isEmpty()); // the new entry is unfinished
    }

    void languageResolution()
    {
        QCOMPARE(TranslationLoader::resolve(u"de"_s), u"de"_s);
        QCOMPARE(TranslationLoader::resolve(u"de_AT"_s), u"de"_s);
        QCOMPARE(TranslationLoader::resolve(u"de-CH"_s), u"de"_s);
        QCOMPARE(TranslationLoader::resolve(u"en"_s), u"en"_s);
        QCOMPARE(TranslationLoader::resolve(u"fr_FR"_s), u"en"_s);
        const QString sys = TranslationLoader::resolve(u"system"_s);
        QVERIFY(TranslationLoader::availableLanguages().contains(sys));
        QCOMPARE(TranslationLoader::resolve(QString()), sys);
        QCOMPARE(TranslationLoader::languageArgument({u"throughline"_s, u"--lang"_s, u"de"_s}), u"de"_s);
        QCOMPARE(TranslationLoader::languageArgument({u"throughline"_s, u"--lang=en"_s}), u"en"_s);
        QCOMPARE(TranslationLoader::languageArgument({u"throughline"_s, u"x.json"_s}), QString());
    }

    void embeddedCatalogueTranslatesTheWindow()
    {
        QVERIFY(QFile::exists(u":/i18n/throughline_de.qm"_s));
        QVERIFY(TranslationLoader::install(qApp, u"de"_s));
        QCOMPARE(QCoreApplication::translate("Throughline::MainWindow", "&File"), u"&Datei"_s);
        QCOMPARE(QCoreApplication::translate("Throughline::RunsTableModel", "Campaign"), u"Kampagne"_s);
        QCOMPARE(QCoreApplication::translate(
                     "Throughline::DesignerPage",
                     "%n scenario(s): %1 model(s) × %2 backend(s) × %3 deployment(s) × %4 phase(s)", nullptr,
                     3)
                     .arg(1)
                     .arg(1)
                     .arg(3)
                     .arg(1),
                 u"3 Szenarien: 1 Modell(e) × 1 Backend(s) × 3 Deployment(s) × 1 Phase(n)"_s);
        {
            QSettings().clear();
            MainWindow w;
            QStringList titles;
            for (QAction *a : w.menuBar()->actions())
                titles << a->text();
            QCOMPARE(titles,
                     (QStringList{u"&Datei"_s, u"&Bearbeiten"_s, u"&Ansicht"_s, u"&Lauf"_s, u"&Hilfe"_s}));
        }
        // English is the source: no translator, the original strings.
        const auto translators = qApp->findChildren<QTranslator *>();
        for (QTranslator *t : translators) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
        QVERIFY(TranslationLoader::install(qApp, u"en"_s));
        QCOMPARE(QCoreApplication::translate("Throughline::MainWindow", "&File"), u"&File"_s);
    }

    void languageSettingIsStored()
    {
        QSettings().clear();
        MainWindow w;
        QMenu *language = nullptr;
        for (QAction *a : w.menuBar()->actions()) {
            if (!a->menu())
                continue;
            for (QAction *b : a->menu()->actions()) {
                if (b->menu() && b->text() == u"&Language")
                    language = b->menu();
            }
        }
        QVERIFY(language);
        QAction *deutsch = nullptr;
        for (QAction *a : language->actions()) {
            if (a->text() == u"Deutsch")
                deutsch = a;
        }
        QVERIFY(deutsch);
        deutsch->trigger();
        QCOMPARE(QSettings().value(u"ui/language"_s).toString(), u"de"_s);
        QVERIFY(deutsch->isChecked());
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestTranslations)
#include "tst_translations.moc"
