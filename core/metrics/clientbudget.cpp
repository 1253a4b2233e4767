#include "core/metrics/clientbudget.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace Throughline {

std::int64_t sendBlockedNs(std::span<const RequestRecord> records, std::int64_t graceNs)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> spans;
    for (const RequestRecord &r : records)
        if (r.tSched != kNoTime && r.tSend != kNoTime && r.tSend > r.tSched + graceNs)
            spans.emplace_back(r.tSched + graceNs, r.tSend);
    std::sort(spans.begin(), spans.end());
    std::int64_t blocked = 0;
    std::int64_t openFrom = 0, openTo = 0;
    bool open = false;
    for (const auto &[from, to] : spans) {
        if (open && from <= openTo) {
            openTo = std::max(openTo, to);
            continue;
        }
        if (open)
            blocked += openTo - openFrom;
        openFrom = from;
        openTo = to;
        open = true;
    }
    if (open)
        blocked += openTo - openFrom;
    return blocked;
}

double addedDelayEstimateMs(double readDelayP99Ms, double cpuWaitPerWakeMs)
{
    if (std::isnan(readDelayP99Ms) && std::isnan(cpuWaitPerWakeMs))
        return std::numeric_limits<double>::quiet_NaN();
    return (std::isnan(readDelayP99Ms) ? 0.0 : readDelayP99Ms) +
           (std::isnan(cpuWaitPerWakeMs) ? 0.0 : cpuWaitPerWakeMs);
}

std::string readPathName(std::span<const RequestRecord> records)
{
    bool direct = false, libcurl = false;
    for (const RequestRecord &r : records)
        (r.readPath == RequestRecord::ReadPath::DirectHttp1 ? direct : libcurl) = true;
    return direct && libcurl ? "mixed" : direct ? "direct-http1" : libcurl ? "libcurl" : "";
}

} // namespace Throughline
