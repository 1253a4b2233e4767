#include "core/workload/workloaddriver.h"

#include "core/metrics/stats.h"
#include "core/workload/exactwords.h"
#include "core/workload/sessiondriver.h"
#include "core/workload/tracedriver.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Throughline {

void BoundPromptSource::bind(std::uint64_t seq, Prompt prompt)
{
    std::lock_guard lock(m_mutex);
    m_bound[seq] = std::move(prompt);
}

Prompt BoundPromptSource::make(std::uint64_t seq, int isl, bool tokenIds) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_bound.find(seq);
    if (it == m_bound.end()) {
        // Not bound (should not happen): a unique filler keeps the request valid.
        return SyntheticPromptSource(seq).make(seq, isl, tokenIds);
    }
    Prompt p = std::move(it->second);
    m_bound.erase(it);
    if (tokenIds && !p.tokenIds.empty())
        p.text.clear();
    else
        p.tokenIds.clear();
    return p;
}

WorkloadDriver::WorkloadDriver(const Workload &w)
    : m_workload(w)
    , m_prompts(std::make_shared<BoundPromptSource>())
{
}

Result<std::unique_ptr<WorkloadDriver>> WorkloadDriver::create(const Scenario &sc)
{
    auto made = createKind(sc);
    if (made && *made)
        (*made)->m_exact = ExactWords::forScenario(sc);
    return made;
}

Result<std::unique_ptr<WorkloadDriver>> WorkloadDriver::createKind(const Scenario &sc)
{
    switch (sc.phase.workload.kind) {
    case Workload::Kind::Synthetic:
        return std::unique_ptr<WorkloadDriver>();
    case Workload::Kind::Trace: {
        auto t = TraceDriver::create(sc);
        if (!t)
            return t.error();
        return std::unique_ptr<WorkloadDriver>(std::move(*t));
    }
    case Workload::Kind::Dataset:
    case Workload::Kind::MultiTurn:
    case Workload::Kind::Agentic: {
        auto s = SessionDriver::create(sc);
        if (!s)
            return s.error();
        return std::unique_ptr<WorkloadDriver>(std::move(*s));
    }
    }
    return std::unique_ptr<WorkloadDriver>();
}

void WorkloadDriver::bind(std::uint64_t seq, const WorkloadRequest &r)
{
    m_members[seq] = Member{r.session, r.step, r.sub};
    m_prompts->bind(seq, r.prompt);
}

namespace {

double pctl(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return percentileSorted(v, p / 100.0); // p in percent
}

double mean(const std::vector<double> &v)
{
    if (v.empty())
        return std::numeric_limits<double>::quiet_NaN();
    double s = 0;
    for (double x : v)
        s += x;
    return s / static_cast<double>(v.size());
}

std::int64_t firstContentNs(const RequestRecord &r)
{
    for (const auto &e : r.events)
        if (e.kind == StreamEvent::Kind::Content)
            return e.tNs;
    return kNoTime;
}

} // namespace

std::map<std::string, double> WorkloadDriver::summarize(const std::vector<RequestRecord> &recs) const
{
    std::map<std::string, double> out;
    // Group by session; warm-up sessions are left out (all their calls are warm-up).
    std::map<std::uint64_t, std::vector<const RequestRecord *>> sessions;
    for (const RequestRecord &r : recs) {
        const auto it = m_members.find(r.seq);
        if (it == m_members.end() || r.warmup)
            continue;
        sessions[it->second.session].push_back(&r);
    }
    out["sessions"] = static_cast<double>(sessions.size());
    if (!chained())
        return out;
    std::vector<double> latency, ttftSum, modelWait, think, gap, gapPct, calls;
    int okSessions = 0;
    for (const auto &[id, rs] : sessions) {
        (void)id;
        bool ok = true;
        std::vector<std::pair<std::int64_t, std::int64_t>> spans;
        double ttft = 0;
        int steps = 0;
        for (const RequestRecord *r : rs) {
            if (!r->ok() || r->tSend == kNoTime || r->tEnd == kNoTime) {
                ok = false;
                continue;
            }
            spans.emplace_back(r->tSend, r->tEnd);
            const std::int64_t fc = firstContentNs(*r);
            if (fc != kNoTime)
                ttft += static_cast<double>(fc - r->tSend) / 1e6;
            steps = std::max(steps, m_members.at(r->seq).step + 1);
        }
        if (!ok || spans.empty())
            continue;
        ++okSessions;
        std::sort(spans.begin(), spans.end());
        // Time with at least one call of the session in flight: the union of [t_send, t_end].
        std::int64_t busy = 0, curS = spans.front().first, curE = spans.front().second;
        for (std::size_t i = 1; i < spans.size(); ++i) {
            if (spans[i].first > curE) {
                busy += curE - curS;
                curS = spans[i].first;
                curE = spans[i].second;
            } else {
                curE = std::max(curE, spans[i].second);
            }
        }
        busy += curE - curS;
        std::int64_t last = 0;
        for (const auto &s : spans)
            last = std::max(last, s.second);
        const double latMs = static_cast<double>(last - spans.front().first) / 1e6;
        const double waitMs = static_cast<double>(busy) / 1e6;
        const double thinkMs = thinkTimeS() * 1e3 * std::max(0, steps - 1);
        latency.push_back(latMs);
        ttftSum.push_back(ttft);
        modelWait.push_back(waitMs);
        think.push_back(thinkMs);
        gap.push_back(latMs - waitMs - thinkMs);
        gapPct.push_back(latMs > 0 ? (latMs - waitMs - thinkMs) / latMs * 100 : 0);
        calls.push_back(static_cast<double>(rs.size()));
    }
    out["sessions_ok"] = okSessions;
    out["calls_per_session_mean"] = mean(calls);
    out["chain_latency_ms_mean"] = mean(latency);
    out["chain_latency_ms_p50"] = pctl(latency, 50);
    out["chain_latency_ms_p90"] = pctl(latency, 90);
    out["chain_latency_ms_p99"] = pctl(latency, 99);
    out["chain_latency_ms_max"] = pctl(latency, 100);
    out["ttft_sum_ms_mean"] = mean(ttftSum);
    out["model_wait_ms_mean"] = mean(modelWait);
    out["think_ms_mean"] = mean(think);
    out["client_gap_ms_mean"] = mean(gap);
    out["client_gap_ms_max"] = pctl(gap, 100);
    out["client_gap_pct_mean"] = mean(gapPct);
    return out;
}

} // namespace Throughline
