#pragma once
// Shared by the shard tests: one throughline-sim process (THROUGHLINE_SIM_PATH) serving the demo's
// deployment (gpt-oss-20b on 1 × H200, FP8, seed 7) on a free loopback port — the endpoint that the shards
// of a cluster run share. Time scale 5, not the demo's 20: at 20x the server streams ~29k tokens/s of wall
// time at C=16 and client + server become CPU-bound on a 2-core machine, so the throughput the tests compare
// would measure CPU contention from other tests rather than the sharding.
#include <QElapsedTimer>
#include <QProcess>
#include <QString>
#include <QStringList>

// Starts `sim` and waits (≤ 10 s) for its "listening 127.0.0.1:PORT" line. Returns the base URL
// ("http://127.0.0.1:PORT"), or an empty string with the reason in `error`. `extra` options come after the
// defaults and override them (--seed 9, --jitter 0.1, --slowdown 25).
inline QString startDemoSim(QProcess &sim, QString *error, const QStringList &extra = {})
{
    sim.setProcessChannelMode(QProcess::SeparateChannels);
    sim.start(QStringLiteral(THROUGHLINE_SIM_PATH),
              QStringList{QStringLiteral("--model"), QStringLiteral("gpt-oss-20b"), QStringLiteral("--gpu"),
                          QStringLiteral("H200"), QStringLiteral("--gpus"), QStringLiteral("1"),
                          QStringLiteral("--precision"), QStringLiteral("FP8"),
                          QStringLiteral("--time-scale"), QStringLiteral("5"), QStringLiteral("--seed"),
                          QStringLiteral("7"), QStringLiteral("--port"), QStringLiteral("0")} +
                  extra);
    if (!sim.waitForStarted(10000)) {
        *error = QStringLiteral("cannot start " THROUGHLINE_SIM_PATH ": ") + sim.errorString();
        return {};
    }
    QElapsedTimer t;
    t.start();
    while (!sim.canReadLine() && t.elapsed() < 10000 && sim.state() == QProcess::Running)
        sim.waitForReadyRead(100);
    const QString line = QString::fromUtf8(sim.readLine()).trimmed();
    if (!line.startsWith(QStringLiteral("listening 127.0.0.1:"))) {
        *error = QStringLiteral("throughline-sim did not report its port within 10 s; first line: '") + line +
                 QStringLiteral("', stderr: ") + QString::fromUtf8(sim.readAllStandardError());
        return {};
    }
    return QStringLiteral("http://") + line.mid(10);
}

// Ends the simulator started by startDemoSim (SIGTERM, then SIGKILL after 5 s).
inline void stopDemoSim(QProcess &sim)
{
    if (sim.state() == QProcess::NotRunning)
        return;
    sim.terminate();
    if (!sim.waitForFinished(5000))
        sim.kill();
}
