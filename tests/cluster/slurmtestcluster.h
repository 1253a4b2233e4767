#pragma once
// A private one-node Slurm cluster for the cluster tests: munged, slurmctld and slurmd from Debian's munge
// and slurm-wlm packages (packaging/bootstrap.sh installs them without starting any system service), started
// here as ordinary child processes on 127.0.0.1 with a configuration, key, sockets, state and logs in one
// temporary folder, on free ports — nothing outside that folder is read or written, and a second test run
// (another worktree) gets its own cluster. The node is declared with 32 CPUs
// (SlurmdParameters=config_overrides: more than the machine has, so that four array tasks with the template's
// --cpus-per-task=8 fit on a 2-core machine) in a partition that allows over-subscription. The daemons get
// SIGTERM if the test process dies (PR_SET_PDEATHSIG), and stop() ends them otherwise.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTcpServer>
#include <QThread>

#include <memory>
#include <vector>

#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

class SlurmTestCluster
{
public:
    struct Command {
        int code = -1; // -1: did not start or crashed
        QString out, err;
    };

    ~SlurmTestCluster() { stop(); }

    // The executables the cluster needs; empty when all are on PATH, else what is missing.
    static QString missingExecutables()
    {
        QStringList missing;
        for (const char *exe : {"munged", "slurmctld", "slurmd", "sbatch", "scontrol", "scancel", "sinfo"}) {
            const QString name = QString::fromLatin1(exe);
            if (QStandardPaths::findExecutable(name).isEmpty() &&
                QStandardPaths::findExecutable(name, {u"/usr/sbin"_qs, u"/sbin"_qs}).isEmpty())
                missing << name;
        }
        return missing.join(u", "_qs);
    }

    // Starts the three daemons under `root` (an empty folder) and waits (≤ 30 s) for the node to be idle.
    bool start(const QString &root, QString *error)
    {
        m_root = root;
        // munged insists that every folder above its socket is searchable by all (mode 0755 here).
        QFile::setPermissions(root, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                        QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                        QFile::ExeOther);
        QDir d(root);
        for (const char *sub : {"munge", "sock", "state", "spool", "log"})
            d.mkpath(QString::fromLatin1(sub));
        QFile::setPermissions(path(u"munge"_qs), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (!writeMungeKey(error) || !writeConfig(error))
            return false;
        const QString sock = path(u"sock/munge.socket"_qs);
        if (!startDaemon(u"munged"_qs,
                         {u"--foreground"_qs, u"--force"_qs, u"--socket="_qs + sock,
                          u"--key-file="_qs + path(u"munge/munge.key"_qs),
                          u"--pid-file="_qs + path(u"munge/munged.pid"_qs),
                          u"--seed-file="_qs + path(u"munge/munged.seed"_qs),
                          u"--log-file="_qs + path(u"log/munged.log"_qs)},
                         error))
            return false;
        if (!waitFor([&] { return QFile::exists(sock); }, 10000)) {
            *error = u"munged did not create its socket within 10 s: "_qs + log(u"log/munged.log"_qs);
            return false;
        }
        if (!startDaemon(u"slurmctld"_qs, {u"-D"_qs, u"-f"_qs, conf()}, error) ||
            !startDaemon(u"slurmd"_qs, {u"-D"_qs, u"-f"_qs, conf(), u"-N"_qs, u"localhost"_qs}, error))
            return false;
        const bool idle = waitFor(
            [&] {
                const Command c = run(u"sinfo"_qs, {u"-h"_qs, u"-o"_qs, u"%T"_qs});
                return c.code == 0 && c.out.trimmed() == u"idle"_qs;
            },
            30000);
        if (!idle) {
            *error = u"the node did not become idle within 30 s; slurmctld: "_qs +
                     log(u"log/slurmctld.log"_qs).right(1500) + u"\nslurmd: "_qs +
                     log(u"log/slurmd.log"_qs).right(1500);
            return false;
        }
        return true;
    }

    // Cancels every job left, then ends slurmd, slurmctld and munged (SIGTERM, SIGKILL after 10 s).
    void stop()
    {
        if (m_daemons.empty())
            return;
        run(u"scancel"_qs, {u"--user"_qs, userName()});
        for (auto it = m_daemons.rbegin(); it != m_daemons.rend(); ++it) {
            QProcess &p = **it;
            if (p.state() == QProcess::NotRunning)
                continue;
            p.terminate();
            if (!p.waitForFinished(10000))
                p.kill();
            p.waitForFinished(2000);
        }
        m_daemons.clear();
    }

    // The environment of every Slurm client command (and so of the jobs: sbatch --export=ALL): SLURM_CONF.
    QProcessEnvironment environment(QProcessEnvironment env = QProcessEnvironment::systemEnvironment()) const
    {
        env.insert(u"SLURM_CONF"_qs, conf());
        return env;
    }

    // Runs a Slurm client command (sbatch, scontrol, …) in `workDir` with `env` (environment() added).
    Command run(const QString &program, const QStringList &args,
                const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                const QString &workDir = {}) const
    {
        QProcess p;
        p.setProcessEnvironment(environment(env));
        if (!workDir.isEmpty())
            p.setWorkingDirectory(workDir);
        p.start(program, args);
        Command c;
        if (!p.waitForStarted(10000)) {
            c.err = program + u": "_qs + p.errorString();
            return c;
        }
        p.closeWriteChannel();
        if (!p.waitForFinished(30000))
            p.kill();
        c.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        c.out = QString::fromUtf8(p.readAllStandardOutput());
        c.err = QString::fromUtf8(p.readAllStandardError());
        return c;
    }

    // One line per job (per array task): "JobId=… ArrayTaskId=… JobState=… ExitCode=…" from scontrol.
    struct JobState {
        QString id, state, exitCode;
        int arrayTask = -1;
    };
    std::vector<JobState> jobStates(const QString &jobId) const
    {
        std::vector<JobState> jobs;
        const Command c = run(u"scontrol"_qs, {u"show"_qs, u"job"_qs, u"-o"_qs, jobId});
        static const QRegularExpression field(u"(\\w+)=(\\S*)"_qs);
        for (const QString &line : c.out.split(u'\n', Qt::SkipEmptyParts)) {
            JobState j;
            for (auto it = field.globalMatch(line); it.hasNext();) {
                const auto m = it.next();
                if (m.captured(1) == u"JobId"_qs)
                    j.id = m.captured(2);
                else if (m.captured(1) == u"ArrayTaskId"_qs)
                    j.arrayTask = m.captured(2).toInt();
                else if (m.captured(1) == u"JobState"_qs)
                    j.state = m.captured(2);
                else if (m.captured(1) == u"ExitCode"_qs)
                    j.exitCode = m.captured(2);
            }
            if (!j.id.isEmpty())
                jobs.push_back(j);
        }
        return jobs;
    }

    // Waits until every job of `jobId` (every array task) has ended; false on timeout.
    bool waitForEnd(const QString &jobId, int timeoutMs) const
    {
        return waitFor(
            [&] {
                const std::vector<JobState> jobs = jobStates(jobId);
                if (jobs.empty())
                    return false;
                for (const JobState &j : jobs)
                    if (j.state == u"PENDING"_qs || j.state == u"RUNNING"_qs ||
                        j.state == u"CONFIGURING"_qs || j.state == u"COMPLETING"_qs ||
                        j.state == u"SUSPENDED"_qs)
                        return false;
                return true;
            },
            timeoutMs);
    }

    QString path(const QString &relative) const { return m_root + u'/' + relative; }
    QString log(const QString &relative) const
    {
        QFile f(path(relative));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }

    template <typename Pred>
    static bool waitFor(Pred done, int timeoutMs)
    {
        QElapsedTimer t;
        t.start();
        while (!done()) {
            if (t.elapsed() > timeoutMs)
                return false;
            QThread::msleep(200);
        }
        return true;
    }

private:
    QString conf() const { return path(u"slurm.conf"_qs); }

    static QString userName()
    {
        const passwd *pw = getpwuid(getuid());
        return pw ? QString::fromLocal8Bit(pw->pw_name) : qEnvironmentVariable("USER");
    }

    static quint16 freePort()
    {
        QTcpServer s;
        s.listen(QHostAddress::LocalHost, 0);
        return s.serverPort();
    }

    bool writeMungeKey(QString *error) const
    {
        QFile key(path(u"munge/munge.key"_qs));
        QFile random(u"/dev/urandom"_qs);
        if (!key.open(QIODevice::WriteOnly) || !random.open(QIODevice::ReadOnly)) {
            *error = u"cannot write "_qs + key.fileName();
            return false;
        }
        key.write(random.read(1024));
        key.close();
        key.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        return true;
    }

    bool writeConfig(QString *error) const
    {
        quint16 ctld = freePort(), slurmd = freePort();
        while (slurmd == ctld)
            slurmd = freePort();
        const QString user = userName();
        // The small test cluster of packaging/cluster/README.md: one node, over-subscribed, no cgroups, no
        // accounting. MinJobAge keeps finished jobs visible to `scontrol show job` for the whole test.
        const QString text =
            QStringLiteral("ClusterName=tltest\n"
                           "SlurmctldHost=localhost(127.0.0.1)\n"
                           "SlurmUser=%1\nSlurmdUser=%1\n"
                           "SlurmctldPort=%2\nSlurmdPort=%3\n"
                           "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=%4\n"
                           "StateSaveLocation=%5/state\nSlurmdSpoolDir=%5/spool\n"
                           "SlurmctldPidFile=%5/slurmctld.pid\nSlurmdPidFile=%5/slurmd.pid\n"
                           "SlurmctldLogFile=%5/log/slurmctld.log\nSlurmdLogFile=%5/log/slurmd.log\n"
                           "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
                           "SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n"
                           "SchedulerType=sched/builtin\nMpiDefault=none\nReturnToService=2\n"
                           "SlurmdParameters=config_overrides\nPropagateResourceLimits=NONE\n"
                           "JobAcctGatherType=jobacct_gather/none\n"
                           "AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\n"
                           "MailProg=/bin/true\nMinJobAge=900\nKillWait=2\nInactiveLimit=0\n"
                           "NodeName=localhost NodeAddr=127.0.0.1 CPUs=32 RealMemory=1000 "
                           "State=UNKNOWN\n"
                           "PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP "
                           "OverSubscribe=YES\n")
                .arg(user)
                .arg(ctld)
                .arg(slurmd)
                .arg(path(u"sock/munge.socket"_qs), m_root);
        QFile f(conf());
        if (!f.open(QIODevice::WriteOnly)) {
            *error = u"cannot write "_qs + conf();
            return false;
        }
        f.write(text.toUtf8());
        return true;
    }

    bool startDaemon(const QString &name, const QStringList &args, QString *error)
    {
        QString exe = QStandardPaths::findExecutable(name);
        if (exe.isEmpty())
            exe = QStandardPaths::findExecutable(name, {u"/usr/sbin"_qs, u"/sbin"_qs});
        auto p = std::make_unique<QProcess>();
        p->setProcessEnvironment(environment());
        p->setStandardOutputFile(path(u"log/"_qs + name + u".out"_qs));
        p->setStandardErrorFile(path(u"log/"_qs + name + u".out"_qs), QIODevice::Append);
        // A crashed or killed test must not leave a scheduler running.
        p->setChildProcessModifier([] { prctl(PR_SET_PDEATHSIG, SIGTERM); });
        p->start(exe, args);
        if (!p->waitForStarted(10000)) {
            *error = u"cannot start "_qs + name + u": "_qs + p->errorString();
            return false;
        }
        m_daemons.push_back(std::move(p));
        QThread::msleep(300);
        if (m_daemons.back()->state() == QProcess::NotRunning) {
            *error = name + u" exited at once: "_qs + log(u"log/"_qs + name + u".out"_qs);
            return false;
        }
        return true;
    }

    QString m_root;
    std::vector<std::unique_ptr<QProcess>> m_daemons; // start order: munged, slurmctld, slurmd
};
