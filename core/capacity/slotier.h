#pragma once
// SLO tiers for the planner: "ttft_p90<=2000,tpot_p99<=50,tps_user>=20,e2e_p95<=30000". Latency limits are
// upper bounds in ms on a percentile of TTFT, TPOT or E2E; tps_user is a lower bound on tokens/s per user,
// 1000 / TPOT p90 (the MLPerf Endpoints v1.0 interactivity). Pure computation; any thread.

#include "core/util/result.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace Throughline::Capacity {

// A point's latency figures by key: "ttft_p90", "tpot_p99", "e2e_p50", … (ms) and "tps_user".
using LatencyValues = std::map<std::string, double>;

struct SloLimit {
    std::string key;    // "ttft_p90", "tps_user", …
    bool atMost = true; // ≤ bound (latencies) or ≥ bound (tps_user)
    double bound = 0;
    std::string text() const; // "ttft_p90<=2000"
};

struct SloTier {
    std::string name; // optional label ("interactive")
    std::vector<SloLimit> limits;
    std::string text() const; // the limits joined by ','
};

// Errors name the offending field: "tier field 2 'tps_usr>=20': unknown metric 'tps_usr' (ttft_pNN, …)".
Result<SloTier> parseTier(const std::string &text);

struct LimitCheck {
    SloLimit limit;
    std::optional<double> value; // nullopt = the point does not report this figure
    bool ok = false;
    // How far past the bound, as a ratio ≥ 0: 0 = meets; (value − bound) ÷ bound for ≤, (bound − value) ÷
    // bound for ≥; +inf when the value is missing.
    double excess = 0;
    // The point's confidence interval of the figure (95 %), where the run has its requests: lower/upper
    // may be ±inf when the sample cannot bound that side.
    std::optional<double> lower, upper;
    // "conclusive" when the interval lies on one side of the bound, "inconclusive" when it straddles it,
    // "" without an interval.
    std::string confidence() const;
    std::string text() const; // "ttft_p90 2,350 ms > 2,000 ms", then "[95 % CI 2,100–2,600, conclusive]"
};

std::vector<LimitCheck> checkTier(const SloTier &tier, const LatencyValues &values);
bool allOk(const std::vector<LimitCheck> &checks);
double worstExcess(const std::vector<LimitCheck> &checks);

// "441,740" / "6,496.2": thousands separators for the planner's texts.
std::string groupedNumber(double value, int decimals = 0);

} // namespace Throughline::Capacity
