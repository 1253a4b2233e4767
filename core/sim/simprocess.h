#pragma once
// Runs `throughline-sim` as a child process (for more streams than one process may hold open files) and
// reads its port from the machine-readable first stdout line "listening HOST:PORT".
// Not a QObject; blocking calls (no event loop needed). Lives in, and must be used from, one thread.

#include "core/util/result.h"

#include <memory>
#include <string>
#include <vector>

class QProcess;

namespace Throughline {

struct SimulatorOptions;

class SimProcess
{
public:
    SimProcess();
    ~SimProcess(); // stops the child
    SimProcess(const SimProcess &) = delete;
    SimProcess &operator=(const SimProcess &) = delete;

    // throughline-sim next to the running executable if present, else the name (resolved through PATH).
    static std::string defaultExecutable();
    // Arguments for a deployment and the campaign's simulator options (port 0 = ephemeral).
    static std::vector<std::string> argumentsFor(const std::string &model, const std::string &gpu, int gpus,
                                                 const std::string &precision, const SimulatorOptions &sim);

    // Starts the child and waits up to timeoutMs for "listening HOST:PORT"; returns the port.
    Result<int> start(const std::string &executable, const std::vector<std::string> &arguments,
                      int timeoutMs = 15000);
    // SIGTERM, then SIGKILL after timeoutMs. Returns the exit code (-1 if killed or not running).
    int stop(int timeoutMs = 5000);
    bool running() const;
    long long pid() const; // 0 when not running
    int port() const { return m_port; }
    const std::string &host() const { return m_host; }
    std::string baseUrl() const { return "http://" + m_host + ":" + std::to_string(m_port); }
    // Everything the child printed so far (stdout and stderr merged).
    std::string output();

    // Where the running child's threads may run and their niceness. A real server has a machine of its own;
    // on a shared one the simulator's bursts of writes preempt the client's reads, which then shows up as
    // client-added delay. Not applied by default (the simulator needs the cores for thousands of streams);
    // benchmarks use it to model "server elsewhere". Per thread on Linux, so set on every thread of the
    // child (all exist once it listens; threads it starts later inherit from their creator).
    struct Placement {
        std::vector<int> cpus; // empty: leave the affinity alone
        int nice = 0;          // 0: leave the niceness alone
    };
    Status place(const Placement &placement) const;

private:
    std::unique_ptr<QProcess> m_proc;
    std::string m_output;
    std::string m_host;
    int m_port = 0;
};

} // namespace Throughline
