#include "core/sim/simprocess.h"

#include "core/campaign/endpoint.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QProcess>
#include <QStringList>

#include <sched.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace Throughline {

SimProcess::SimProcess() = default;

SimProcess::~SimProcess()
{
    stop();
}

std::string SimProcess::defaultExecutable()
{
    if (QCoreApplication::instance()) {
        const QString local = QCoreApplication::applicationDirPath() + u"/throughline-sim"_qs;
        if (QFileInfo(local).isExecutable())
            return local.toStdString();
    }
    return "throughline-sim";
}

std::vector<std::string> SimProcess::argumentsFor(const std::string &model, const std::string &gpu, int gpus,
                                                  const std::string &precision, const SimulatorOptions &sim)
{
    char buf[64];
    std::vector<std::string> a = {"--model", model, "--gpu", gpu, "--gpus", std::to_string(gpus),
                                  "--port",  "0"};
    if (!precision.empty()) {
        a.push_back("--precision");
        a.push_back(precision);
    }
    std::snprintf(buf, sizeof buf, "%.17g", sim.timeScale);
    a.insert(a.end(), {"--time-scale", buf});
    std::snprintf(buf, sizeof buf, "%.17g", sim.jitter);
    a.insert(a.end(), {"--jitter", buf, "--seed", std::to_string(sim.seed)});
    if (!sim.faults.empty())
        a.insert(a.end(), {"--faults", sim.faults});
    // Only when set: the command line of a campaign without them stays as it was.
    if (sim.slowdownFactor != 1) {
        std::snprintf(buf, sizeof buf, "%.17g", sim.slowdownFactor);
        a.insert(a.end(), {"--slowdown-factor", buf});
        std::snprintf(buf, sizeof buf, "%.17g", sim.slowdownAfterS);
        a.insert(a.end(), {"--slowdown-after-s", buf});
    }
    if (sim.slowdownPerHour != 0) {
        std::snprintf(buf, sizeof buf, "%.17g", sim.slowdownPerHour);
        a.insert(a.end(), {"--slowdown-per-hour", buf});
    }
    if (sim.fixedTtftMs != 0 || sim.fixedItlMs != 0) {
        std::snprintf(buf, sizeof buf, "%.17g", sim.fixedTtftMs);
        a.insert(a.end(), {"--fixed-ttft-ms", buf});
        std::snprintf(buf, sizeof buf, "%.17g", sim.fixedItlMs);
        a.insert(a.end(), {"--fixed-itl-ms", buf});
    }
    return a;
}

Result<int> SimProcess::start(const std::string &executable, const std::vector<std::string> &arguments,
                              int timeoutMs)
{
    stop();
    m_output.clear();
    m_proc = std::make_unique<QProcess>();
    m_proc->setProcessChannelMode(QProcess::MergedChannels);
    QStringList args;
    for (const auto &a : arguments)
        args << QString::fromStdString(a);
    m_proc->start(QString::fromStdString(executable), args);
    if (!m_proc->waitForStarted(timeoutMs))
        return makeError(ErrorCode::Io,
                         "cannot start " + executable + ": " + m_proc->errorString().toStdString());
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (m_proc->canReadLine() ||
            m_proc->waitForReadyRead(int(std::max<qint64>(1, deadline.remainingTime())))) {
            while (m_proc->canReadLine()) {
                const std::string line = m_proc->readLine().trimmed().toStdString();
                m_output += line + "\n";
                if (line.rfind("listening ", 0) == 0) {
                    const std::string addr = line.substr(10);
                    const auto colon = addr.rfind(':');
                    if (colon == std::string::npos)
                        break;
                    m_host = addr.substr(0, colon);
                    m_port = std::atoi(addr.c_str() + colon + 1);
                    if (m_port > 0)
                        return m_port;
                }
            }
        }
        if (m_proc->state() == QProcess::NotRunning) {
            m_output += m_proc->readAll().toStdString();
            return makeError(ErrorCode::Io, executable + " exited with code " +
                                                std::to_string(m_proc->exitCode()) + ": " + m_output);
        }
    }
    stop();
    return makeError(ErrorCode::Io, executable + " printed no \"listening HOST:PORT\" line within " +
                                        std::to_string(timeoutMs) + " ms: " + m_output);
}

int SimProcess::stop(int timeoutMs)
{
    if (!m_proc)
        return -1;
    int code = -1;
    if (m_proc->state() != QProcess::NotRunning) {
        m_proc->terminate(); // SIGTERM: the server stops cleanly
        if (!m_proc->waitForFinished(timeoutMs)) {
            m_proc->kill();
            m_proc->waitForFinished(timeoutMs);
        } else if (m_proc->exitStatus() == QProcess::NormalExit) {
            code = m_proc->exitCode();
        }
    } else if (m_proc->exitStatus() == QProcess::NormalExit) {
        code = m_proc->exitCode();
    }
    m_output += m_proc->readAll().toStdString();
    m_proc.reset();
    m_port = 0;
    return code;
}

long long SimProcess::pid() const
{
    return running() ? m_proc->processId() : 0;
}

bool SimProcess::running() const
{
    return m_proc && m_proc->state() != QProcess::NotRunning;
}

Status SimProcess::place(const Placement &placement) const
{
    if (!running())
        return makeError(ErrorCode::Internal, "simulator placement: the child is not running");
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu : placement.cpus)
        if (cpu >= 0 && cpu < CPU_SETSIZE)
            CPU_SET(cpu, &set);
    std::error_code ec;
    const std::string dir = "/proc/" + std::to_string(pid()) + "/task";
    for (const auto &task : std::filesystem::directory_iterator(dir, ec)) {
        const auto tid = static_cast<pid_t>(std::stol(task.path().filename().string()));
        if (placement.nice != 0 && setpriority(PRIO_PROCESS, static_cast<id_t>(tid), placement.nice) != 0)
            return makeError(ErrorCode::Io, "simulator placement: nice " + std::to_string(placement.nice) +
                                                " for thread " + std::to_string(tid) + ": " +
                                                std::strerror(errno));
        if (!placement.cpus.empty() && sched_setaffinity(tid, sizeof set, &set) != 0)
            return makeError(ErrorCode::Io, "simulator placement: CPU affinity for thread " +
                                                std::to_string(tid) + ": " + std::strerror(errno));
    }
    if (ec)
        return makeError(ErrorCode::Io, "simulator placement: cannot list " + dir + ": " + ec.message());
    return Ok{};
}

std::string SimProcess::output()
{
    if (m_proc)
        m_output += m_proc->readAll().toStdString();
    return m_output;
}

} // namespace Throughline
