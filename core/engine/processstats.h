#pragma once
// The client's view of its own process, sampled per load point: CPU seconds, open descriptors, and the
// open-file limit raised to its hard cap before a run (16,384 streams need 16k+ descriptors).

namespace Throughline {

double processCpuSeconds(); // user + system CPU time of this process so far
int openFdCount();          // open descriptors, from /proc/self/fd (a readdir: ~0.1 ms per 1,000)
void raiseOpenFileLimit();  // soft RLIMIT_NOFILE → hard limit; silently keeps the old one on failure
// CPUs this process may run on (its affinity mask: taskset, cgroup cpusets), else the machine's count.
int usableCpuCount();

} // namespace Throughline
