#pragma once
// Live view of a running campaign for the UI (polled at ~10 Hz) and the CLI progress line: a lock-swapped
// buffer of compact finished-request samples plus counters. Producers (worker threads) append under a short
// lock; the consumer swaps the buffer out. Never a Qt signal per request.
// Thread affinity: every method is thread-safe.

#include "core/engine/requestrecord.h"
#include "core/metrics/pointlabel.h" // pointLoadLabel: how progress lines and abort reasons name a load
#include "core/metrics/pointresult.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace Throughline {

struct LiveSample {
    int scenarioIndex = 0;
    int pointIndex = 0;
    bool warmup = false;
    bool ok = true;
    ErrorClass error = ErrorClass::None;
    double tEndS = 0;   // run clock
    double ttftMs = -1; // -1 when no content event
    double e2eMs = -1;
    double tpotMs = -1; // -1 when undefined
    int nOut = 0;
};

struct LiveProgress {
    int scenarioIndex = -1;
    int scenarioCount = 0;
    std::string scenarioId;
    int pointIndex = -1;
    PointLoad load;                    // the point's load (typed: no label parsed back)
    std::string pointLabel;            // pointLoadLabel(load), for display
    std::uint64_t plannedRequests = 0; // whole run, estimated for curve/search; 0 = not known by count
    // Duration-bounded closed points (LoadPlan::pointDurationS) are planned by time: their issue spans in
    // wall seconds (÷ a simulated endpoint's time scale); the ETA comes from it when no count is planned.
    double plannedIssueWallS = 0;
    std::uint64_t finishedRequests = 0;
    std::uint64_t failedRequests = 0;
    int inFlight = 0;
    double elapsedS = 0;
    double etaS = -1; // -1 unknown
    bool running = false;
};

class LiveSnapshot
{
public:
    static LiveSample sampleOf(const RequestRecord &r);

    void push(const LiveSample &s);
    std::vector<LiveSample> takeSamples(); // swap out everything pushed since the last call

    void setProgress(const LiveProgress &p);
    LiveProgress progress() const;
    void updateCounters(std::uint64_t finished, std::uint64_t failed, int inFlight, double elapsedS);

private:
    mutable std::mutex m_mutex;
    std::vector<LiveSample> m_samples;
    LiveProgress m_progress;
};

} // namespace Throughline
