#include "core/servertiming/timingjoin.h"

#include "core/servertiming/ordermatch.h"

#include <algorithm>
#include <unordered_map>

namespace Throughline {

void ServerTimingJoin::addProblem(std::string message)
{
    ++problemCount;
    if (int(problems.size()) < kMaxProblems)
        problems.push_back(std::move(message));
}

namespace {

double sec(std::int64_t ns)
{
    return ns >= 0 ? double(ns) / 1e9 : kNoValue;
}

// Every joined request bounds the clock: its arrival after the client's write, the server's emissions before
// the client's reads.
ClockSamples clockSamples(const std::vector<ClientTimes> &clients,
                          const std::vector<const ServerTiming *> &server)
{
    ClockSamples s;
    for (size_t i = 0; i < clients.size(); ++i) {
        const ServerTiming *t = server[i];
        if (!t || t->clock == ServerClock::None)
            continue;
        const ClientTimes &c = clients[i];
        s.resolutionS = std::max(s.resolutionS, t->resolutionS);
        s.upper.push_back({sec(c.tWire), t->tArrival});
        s.lower.push_back({sec(c.tFirstToken), hasValue(t->tFirstSent) ? t->tFirstSent : t->tFirstToken});
        s.lower.push_back({sec(c.tLastToken), t->tLastToken});
    }
    return s;
}

ServerTimingJoin finishJoin(TimingFormat format, const std::vector<ClientTimes> &clients,
                            const std::vector<const ServerTiming *> &server, ServerTimingJoin join)
{
    join.format = format;
    join.method = timingFormatInfo(format).join;
    if (timingFormatInfo(format).clock != ServerClock::None)
        join.fit = fitClock(clockSamples(clients, server));
    join.requests.reserve(clients.size());
    for (size_t i = 0; i < clients.size(); ++i) {
        join.requests.push_back(buildBreakdown(clients[i], server[i], join.fit));
        if (server[i])
            ++join.matched;
        else if (clients[i].ok)
            ++join.missing;
    }
    return join;
}

} // namespace

ServerTimingJoin joinInlineTiming(TimingFormat format, const std::vector<ClientTimes> &clients,
                                  const std::vector<Result<ServerTiming>> &timing)
{
    ServerTimingJoin join;
    std::vector<const ServerTiming *> server(clients.size(), nullptr);
    std::vector<std::string> problemOf(clients.size());
    for (size_t i = 0; i < clients.size() && i < timing.size(); ++i) {
        if (timing[i].ok())
            server[i] = &timing[i].value();
        else if (clients[i].ok) { // a failed request has no final chunk: its error is reported elsewhere
            problemOf[i] = timing[i].error().message;
            join.addProblem(problemOf[i]);
        }
    }
    join = finishJoin(format, clients, server, std::move(join));
    for (size_t i = 0; i < clients.size(); ++i)
        join.requests[i].problem = std::move(problemOf[i]);
    return join;
}

ServerTimingJoin joinFetchedTiming(TimingFormat format, const std::vector<ClientTimes> &clients,
                                   const TimingBatch &batch)
{
    ServerTimingJoin join;
    for (const Error &e : batch.problems)
        join.addProblem(e.message);
    std::vector<const ServerTiming *> server(clients.size(), nullptr);
    if (timingFormatInfo(format).join == TimingJoin::OrderAndTime) {
        const std::vector<int> match = matchByOrderAndTime(clients, batch.timings);
        std::vector<bool> used(batch.timings.size(), false);
        for (size_t i = 0; i < clients.size(); ++i)
            if (match[i] >= 0) {
                server[i] = &batch.timings[size_t(match[i])];
                used[size_t(match[i])] = true;
            }
        join.extraEntries = int(std::count(used.begin(), used.end(), false));
    } else {
        std::unordered_map<std::string, size_t> byId;
        for (size_t i = 0; i < clients.size(); ++i)
            byId.emplace(clients[i].requestId, i);
        for (const ServerTiming &t : batch.timings) {
            const std::string &key = t.clientId.empty() ? t.engineId : t.clientId;
            const auto it = byId.find(key);
            if (it == byId.end() || server[it->second])
                ++join.extraEntries;
            else
                server[it->second] = &t;
        }
    }
    join = finishJoin(format, clients, server, std::move(join));
    for (size_t i = 0; i < clients.size(); ++i)
        if (!server[i] && clients[i].ok)
            join.requests[i].problem = "request " + clients[i].requestId + ": " +
                                       timingFormatInfo(format).display + ": no entry for this request";
    if (join.missing > 0)
        join.addProblem(std::to_string(join.missing) + " request(s) have no " +
                        timingFormatInfo(format).display + " entry (first: " +
                        [&] {
                            for (const RequestBreakdown &r : join.requests)
                                if (!r.problem.empty())
                                    return r.problem;
                            return std::string();
                        }() +
                        ')');
    return join;
}

} // namespace Throughline
