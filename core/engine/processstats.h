#pragma once
// The client's view of its own process, sampled per load point: CPU seconds, open descriptors, and the
// open-file limit raised to its hard cap before a run (16,384 streams need 16k+ descriptors).

namespace Throughline {

double processCpuSeconds(); // user + system CPU time of this process so far
int openFdCount();          // entries in /proc/self/fd (~1 ms per 1,000 descriptors: sample sparingly)
void raiseOpenFileLimit();  // soft RLIMIT_NOFILE → hard limit; silently keeps the old one on failure

} // namespace Throughline
