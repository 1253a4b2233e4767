#pragma once
// The client's view of its own process, sampled per load point: CPU seconds, open descriptors, the time its
// threads waited for a CPU, and the open-file limit raised to its hard cap before a run (16,384 streams need
// 16k+ descriptors).

#include <cstdint>
#include <optional>
#include <sys/types.h>

namespace Throughline {

// A thread's scheduler accounting (/proc/self/task/TID/schedstat): how long it was runnable but waited for
// a CPU, and how many times it was put on one. The difference of two readings over a load point, divided
// by the wake-ups, is the average delay the machine added before the thread could run at all — what a
// starved client adds to every timestamp, invisible from inside its own loop.
struct ThreadCpuWait {
    std::int64_t waitNs = 0;
    std::uint64_t timeslices = 0;
};
std::optional<ThreadCpuWait> threadCpuWait(pid_t tid); // nullopt when the kernel does not provide it

double processCpuSeconds(); // user + system CPU time of this process so far
// Threads named with this prefix belong to a simulator running inside the client's process (the demo's
// `simulated` endpoint: core/sim names its threads so). They are the server, not the client.
inline constexpr char kInProcessSimThreadPrefix[] = "tl-sim";
// CPU time so far of this process's live threads whose name starts with `prefix` (schedstat run time, ns
// resolution); 0 when there are none or the kernel does not say.
double threadsCpuSeconds(const char *prefix);
// The client's own CPU time: the process's, less its in-process simulator's threads. What `cpu_pct` judges
// (docs/metrics.md): a demo run at C = 64 on the scale-20 simulator spent about half its process CPU in the
// simulator, and the client was judged on both.
double clientCpuSeconds();
int openFdCount();         // open descriptors, from /proc/self/fd (a readdir: ~0.1 ms per 1,000)
void raiseOpenFileLimit(); // soft RLIMIT_NOFILE → hard limit; silently keeps the old one on failure
// CPUs this process may run on (its affinity mask: taskset, cgroup cpusets), else the machine's count.
int usableCpuCount();

} // namespace Throughline
