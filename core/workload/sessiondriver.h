#pragma once
// Session workloads: dataset prompts (sessions of one call), multi-turn sessions (history grows turn by turn:
// the previous prompt + answer are the prefix of the next prompt; think time between turns) and agentic
// chains (K dependent steps, each with its own ISL/OSL and an optional fan-out to parallel sub-calls; think
// time between steps). Closed loop: concurrency counts sessions; open loop (dataset): one session per
// arrival. Thread affinity: WorkloadDriver's.

#include "core/workload/conversationdataset.h"
#include "core/workload/workloaddriver.h"

#include <optional>

namespace Throughline {

class SessionDriver : public WorkloadDriver
{
public:
    static Result<std::unique_ptr<SessionDriver>> create(const Scenario &scenario);

    int begin(const WorkloadPointSetup &setup) override;
    std::vector<WorkloadRequest> initial() override;
    std::vector<WorkloadRequest> onComplete(const RequestRecord &record, std::int64_t nowNs) override;
    bool chained() const override { return m_workload.kind != Workload::Kind::Dataset; }
    double thinkTimeS() const override { return m_workload.thinkTimeS; }
    std::int64_t scheduleEndNs() const override
    {
        return m_setup.closedLoop ? kNoTime : m_setup.startNs + m_openDurationNs;
    }

    // Calls one session sends (1 for datasets).
    int callsPerSession() const;
    void setOpenArrivals(const LoadPlan &plan, double rate, double wallScale, std::uint64_t seed) override;

private:
    SessionDriver(const Scenario &scenario);
    struct Session {
        int step = 0;
        int outstanding = 0;
        Prompt history;    // multi-turn: prompts + answers so far
        Prompt lastPrompt; // multi-turn: the prompt of the turn in flight
        bool warmup = false;
    };
    std::vector<WorkloadRequest> stepRequests(std::uint64_t s, std::int64_t notBeforeNs);
    int stepCount() const;
    AgenticStep step(int k) const;

    Phase m_phase;
    std::optional<ConversationDataset> m_dataset;
    std::optional<DatasetSampler> m_sampler;
    std::uint64_t m_drawn = 0; // dataset samples handed out in this run (without replacement across points)
    WorkloadPointSetup m_setup;
    std::vector<std::int64_t> m_arrivals;
    int m_arrivalWarmup = 0;
    std::int64_t m_openDurationNs = 0; // wall
    int m_sessionCount = 0;
    int m_warmupSessions = 0;
    int m_started = 0;
    std::vector<Session> m_sessions;
};

} // namespace Throughline
