#pragma once
// Ground-truth JSONL log of the simulated endpoint: one line per request, written when the request ends.
// Times are CLOCK_MONOTONIC nanoseconds (std::chrono::steady_clock on Linux). Thread-safe.

#include "core/util/result.h"

#include <cstdio>
#include <mutex>
#include <string>

namespace Throughline {

class GroundTruthLog
{
public:
    GroundTruthLog() = default;
    ~GroundTruthLog();
    GroundTruthLog(const GroundTruthLog &) = delete;
    GroundTruthLog &operator=(const GroundTruthLog &) = delete;

    Status open(const std::string &path);
    bool isOpen() const { return m_file != nullptr; }
    void append(const std::string &line, bool flushNow = false); // line without the trailing newline
    void close();

private:
    std::mutex m_mu;
    std::FILE *m_file = nullptr;
};

} // namespace Throughline
