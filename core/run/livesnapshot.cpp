#include "core/run/livesnapshot.h"

#include <algorithm>

#include "core/metrics/requestmetrics.h"

#include <cmath>
#include <cstdio>

namespace Throughline {

LiveSample LiveSnapshot::sampleOf(const RequestRecord &r)
{
    LiveSample s;
    s.scenarioIndex = r.scenarioIndex;
    s.pointIndex = r.pointIndex;
    s.warmup = r.warmup;
    s.ok = r.ok();
    s.error = r.error;
    s.tEndS = r.tEnd == kNoTime ? 0 : static_cast<double>(r.tEnd) / 1e9;
    std::int64_t first = kNoTime;
    for (const StreamEvent &e : r.events)
        if (e.kind == StreamEvent::Kind::Content) {
            first = e.tNs;
            break;
        }
    if (first != kNoTime && r.tSend != kNoTime)
        s.ttftMs = static_cast<double>(first - r.tSend) / 1e6;
    if (r.tEnd != kNoTime && r.tSend != kNoTime)
        s.e2eMs = static_cast<double>(r.tEnd - r.tSend) / 1e6;
    // TPOT and N_out by the metrics' own rule (requestmetrics.h), so the live plot and the point's
    // aggregate agree on every request.
    const double tpot = requestTpotMs(r, &s.nOut);
    s.tpotMs = std::isnan(tpot) ? -1 : tpot;
    return s;
}

void LiveSnapshot::push(const LiveSample &s)
{
    std::lock_guard lock(m_mutex);
    if (m_samples.size() < 1'000'000) // a consumer that never polls must not grow memory without bound
        m_samples.push_back(s);
}

std::vector<LiveSample> LiveSnapshot::takeSamples()
{
    std::vector<LiveSample> out;
    std::lock_guard lock(m_mutex);
    out.swap(m_samples);
    return out;
}

void LiveSnapshot::setProgress(const LiveProgress &p)
{
    std::lock_guard lock(m_mutex);
    m_progress = p;
}

LiveProgress LiveSnapshot::progress() const
{
    std::lock_guard lock(m_mutex);
    return m_progress;
}

void LiveSnapshot::updateCounters(std::uint64_t finished, std::uint64_t failed, int inFlight, double elapsedS)
{
    std::lock_guard lock(m_mutex);
    m_progress.finishedRequests = finished;
    m_progress.failedRequests = failed;
    m_progress.inFlight = inFlight;
    m_progress.elapsedS = elapsedS;
    if (m_progress.plannedRequests == 0 && m_progress.plannedIssueWallS > 0)
        m_progress.etaS = std::max(0.0, m_progress.plannedIssueWallS - elapsedS); // drains not counted
    else if (finished > 0 && m_progress.plannedRequests > finished)
        m_progress.etaS = elapsedS * static_cast<double>(m_progress.plannedRequests - finished) /
                          static_cast<double>(finished);
    else if (m_progress.plannedRequests <= finished)
        m_progress.etaS = 0;
}

} // namespace Throughline
