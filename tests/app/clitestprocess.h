#pragma once
// Shared by the tests that start the built throughline-cli (THROUGHLINE_CLI_PATH): start it with a private
// history database and no colours, wait for it, read files it wrote.
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

struct CliRun {
    int code = -1; // -1: crashed
    QString out;
    QString err;
};

inline QString readTextFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

// Starts throughline-cli with `args` (`stdinData` written, then stdin closed); the caller owns the process
// through `parent`.
inline QProcess *startCliProcess(QObject *parent, const QString &historyDb, const QStringList &args,
                                 const QByteArray &stdinData = {})
{
    auto *p = new QProcess(parent);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("NO_COLOR"), QStringLiteral("1"));
    env.insert(QStringLiteral("THROUGHLINE_DB"), historyDb);
    p->setProcessEnvironment(env);
    p->start(QStringLiteral(THROUGHLINE_CLI_PATH), args);
    if (!p->waitForStarted(10000))
        qFatal("cannot start %s", THROUGHLINE_CLI_PATH);
    if (!stdinData.isEmpty())
        p->write(stdinData);
    p->closeWriteChannel();
    return p;
}

inline CliRun finishCliProcess(QProcess *p, int timeoutMs)
{
    if (!p->waitForFinished(timeoutMs))
        qFatal("throughline-cli hung");
    CliRun r{p->exitStatus() == QProcess::NormalExit ? p->exitCode() : -1,
             QString::fromUtf8(p->readAllStandardOutput()), QString::fromUtf8(p->readAllStandardError())};
    p->deleteLater();
    return r;
}

// Runs throughline-cli to its end (at most `timeoutMs`, then the test stops).
inline CliRun runCli(const QString &historyDb, const QStringList &args, int timeoutMs,
                     const QByteArray &stdinData = {})
{
    QObject owner; // deletes the process on return
    return finishCliProcess(startCliProcess(&owner, historyDb, args, stdinData), timeoutMs);
}

// Writes `content` to `path` (the test stops when it cannot); returns the path.
inline QString writeTestFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(content);
    return path;
}
