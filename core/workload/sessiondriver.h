#pragma once
// Session workloads: dataset prompts (sessions of one call), multi-turn sessions (history grows turn by turn:
// the previous prompt + answer are the prefix of the next prompt; think time between turns) and agentic
// chains (K dependent steps, each with its own ISL/OSL and an optional fan-out to parallel sub-calls; think
// time between steps). Closed loop: concurrency counts sessions; open loop (dataset): one session per
// arrival. Thread affinity: WorkloadDriver's.

#include "core/workload/conversationdataset.h"
#include "core/workload/workloaddriver.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace Throughline {

class ServerChatCounter;

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
    // Chat multi-turn with exact prompts: asks the server how it counts conversations of 0, 1 and 2
    // exchanges (ServerChatCounter, before the first point) and, when its tokens outside the texts are a
    // fixed part plus a fixed part per exchange, builds every turn to the server's count. Null when not
    // applicable; else {method, applied, server_minus_client_fixed, server_minus_client_per_exchange, note}.
    nlohmann::json calibrateChat(ServerChatCounter &server);

private:
    SessionDriver(const Scenario &scenario);
    struct Session {
        int step = 0;
        int outstanding = 0;
        Prompt history;    // multi-turn: prompts + answers so far (chat: only its token count is used)
        Prompt lastPrompt; // multi-turn: the prompt of the turn in flight
        std::vector<ChatMessage> messages; // multi-turn, chat: the conversation so far, one message per turn
        bool warmup = false;
    };
    std::vector<WorkloadRequest> stepRequests(std::uint64_t s, std::int64_t notBeforeNs);
    Prompt chatTurn(const Session &ss, const std::string &marker, std::uint64_t key, int isl) const;
    void answerJoinsHistory(Session &ss, const RequestRecord &rec);
    int stepCount() const;
    AgenticStep step(int k) const;

    Phase m_phase;
    bool m_chat = false; // chat flavour: multi-turn sends the conversation as messages
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
    int m_serverExtra0 = 0; // calibration: server count − formatter count of a one-message conversation
    int m_serverPerExchange = 0; // … and its growth per earlier exchange (user + assistant)
};

} // namespace Throughline
