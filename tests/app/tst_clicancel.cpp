// `throughline-cli run` stopped by a signal stores every scenario of the campaign, as the desktop app does:
// the scenarios the run never reached are kept with verdict "not_run" and no points, both in the history
// database (recorded as the run goes; Ctrl-C = SIGINT) and in the run bundle of a --no-history run (recorded
// afterwards; SIGTERM, which the CLI treats as Ctrl-C so that a scheduler stopping the job still gets a
// 'cancelled' run). Built executable, real SQLite files, in-process simulated endpoint; the campaign's first
// point runs far longer than the test waits, so the signal always lands in scenario 0 of 3.
#include "core/storage/sqlitedb.h"

#include "clitestprocess.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <csignal>
#include <sys/types.h>

using namespace Throughline;

namespace {

constexpr int kScenarios = 3; // phases First, Second, Third of tests/data/cli/cancel-campaign.json

struct StoredScenario {
    int index = -1;
    std::string key;
    std::string verdict; // "" = none stored
    std::string verdictJson;
    std::int64_t points = -1;
};

struct StoredRun {
    std::int64_t runs = -1;
    std::string status;
    std::vector<StoredScenario> scenarios;
    std::string error; // why the file could not be read
};

// The only run of the SQLite file `path` (history database or run bundle), read-only.
StoredRun readStoredRun(const QString &path)
{
    StoredRun r;
    SqliteDb db;
    if (auto st = db.open(path.toStdString(), SqliteDb::Mode::ReadOnly); !st) {
        r.error = st.error().message;
        return r;
    }
    auto runs = db.queryInt("SELECT count(*) FROM runs", -1);
    r.runs = runs ? *runs : -1;
    if (auto st = db.prepare("SELECT status FROM runs"); st && st->step() == 100 /*SQLITE_ROW*/)
        r.status = st->colText(0);
    auto st =
        db.prepare("SELECT s.idx, s.scenario_key, COALESCE(s.verdict, ''), COALESCE(s.verdict_json, ''), "
                   "(SELECT count(*) FROM points p WHERE p.scenario_id = s.id) FROM scenarios s ORDER BY "
                   "s.idx");
    if (!st) {
        r.error = st.error().message;
        return r;
    }
    while (st->step() == 100 /*SQLITE_ROW*/)
        r.scenarios.push_back(StoredScenario{static_cast<int>(st->colInt(0)), st->colText(1), st->colText(2),
                                             st->colText(3), st->colInt(4)});
    return r;
}

} // namespace

class TestCliCancel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void interruptedRunRecordsUnreachedScenarios();
    void terminatedRunBundleKeepsUnreachedScenarios();

private:
    // Runs `run CAMPAIGN --json extra…` (human output on unbuffered stderr), waits for the engine's
    // "run ID: 3 scenario(s)" line, lets it measure for 1.5 s, then sends `signal` and waits for the exit.
    CliRun runAndSignal(const QStringList &extra, int signal);
    // Scenario 0 reached (judged, not "not_run"); 1 and 2 never reached: "not_run", no points.
    void checkStored(const QString &path);

    QTemporaryDir m_dir;
    QString m_db;
};

void TestCliCancel::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(u"history.sqlite"_qs);
}

CliRun TestCliCancel::runAndSignal(const QStringList &extra, int signal)
{
    QProcess *p = startCliProcess(
        this, m_db,
        QStringList{u"run"_qs, QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/cli/cancel-campaign.json"),
                    u"--json"_qs} +
            extra);
    QByteArray err;
    QElapsedTimer t;
    t.start();
    while (!err.contains(" scenario(s) from ") && t.elapsed() < 30000 && p->state() == QProcess::Running) {
        p->waitForReadyRead(100);
        err += p->readAllStandardError();
    }
    if (p->state() == QProcess::Running) {
        QTest::qWait(1500); // requests in flight in scenario 0's only point
        ::kill(static_cast<pid_t>(p->processId()), signal);
    }
    CliRun r = finishCliProcess(p, 30000);
    r.err.prepend(QString::fromUtf8(err));
    return r;
}

void TestCliCancel::checkStored(const QString &path)
{
    const StoredRun run = readStoredRun(path);
    QVERIFY2(run.error.empty(), run.error.c_str());
    QCOMPARE(run.runs, std::int64_t(1));
    QCOMPARE(run.status, std::string("cancelled"));
    QCOMPARE(int(run.scenarios.size()), kScenarios);
    const char *phases[kScenarios] = {"/First", "/Second", "/Third"};
    for (int i = 0; i < kScenarios; ++i) {
        const StoredScenario &s = run.scenarios[std::size_t(i)];
        QCOMPARE(s.index, i);
        QVERIFY2(s.key.size() > 6 && s.key.ends_with(phases[i]), s.key.c_str());
    }
    const StoredScenario &reached = run.scenarios[0];
    QVERIFY2(!reached.verdict.empty() && reached.verdict != "not_run", reached.verdictJson.c_str());
    for (int i = 1; i < kScenarios; ++i) {
        const StoredScenario &s = run.scenarios[std::size_t(i)];
        QCOMPARE(s.verdict, std::string("not_run"));
        QVERIFY2(nlohmann::json::parse(s.verdictJson, nullptr, false) ==
                     (nlohmann::json{{"status", "not_run"}}),
                 s.verdictJson.c_str());
        QCOMPARE(s.points, std::int64_t(0));
    }
}

// Recorded as it goes into THROUGHLINE_DB: the run row and all three scenario rows exist from the start; the
// cancel stores verdict "not_run" for the two the run never reached.
void TestCliCancel::interruptedRunRecordsUnreachedScenarios()
{
    const CliRun r = runAndSignal({}, SIGINT);
    QVERIFY2(r.code == 130, qPrintable(QString::number(r.code) + u"\n"_qs + r.err));
    checkStored(m_db);
}

// --no-history --out DIR: the run is stored afterwards into DIR/run.tlrun (a one-run SQLite bundle), which
// now also holds the unreached scenarios; the history database is not created.
void TestCliCancel::terminatedRunBundleKeepsUnreachedScenarios()
{
    QFile::remove(m_db);
    const QString out = m_dir.filePath(u"out"_qs);
    const CliRun r = runAndSignal({u"--no-history"_qs, u"--out"_qs, out}, SIGTERM);
    QVERIFY2(r.code == 130, qPrintable(QString::number(r.code) + u"\n"_qs + r.err));
    QVERIFY(!QFile::exists(m_db));
    QVERIFY(QFile::exists(out + u"/results.json"_qs));
    checkStored(out + u"/run.tlrun"_qs);
}

QTEST_GUILESS_MAIN(TestCliCancel)
#include "tst_clicancel.moc"
