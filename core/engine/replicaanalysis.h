#pragma once
// Per-replica throughput and latency of one load point (records carry `replica`), and a "much slower
// replica" flag: a replica is flagged when its median TPOT, median E2E or median TTFT exceeds slowFactor ×
// the median of the same statistic over the OTHER replicas (leave-one-out, so two replicas can be compared),
// or its output tokens/s falls below 1/slowFactor of the others' median. Replicas with fewer
// than minRequests successful requests are reported but neither judged nor used as reference. Pure.

#include "core/engine/requestrecord.h"

#include <string>
#include <vector>

namespace Throughline {

struct ReplicaOptions {
    double slowFactor = 1.5;
    int minRequests = 5;
    bool includeWarmup = false;
};

struct ReplicaStats {
    int replica = 0;
    int requests = 0;
    int ok = 0;
    long long outputTokens = 0; // Σ N_out of successful requests
    double outputTps = 0.0;     // outputTokens ÷ (max t_end − min t_send) of this replica's requests
    double ttftP50Ms = 0.0, ttftP90Ms = 0.0; // NaN when no value
    double tpotP50Ms = 0.0;
    double e2eP50Ms = 0.0, e2eP90Ms = 0.0;
    bool judged = false; // had enough requests to be compared
    bool muchSlower = false;
    std::string reason; // e.g. "TPOT p50 2.4× the other replicas' median"
};

struct ReplicaReport {
    std::vector<ReplicaStats> replicas; // ascending replica index
    bool anyMuchSlower = false;
};

class ReplicaAnalysis
{
public:
    static ReplicaReport analyse(const std::vector<RequestRecord> &records,
                                 const ReplicaOptions &options = {});
};

} // namespace Throughline
