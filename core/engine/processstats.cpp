#include "core/engine/processstats.h"

#include <dirent.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
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

double threadsCpuSeconds(const char *prefix)
{
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return 0.0;
    const std::size_t prefixLen = std::strlen(prefix);
    unsigned long long runNs = 0;
    while (const dirent *e = readdir(dir)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        const std::string task = std::string("/proc/self/task/") + e->d_name;
        char comm[32] = {};
        if (std::FILE *f = std::fopen((task + "/comm").c_str(), "re")) {
            const bool got = std::fgets(comm, sizeof comm, f) != nullptr;
            std::fclose(f);
            if (!got || std::strncmp(comm, prefix, prefixLen) != 0)
                continue;
        } else {
            continue;
        }
        if (std::FILE *f = std::fopen((task + "/schedstat").c_str(), "re")) {
            unsigned long long run = 0;
            if (std::fscanf(f, "%llu", &run) == 1)
                runNs += run;
            std::fclose(f);
        }
    }
    closedir(dir);
    return static_cast<double>(runNs) / 1e9;
}

double clientCpuSeconds()
{
    return processCpuSeconds() - threadsCpuSeconds(kInProcessSimThreadPrefix);
}

std::optional<ThreadCpuWait> threadCpuWait(pid_t tid)
{
    // Three numbers: ns on a CPU, ns waiting on a run queue, timeslices run (kernel CONFIG_SCHED_INFO).
    const std::string path = "/proc/self/task/" + std::to_string(tid) + "/schedstat";
    std::FILE *f = std::fopen(path.c_str(), "re");
    if (!f)
        return std::nullopt;
    unsigned long long run = 0, wait = 0, slices = 0;
    const int n = std::fscanf(f, "%llu %llu %llu", &run, &wait, &slices);
    std::fclose(f);
    if (n != 3)
        return std::nullopt;
    return ThreadCpuWait{static_cast<std::int64_t>(wait), slices};
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
