#pragma once
// Prometheus metrics of the simulated endpoint with vLLM's current names (optionally the legacy ones too).
// Counters and histograms are updated once per finished request (the same values go to the ground-truth
// log, so their totals agree). Thread-safe.

#include "core/sim/batchscheduler.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace Throughline {

class SimMetrics
{
public:
    struct Totals {
        std::int64_t requests = 0;
        std::int64_t promptTokens = 0;
        std::int64_t generationTokens = 0;
    };

    void addRequest(int promptTokens, int outputTokens, double ttftS, const std::vector<double> &itlS,
                    double e2eS, const std::string &finishReason);
    // Inter-token gaps as seen at the socket: `count` gaps of `gapS` seconds.
    void addItl(double gapS, int count);
    Totals totals() const;
    std::string render(const SchedulerGauges &g, const std::string &modelName, bool legacyNames) const;

private:
    struct Histogram {
        std::vector<double> bounds;
        std::vector<std::int64_t> counts; // per bucket (non-cumulative), +Inf last
        double sum = 0;
        std::int64_t n = 0;
        explicit Histogram(std::vector<double> b)
            : bounds(std::move(b))
            , counts(bounds.size() + 1, 0)
        {
        }
        void add(double v, std::int64_t count = 1);
        void render(std::string &out, const std::string &name, const std::string &labels) const;
    };

    mutable std::mutex m_mu;
    Totals m_totals;
    std::int64_t m_finishedLength = 0;
    std::int64_t m_finishedStop = 0;
    std::int64_t m_finishedAbort = 0;
    Histogram m_ttft{{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25,  0.5,   0.75,
                      1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0}};
    Histogram m_itl{{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
                     20.0, 40.0, 80.0}};
    Histogram m_e2e{{0.3,  0.5,  0.8,  1.0,  1.5,   2.0,   2.5,   5.0,   10.0,   15.0,  20.0,
                     30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0}};
};

} // namespace Throughline
