// The client judging itself (client_bound, docs/metrics.md "The client's error budget"), end to end with the
// built throughline-cli on the demo's simulator (time scale 20): an idle client flags nothing, in open loop
// at λ = 5 and 20 and in closed loop at small C, and every point carries its wall-clock error budget; a
// client starved on purpose (pinned to one CPU at nice 19 beside a busy loop at nice 0 on the same CPU) is
// still flagged. A few short runs only: the 20-run statistic is tests/bench/bench_clientbound.sh.
//
// Robust on a loaded CI machine: while the CLI runs, a probe thread here sleeps 1 ms at a time and records
// how late each wake-up is — what the machine does to any idle thread at this priority. An idle point that is
// flagged while the probe's wake-ups were late (p99 > 0.5 ms; 0.07 ms on a quiet machine) is run again, at
// most three times in all, and the test is skipped with the figures if the machine stayed busy; a flag on a
// quiet machine fails at once.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

class TestClientBound : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void idleOpenLoop();
    void idleClosedLoop();
    void starvedClientIsFlagged();

private:
    // Runs the demo's Chat phase with `plan` (JSON members replacing the demo plan's) and returns the
    // points of results.json; `wrapper` (e.g. taskset … nice …) runs in front of the CLI.
    QJsonArray runPoints(const QString &name, const QJsonObject &plan, const QStringList &wrapper = {});
    // Runs `plan` as an idle client (kIdle) until no point is client_bound, at most three times while the
    // machine is busy (above); checks the budget is present on every point.
    void checkIdle(const QString &name, const QJsonObject &plan, int expectedPoints);

    double m_lastWakeP99Ms = 0; // the probe's wake-up lateness p99 (ms) over the last runPoints()

    QTemporaryDir m_dir;
    QJsonObject m_demo;
};

void TestClientBound::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QFile f(QStringLiteral(THROUGHLINE_SOURCE_DIR "/resources/campaigns/demo.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    m_demo = QJsonDocument::fromJson(f.readAll()).object();
    QVERIFY(!m_demo.isEmpty());
    m_demo[u"phases"_qs] = QJsonArray{QJsonObject{{u"preset"_qs, u"Chat"_qs}}};
}

QJsonArray TestClientBound::runPoints(const QString &name, const QJsonObject &plan,
                                      const QStringList &wrapper)
{
    QJsonObject campaign = m_demo;
    QJsonObject p = campaign[u"plan"_qs].toObject();
    for (auto it = plan.begin(); it != plan.end(); ++it)
        p[it.key()] = it.value();
    campaign[u"plan"_qs] = p;
    const QString file = m_dir.filePath(name + u".json"_qs);
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(file));
    f.write(QJsonDocument(campaign).toJson());
    f.close();

    const QString out = m_dir.filePath(name);
    QStringList args{u"run"_qs, file, u"--out"_qs, out, u"--no-history"_qs, u"--json"_qs};
    QString program = QStringLiteral(THROUGHLINE_CLI_PATH);
    if (!wrapper.isEmpty()) {
        args.prepend(program);
        args = wrapper.mid(1) + args;
        program = wrapper.front();
    }
    // The probe: how late a thread at this priority wakes from a 1 ms sleep while the CLI runs.
    std::atomic<bool> probing{true};
    std::vector<double> lateMs;
    std::thread probe([&] {
        using namespace std::chrono;
        while (probing.load()) {
            const auto t0 = steady_clock::now();
            std::this_thread::sleep_for(milliseconds(1));
            lateMs.push_back(duration<double, std::milli>(steady_clock::now() - t0).count() - 1.0);
        }
    });
    auto stopProbe = [&] {
        if (probe.joinable()) {
            probing = false;
            probe.join();
        }
    };
    QProcess proc;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"NO_COLOR"_qs, u"1"_qs);
    env.insert(u"THROUGHLINE_DB"_qs, m_dir.filePath(u"history.sqlite"_qs));
    proc.setProcessEnvironment(env);
    proc.start(program, args);
    const bool ran = proc.waitForStarted(10000) && proc.waitForFinished(110000);
    stopProbe();
    if (!ran)
        qFatal("throughline-cli did not run or hung");
    std::sort(lateMs.begin(), lateMs.end());
    m_lastWakeP99Ms = lateMs.empty() ? 0.0 : lateMs[lateMs.size() * 99 / 100];
    QFile res(out + u"/results.json"_qs);
    if (!res.open(QIODevice::ReadOnly)) {
        qWarning("%s", proc.readAllStandardError().constData());
        return {};
    }
    const QJsonObject doc = QJsonDocument::fromJson(res.readAll()).object();
    if (doc[u"schema"_qs].toString() != u"throughline.results/5"_qs)
        qWarning("unexpected schema %s", qPrintable(doc[u"schema"_qs].toString()));
    return doc[u"scenarios"_qs].toArray().at(0).toObject()[u"points"_qs].toArray();
}

namespace {

QString describe(const QJsonObject &point)
{
    return QString::fromUtf8(QJsonDocument(point[u"client"_qs].toObject()).toJson(QJsonDocument::Compact)) +
           u" flags "_qs +
           QString::fromUtf8(QJsonDocument(point[u"validity"_qs].toObject()[u"flags"_qs].toArray())
                                 .toJson(QJsonDocument::Compact));
}

bool clientBound(const QJsonObject &point)
{
    return point[u"validity"_qs].toObject()[u"flags"_qs].toArray().contains(u"client_bound"_qs);
}

// Every point carries the wall-clock budget, measured (numbers, not null). A client starved on purpose may
// get no read-delay sample at all (its reads never ran inside the window: seen once in CI, send blocked 38 %,
// added delay 832 ms); then the read delay is null, honestly unmeasured, and the rest must still be numbers.
void checkBudgetPresent(const QJsonObject &point, bool readDelayMayBeUnmeasured = false)
{
    const QJsonObject c = point[u"client"_qs].toObject();
    for (const char *k : {"send_blocked_ms", "send_blocked_pct", "read_delay_p99_ms", "cpu_wait_per_wake_ms",
                          "added_delay_p99_ms"}) {
        if (readDelayMayBeUnmeasured && QLatin1String(k) == u"read_delay_p99_ms"_qs &&
            c[QLatin1String(k)].isNull())
            continue;
        QVERIFY2(c[QLatin1String(k)].isDouble(), qPrintable(QLatin1String(k) + u" in "_qs + describe(point)));
    }
    QVERIFY(c[u"send_blocked_pct"_qs].toDouble() >= 0);
    if (c[u"read_delay_p99_ms"_qs].isDouble())
        QVERIFY(c[u"added_delay_p99_ms"_qs].toDouble() >= c[u"read_delay_p99_ms"_qs].toDouble());
}

} // namespace

// "Idle" means the client gets the CPU it asks for. On a shared machine (this one: 2 cores, other builds
// beside) the idle runs ask for nice −5 — granted to root, ignored with a warning otherwise (`nice` still
// runs the CLI) — because a client that waits for a CPU behind other work IS late and is rightly flagged
// when that lasts. Before the 5 ms grace and the 100 ms floor (docs/metrics.md), the client at nice 19
// beside four busy loops at nice 19 (load 9–11) was flagged at λ = 20 in 16 of 20 runs, for send lateness
// of 5–10 ms and no backlog; the probe above is what tells such a machine from a quiet one.
const QStringList kIdle{u"nice"_qs, u"-n"_qs, u"-5"_qs};

void TestClientBound::checkIdle(const QString &name, const QJsonObject &plan, int expectedPoints)
{
    constexpr double kBusyWakeP99Ms = 0.5; // the probe on a quiet machine: 0.07 ms; loaded (load 9): 0.8–2 ms
    QStringList busyAttempts;
    for (int attempt = 1; attempt <= 3; ++attempt) {
        const QJsonArray points = runPoints(name + QString::number(attempt), plan, kIdle);
        QCOMPARE(points.size(), expectedPoints);
        QStringList flagged;
        for (const QJsonValue &v : points) {
            const QJsonObject p = v.toObject();
            checkBudgetPresent(p);
            qInfo("%s", qPrintable(describe(p))); // the figures behind the margins below
            if (clientBound(p))
                flagged << describe(p);
        }
        qInfo("attempt %d: the probe's wake-up lateness p99 %.3f ms", attempt, m_lastWakeP99Ms);
        if (flagged.isEmpty())
            return;
        const QString what =
            u"wake-up p99 %1 ms: "_qs.arg(m_lastWakeP99Ms, 0, 'f', 3) + flagged.join(u"; "_qs);
        // A quiet machine and a flag: the judgement is wrong.
        QVERIFY2(m_lastWakeP99Ms > kBusyWakeP99Ms, qPrintable(u"flagged on a quiet machine: "_qs + what));
        busyAttempts << what;
    }
    QSKIP(
        qPrintable(u"the machine stayed busy (idle threads woke late) in three attempts, each flagged: "_qs +
                   busyAttempts.join(u" | "_qs)));
}

void TestClientBound::idleOpenLoop()
{
    checkIdle(
        u"open"_qs,
        {{u"mode"_qs, u"open"_qs}, {u"rates"_qs, QJsonArray{5, 20}}, {u"concurrencies"_qs, QJsonArray{}}}, 2);
}

void TestClientBound::idleClosedLoop()
{
    checkIdle(u"closed"_qs, {{u"concurrencies"_qs, QJsonArray{1, 8, 32}}, {u"request_count"_qs, 160}}, 3);
}

// Starved: the whole client (and the in-process simulator) on CPU 0 under SCHED_IDLE beside a busy loop
// pinned to CPU 0 — the scheduler gives it a sliver of that CPU while the loop runs, whatever nice ctest runs
// at (nice 19 on both sides would have been a fair share, not starvation). Measured (main, nice 19 beside a
// nice-0 loop): C = 64 added_delay_p99_ms 115 ms, send_blocked_pct 48 % (C = 8: 8.6 ms).
void TestClientBound::starvedClientIsFlagged()
{
    if (QStandardPaths::findExecutable(u"taskset"_qs).isEmpty() ||
        QStandardPaths::findExecutable(u"chrt"_qs).isEmpty())
        QSKIP("taskset or chrt (util-linux) is not installed");
    QProcess hog;
    hog.start(u"taskset"_qs, {u"-c"_qs, u"0"_qs, u"sh"_qs, u"-c"_qs, u"while :; do :; done"_qs});
    QVERIFY(hog.waitForStarted(5000));
    const QJsonArray points =
        runPoints(u"starved"_qs, {{u"concurrencies"_qs, QJsonArray{64}}, {u"request_count"_qs, 192}},
                  {u"taskset"_qs, u"-c"_qs, u"0"_qs, u"chrt"_qs, u"--idle"_qs, u"0"_qs});
    hog.kill();
    hog.waitForFinished(5000);
    QCOMPARE(points.size(), 1);
    const QJsonObject p = points.at(0).toObject();
    checkBudgetPresent(p, true);
    qInfo("%s", qPrintable(describe(p)));
    QVERIFY2(clientBound(p), qPrintable(describe(p)));
    QVERIFY2(p[u"client"_qs].toObject()[u"added_delay_p99_ms"_qs].toDouble() > 5, qPrintable(describe(p)));
}

QTEST_GUILESS_MAIN(TestClientBound)
#include "tst_clientbound.moc"
