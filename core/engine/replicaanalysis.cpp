#include "core/engine/replicaanalysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace Throughline {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Linear interpolation between closest ranks (NumPy default), as in ARCHITECTURE.md.
double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return kNaN;
    std::sort(v.begin(), v.end());
    const double pos = p * double(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

double median(std::vector<double> v)
{
    return percentile(std::move(v), 0.5);
}

struct Acc {
    int requests = 0, ok = 0;
    long long tokens = 0;
    std::int64_t firstSend = std::numeric_limits<std::int64_t>::max();
    std::int64_t lastEnd = std::numeric_limits<std::int64_t>::min();
    std::vector<double> ttft, tpot, e2e;
};

} // namespace

ReplicaReport ReplicaAnalysis::analyse(const std::vector<RequestRecord> &records,
                                       const ReplicaOptions &options)
{
    std::map<int, Acc> accs;
    for (const RequestRecord &r : records) {
        if (r.warmup && !options.includeWarmup)
            continue;
        Acc &a = accs[r.replica];
        ++a.requests;
        if (r.tSend != kNoTime)
            a.firstSend = std::min(a.firstSend, r.tSend);
        if (r.tEnd != kNoTime)
            a.lastEnd = std::max(a.lastEnd, r.tEnd);
        if (!r.ok())
            continue;
        ++a.ok;
        std::int64_t first = kNoTime, last = kNoTime;
        int contentEvents = 0;
        for (const StreamEvent &e : r.events)
            if (e.kind == StreamEvent::Kind::Content) {
                if (first == kNoTime)
                    first = e.tNs;
                last = e.tNs;
                ++contentEvents;
            }
        const int nOut = r.nOut >= 0 ? r.nOut : contentEvents;
        a.tokens += nOut;
        if (first != kNoTime && r.tSend != kNoTime)
            a.ttft.push_back(double(first - r.tSend) / 1e6);
        if (r.tEnd != kNoTime && r.tSend != kNoTime)
            a.e2e.push_back(double(r.tEnd - r.tSend) / 1e6);
        const int denom = nOut - r.nFirst;
        if (first != kNoTime && denom >= 1)
            a.tpot.push_back(double(last - first) / 1e6 / denom);
    }

    ReplicaReport report;
    for (auto &[replica, a] : accs) {
        ReplicaStats s;
        s.replica = replica;
        s.requests = a.requests;
        s.ok = a.ok;
        s.outputTokens = a.tokens;
        const std::int64_t span = a.lastEnd - a.firstSend;
        s.outputTps = span > 0 && a.firstSend != std::numeric_limits<std::int64_t>::max()
                          ? double(a.tokens) / (double(span) / 1e9)
                          : 0.0;
        s.ttftP50Ms = percentile(a.ttft, 0.5);
        s.ttftP90Ms = percentile(a.ttft, 0.9);
        s.tpotP50Ms = percentile(a.tpot, 0.5);
        s.e2eP50Ms = percentile(a.e2e, 0.5);
        s.e2eP90Ms = percentile(a.e2e, 0.9);
        s.judged = a.ok >= options.minRequests;
        report.replicas.push_back(std::move(s));
    }

    // Leave-one-out comparison against the other judged replicas.
    for (ReplicaStats &s : report.replicas) {
        if (!s.judged)
            continue;
        struct Stat {
            const char *label;
            double ReplicaStats::*field;
        };
        static const Stat kStats[] = {{"TPOT p50", &ReplicaStats::tpotP50Ms},
                                      {"E2E p50", &ReplicaStats::e2eP50Ms},
                                      {"TTFT p50", &ReplicaStats::ttftP50Ms}};
        for (const Stat &st : kStats) {
            std::vector<double> others;
            for (const ReplicaStats &o : report.replicas)
                if (&o != &s && o.judged && !std::isnan(o.*st.field))
                    others.push_back(o.*st.field);
            if (others.empty() || std::isnan(s.*st.field))
                continue;
            const double ref = median(others);
            if (ref > 0 && s.*st.field > options.slowFactor * ref) {
                char buf[128];
                std::snprintf(buf, sizeof buf, "%s %.2f ms is %.1f× the other replicas' median %.2f ms",
                              st.label, s.*st.field, s.*st.field / ref, ref);
                s.muchSlower = true;
                s.reason = buf;
                break;
            }
        }
        if (s.muchSlower)
            continue;
        // Output throughput: with round-robin routing every replica gets the same requests, with
        // least-in-flight routing a slow replica gets fewer; either way a much lower rate means a slow
        // replica.
        std::vector<double> others;
        for (const ReplicaStats &o : report.replicas)
            if (&o != &s && o.judged)
                others.push_back(o.outputTps);
        if (!others.empty()) {
            const double ref = median(others);
            if (ref > 0 && s.outputTps * options.slowFactor < ref) {
                char buf[128];
                std::snprintf(buf, sizeof buf,
                              "output %.1f tokens/s is %.1f× below the other replicas' median %.1f",
                              s.outputTps, ref / std::max(s.outputTps, 1e-12), ref);
                s.muchSlower = true;
                s.reason = buf;
            }
        }
    }
    report.anyMuchSlower = std::any_of(report.replicas.begin(), report.replicas.end(),
                                       [](const ReplicaStats &s) { return s.muchSlower; });
    return report;
}

} // namespace Throughline
