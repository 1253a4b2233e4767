#pragma once
// Latency limits a scenario must meet; 0 means "no limit on this metric".

namespace Throughline {

struct Slo {
    double ttftMs = 0;
    double tpotMs = 0;
    double e2eMs = 0;
    double percentile = 90; // which percentile of each metric is judged

    bool empty() const { return ttftMs <= 0 && tpotMs <= 0 && e2eMs <= 0; }
    bool operator==(const Slo &) const = default;
};

} // namespace Throughline
