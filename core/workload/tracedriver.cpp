#include "core/workload/tracedriver.h"

#include "core/workload/exactwords.h"
#include "core/workload/wordtext.h"

#include <algorithm>

namespace Throughline {

TraceDriver::TraceDriver(const Scenario &sc, TraceFile trace)
    : WorkloadDriver(sc.phase.workload)
    , m_trace(std::move(trace))
{
    m_prompts->setName("trace");
}

Result<std::unique_ptr<TraceDriver>> TraceDriver::create(const Scenario &sc)
{
    auto t = TraceFile::load(sc.phase.workload.path);
    if (!t)
        return t.error();
    return std::unique_ptr<TraceDriver>(new TraceDriver(sc, std::move(*t)));
}

int TraceDriver::begin(const WorkloadPointSetup &setup)
{
    m_setup = setup;
    m_members.clear();
    return static_cast<int>(m_trace.entries().size());
}

Prompt TraceDriver::promptFor(std::size_t i) const
{
    const TraceEntry &e = m_trace.entries()[i];
    Prompt p;
    const int block = std::max(1, m_workload.blockTokens);
    const std::uint64_t salt = m_prompts->runSalt();
    if (m_exact) {
        // Exactly input_length server tokens (chat: the template's tokens included, so the blocks start
        // after the template's head). Block b of hash id h is the same filler in every request naming h.
        int remaining = e.inputLength - m_exact->overhead();
        for (std::int64_t h : e.hashIds) {
            if (remaining <= 0)
                break;
            const int n = std::min(block, remaining);
            m_exact->append(p, WordText::mix(static_cast<std::uint64_t>(h) ^ 0x7f4a7c15ULL ^ salt), n);
            remaining -= n;
        }
        const std::uint64_t own = WordText::mix((0xC0FFEEULL + i) ^ salt);
        if (remaining > 0) // not covered by hash ids: unique to this request
            m_exact->append(p, own, remaining);
        m_exact->fit(p, e.inputLength, own ^ 0x5eedULL);
        return p;
    }
    int remaining = e.inputLength;
    if (e.hashIds.empty()) {
        WordText::appendMarker(p, "Trace request " + std::to_string(i) + "-" + std::to_string(salt % 100000) +
                                      ":");
        remaining -= p.tokens;
    }
    for (std::int64_t h : e.hashIds) {
        if (remaining <= 0)
            break;
        const int n = std::min(block, remaining);
        // Block text depends on the hash id only: every request naming it sends the same tokens.
        WordText::append(p, WordText::mix(static_cast<std::uint64_t>(h) ^ 0x7f4a7c15ULL ^ salt), n);
        remaining -= n;
    }
    if (remaining > 0) // not covered by hash ids: unique to this request
        WordText::append(p, WordText::mix((0xC0FFEEULL + i) ^ salt), remaining);
    p.tokens = e.inputLength;
    return p;
}

std::vector<WorkloadRequest> TraceDriver::initial()
{
    std::vector<WorkloadRequest> out;
    const auto offsets = m_trace.offsetsNs(m_workload.speedUp);
    out.reserve(offsets.size());
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        const TraceEntry &e = m_trace.entries()[i];
        WorkloadRequest r;
        r.session = i;
        r.isl = e.inputLength;
        r.osl = e.outputLength;
        r.prompt = promptFor(i);
        r.notBeforeNs =
            m_setup.startNs + static_cast<std::int64_t>(static_cast<double>(offsets[i]) / m_setup.wallScale);
        out.push_back(std::move(r));
    }
    return out;
}

double TraceDriver::offeredRate() const
{
    const double d = m_trace.durationS(m_workload.speedUp);
    return d > 0 ? static_cast<double>(m_trace.entries().size()) / d : 0.0;
}

std::int64_t TraceDriver::scheduleEndNs() const
{
    const auto o = m_trace.offsetsNs(m_workload.speedUp);
    return m_setup.startNs +
           (o.empty() ? 0 : static_cast<std::int64_t>(static_cast<double>(o.back()) / m_setup.wallScale)) + 1;
}

} // namespace Throughline
