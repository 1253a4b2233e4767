#pragma once
// Runs a phase's non-synthetic workload (core/campaign/workload.h) inside RunController's load points: it
// decides which request comes next when one finishes (session turns, chain steps with fan-out), when it may
// be sent (think time, trace timestamps) and with which prompt and lengths; after the point it summarises
// sessions/chains (chain latency, Σ TTFT, model wait vs client gaps). docs/workloads.md.
//
// Thread affinity: the engine calls begin()/initial() on the controller thread before any request of the
// point is in flight, and bind()/onComplete() under its point lock (from worker and dispatcher threads), so
// they are serialised; prompts()->make() runs inside bind's caller as well. summarize() after the point.

#include "core/campaign/scenario.h"
#include "core/engine/promptsource.h"
#include "core/engine/requestrecord.h"
#include "core/util/result.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace Throughline {

class ExactWords;

// One request the driver wants sent.
struct WorkloadRequest {
    int isl = 0; // intended prompt tokens
    int osl = 0; // requested output tokens
    Prompt prompt;
    bool warmup = false;
    std::int64_t notBeforeNs = 0; // run clock (wall ns); ≤ now = send at once
    std::uint64_t session = 0;    // session / chain / trace entry index within the point
    int step = 0;                 // turn or chain step
    int sub = 0;                  // parallel sub-call of the step
};

struct WorkloadPointSetup {
    bool closedLoop = true; // concurrency counts sessions (closed) or arrivals follow a rate / the trace
    int concurrency = 1;    // closed loop
    double rate = 0;        // open loop (model time requests/s); trace: ignored
    int budgetTotal = 0;    // the plan's closed-loop request budget at this concurrency
    int budgetWarmup = 0;
    std::uint64_t seed = 1;   // per point
    double wallScale = 1.0;   // time scale of a simulated endpoint: model seconds ÷ wallScale = wall seconds
    std::int64_t startNs = 0; // run clock of the point start (wall)
};

// Prompts bound to sequence numbers by the driver (RequestBuilder asks for them by seq). A bound prompt
// carries text and, where the driver can make them, token ids: make() keeps the ids when the request
// flavour sends ids, else the text.
class BoundPromptSource : public PromptSource
{
public:
    void bind(std::uint64_t seq, Prompt prompt);
    Prompt make(std::uint64_t seq, int isl, bool tokenIds) const override; // takes the bound prompt
    std::string name() const override { return m_name; }
    void setName(std::string n) { m_name = std::move(n); }
    // The run salt (PromptSource::setRunSalt, from RequestBuilder): the drivers mix it into every unique
    // prompt part and shared block, so a later run does not hit this run's prompts in a server's cache.
    void setRunSalt(std::uint64_t salt) const override { m_salt.store(salt, std::memory_order_relaxed); }
    std::uint64_t runSalt() const { return m_salt.load(std::memory_order_relaxed); }

private:
    mutable std::atomic<std::uint64_t> m_salt{0};
    mutable std::mutex m_mutex;
    mutable std::unordered_map<std::uint64_t, Prompt> m_bound;
    std::string m_name = "workload";
};

class WorkloadDriver
{
public:
    virtual ~WorkloadDriver() = default;

    // Loads the workload's files (dataset, trace, tokenizer) and, for exact prompts, the scenario model's
    // tokenizer from the default tokenizer cache (ExactWords::forScenario). Synthetic phases have no driver
    // (nullptr).
    static Result<std::unique_ptr<WorkloadDriver>> create(const Scenario &scenario);

    std::shared_ptr<const PromptSource> prompts() const { return m_prompts; }
    // Whether prompts are tokenizer-exact (the scenario model's tokenizer was in the cache).
    bool exactPrompts() const { return m_exact != nullptr; }

    // Open loop: session arrivals at `rate` (model time requests/s) per the plan's arrival process, warm-up
    // and duration (as RunController's open-loop points); set before begin(). Drivers with their own schedule
    // (trace) ignore it.
    virtual void setOpenArrivals(const LoadPlan &plan, double rate, double wallScale, std::uint64_t seed)
    {
        (void)plan;
        (void)rate;
        (void)wallScale;
        (void)seed;
    }
    // Starts a point; returns the number of requests it will send.
    virtual int begin(const WorkloadPointSetup &setup) = 0;
    // The requests to send (or schedule) at the point start.
    virtual std::vector<WorkloadRequest> initial() = 0;
    // The engine gave `r` the sequence number seq (X-Request-Id suffix).
    void bind(std::uint64_t seq, const WorkloadRequest &r);
    // A request finished (ok or not: a failed call does not end its session); returns the next requests.
    virtual std::vector<WorkloadRequest> onComplete(const RequestRecord &record, std::int64_t nowNs) = 0;
    // Offered load of the point for results.json (trace: its mean rate) and the schedule end (kNoTime =
    // closed loop); model time.
    virtual double offeredRate() const { return 0; }
    virtual std::int64_t scheduleEndNs() const { return kNoTime; }
    // Per-point session/chain metrics, flat numbers with the unit in the key (results.json "workload").
    // recs are in model time; think times are model time.
    std::map<std::string, double> summarize(const std::vector<RequestRecord> &recs) const;
    // Single-call sessions (dataset, trace) report only counts.
    virtual bool chained() const { return false; }
    virtual double thinkTimeS() const { return 0; }
    const Workload &workload() const { return m_workload; }

protected:
    explicit WorkloadDriver(const Workload &w);
    static Result<std::unique_ptr<WorkloadDriver>> createKind(const Scenario &scenario);

    Workload m_workload;
    std::shared_ptr<BoundPromptSource> m_prompts;
    // Exact-length prompts with the model's tokenizer (core/workload/exactwords.h); null = ≈-length filler.
    std::shared_ptr<const ExactWords> m_exact;
    struct Member {
        std::uint64_t session = 0;
        int step = 0;
        int sub = 0;
    };
    std::unordered_map<std::uint64_t, Member> m_members; // seq → place in its session (this point)
};

} // namespace Throughline
