#pragma once
// Trace replay (Mooncake style, tracefile.h): one open-loop point whose send times and lengths come from
// the trace (timestamps ÷ speed_up, model time), prompts built from hash_ids as shared blocks of
// block_tokens filler tokens (equal ids = equal text, so requests sharing leading ids share a prompt prefix;
// the last block of a request may be partial — a prefix of the full block). With the model's tokenizer
// (WorkloadDriver::exactPrompts) every prompt is exactly input_length tokens as the server counts them (chat:
// template included); else ≈ one token per filler word. Thread affinity: WorkloadDriver's.

#include "core/workload/tracefile.h"
#include "core/workload/workloaddriver.h"

namespace Throughline {

class TraceDriver : public WorkloadDriver
{
public:
    static Result<std::unique_ptr<TraceDriver>> create(const Scenario &scenario);

    int begin(const WorkloadPointSetup &setup) override;
    std::vector<WorkloadRequest> initial() override;
    std::vector<WorkloadRequest> onComplete(const RequestRecord &, std::int64_t) override { return {}; }
    double offeredRate() const override;
    std::int64_t scheduleEndNs() const override;

    // The prompt of trace entry i (pure; exposed for tests).
    Prompt promptFor(std::size_t i) const;
    const TraceFile &trace() const { return m_trace; }

private:
    TraceDriver(const Scenario &scenario, TraceFile trace);
    TraceFile m_trace;
    WorkloadPointSetup m_setup;
};

} // namespace Throughline
