#include "core/engine/processstats.h"

#include <dirent.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <thread>

namespace Throughline {

double processCpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int openFdCount()
{
    // readdir, not QDir::entryList: no sorting and no QString per entry. QDir cost ~1 ms per 1,000
    // descriptors on the controller thread, CPU taken from the workers on a small machine.
    DIR *dir = opendir("/proc/self/fd");
    if (!dir)
        return 0;
    int n = 0;
    while (const dirent *e = readdir(dir))
        n += e->d_name[0] != '.';
    closedir(dir);
    return n - 1; // the descriptor opendir itself holds while listing
}

void raiseOpenFileLimit()
{
    rlimit rl{};
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int usableCpuCount()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace Throughline
