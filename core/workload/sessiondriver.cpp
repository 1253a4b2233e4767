#include "core/workload/sessiondriver.h"

#include "core/engine/lengthdraw.h"
#include "core/engine/loadschedule.h"
#include "core/engine/servercount.h"
#include "core/tokenizer/bpetokenizer.h"
#include "core/workload/exactwords.h"
#include "core/workload/wordtext.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace Throughline {

SessionDriver::SessionDriver(const Scenario &sc)
    : WorkloadDriver(sc.phase.workload)
    , m_phase(sc.phase)
    , m_chat(sc.endpoint.flavour == ApiFlavour::Chat)
{
    m_prompts->setName(m_workload.kind == Workload::Kind::Dataset     ? "dataset"
                       : m_workload.kind == Workload::Kind::MultiTurn ? "multi_turn"
                                                                      : "agentic");
}

Result<std::unique_ptr<SessionDriver>> SessionDriver::create(const Scenario &sc)
{
    std::unique_ptr<SessionDriver> d(new SessionDriver(sc));
    const Workload &w = sc.phase.workload;
    if (w.kind == Workload::Kind::Dataset) {
        ConversationDataset::TokenCounter counter;
        if (!w.tokenizer.empty()) {
            auto endsWith = [&](std::string_view suf) {
                return w.tokenizer.size() >= suf.size() &&
                       w.tokenizer.compare(w.tokenizer.size() - suf.size(), suf.size(), suf) == 0;
            };
            Result<std::shared_ptr<const BpeTokenizer>> tok = makeError(ErrorCode::InvalidInput, "");
            if (endsWith(".json")) {
                tok = BpeTokenizer::loadHuggingFace(w.tokenizer);
            } else if (endsWith(".tiktoken")) {
                // The rank file's name picks the split pattern and specials (o200k_base, cl100k_base).
                const auto slash = w.tokenizer.find_last_of('/');
                std::string stem = w.tokenizer.substr(slash == std::string::npos ? 0 : slash + 1);
                stem.resize(stem.size() - 9);
                const auto spec = TiktokenSpec::byName(stem);
                if (!spec)
                    return makeError(ErrorCode::InvalidInput, w.tokenizer + ": unknown tiktoken encoding '" +
                                                                  stem +
                                                                  "' (expected o200k_base or cl100k_base)");
                tok = BpeTokenizer::loadTiktoken(w.tokenizer, *spec);
            } else {
                return makeError(ErrorCode::InvalidInput,
                                 w.tokenizer + ": expected a tokenizer.json or a .tiktoken rank file");
            }
            if (!tok)
                return tok.error();
            std::shared_ptr<const BpeTokenizer> t = *tok;
            counter = [t](std::string_view s) { return t->count(s, SpecialTokens::AsText); };
        }
        ConversationDataset::Filter f;
        f.unit = w.lengthUnit;
        f.minPrompt = w.minPromptLen;
        f.maxPrompt = w.maxPromptLen;
        f.minOutput = w.minOutputLen;
        f.maxOutput = w.maxOutputLen;
        auto ds = ConversationDataset::load(w.path, w.format, f, counter);
        if (!ds)
            return ds.error();
        d->m_dataset = std::move(*ds);
        d->m_sampler.emplace(d->m_dataset->size(), w.withReplacement, sc.plan.seed);
    }
    return d;
}

int SessionDriver::stepCount() const
{
    switch (m_workload.kind) {
    case Workload::Kind::MultiTurn:
        return m_workload.turns;
    case Workload::Kind::Agentic:
        return m_workload.steps.empty() ? m_workload.chainLength : static_cast<int>(m_workload.steps.size());
    default:
        return 1;
    }
}

AgenticStep SessionDriver::step(int k) const
{
    AgenticStep s;
    if (m_workload.kind == Workload::Kind::Agentic && !m_workload.steps.empty())
        s = m_workload.steps[static_cast<std::size_t>(k)];
    else
        s.fanOut = m_workload.kind == Workload::Kind::Agentic ? m_workload.fanOut : 1;
    return s;
}

int SessionDriver::callsPerSession() const
{
    int n = 0;
    for (int k = 0; k < stepCount(); ++k)
        n += step(k).fanOut;
    return n;
}

void SessionDriver::setOpenArrivals(const LoadPlan &plan, double rate, double wallScale, std::uint64_t seed)
{
    // Same schedule as RunController::runOpenPoint: rates and durations are model time.
    const double measuredS = openLoopMeasuredS(plan, rate);
    m_arrivals = arrivalOffsetsNs(plan.arrival, rate * wallScale, plan.burstiness,
                                  (plan.warmupS + measuredS) / wallScale, seed);
    const auto warmEnd = static_cast<std::int64_t>(plan.warmupS / wallScale * 1e9);
    m_openDurationNs = static_cast<std::int64_t>((plan.warmupS + measuredS) / wallScale * 1e9);
    m_arrivalWarmup = 0;
    for (std::int64_t o : m_arrivals)
        m_arrivalWarmup += o < warmEnd;
}

int SessionDriver::begin(const WorkloadPointSetup &setup)
{
    m_setup = setup;
    m_members.clear();
    m_started = 0;
    const int per = callsPerSession();
    if (!setup.closedLoop) {
        m_sessionCount = static_cast<int>(m_arrivals.size());
        m_warmupSessions = m_arrivalWarmup;
    } else if (m_workload.kind == Workload::Kind::Dataset) {
        m_sessionCount = setup.budgetTotal; // one call each: the plan's request budget as it is
        m_warmupSessions = setup.budgetWarmup;
    } else {
        m_warmupSessions = m_workload.warmupSessions;
        m_sessionCount =
            m_workload.sessions > 0
                ? m_workload.sessions + m_warmupSessions
                : std::max(setup.concurrency, (setup.budgetTotal + per - 1) / per) + m_warmupSessions;
    }
    m_sessions.assign(static_cast<std::size_t>(m_sessionCount), Session{});
    for (int i = 0; i < m_sessionCount; ++i)
        m_sessions[static_cast<std::size_t>(i)].warmup = i < m_warmupSessions;
    return m_sessionCount * per;
}

std::vector<WorkloadRequest> SessionDriver::initial()
{
    std::vector<WorkloadRequest> out;
    if (!m_setup.closedLoop) {
        for (int s = 0; s < m_sessionCount; ++s) {
            auto r = stepRequests(static_cast<std::uint64_t>(s),
                                  m_setup.startNs + m_arrivals[static_cast<std::size_t>(s)]);
            out.insert(out.end(), std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
        }
        m_started = m_sessionCount;
        return out;
    }
    const int first = std::min(m_setup.concurrency, m_sessionCount);
    for (int s = 0; s < first; ++s) {
        auto r = stepRequests(static_cast<std::uint64_t>(s), 0);
        out.insert(out.end(), std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
    }
    m_started = first;
    return out;
}

std::vector<WorkloadRequest> SessionDriver::stepRequests(std::uint64_t s, std::int64_t notBeforeNs)
{
    Session &ss = m_sessions[static_cast<std::size_t>(s)];
    const int k = ss.step;
    const AgenticStep st = step(k);
    std::vector<WorkloadRequest> out;
    // Per-request draws: deterministic from the point seed, session, step and sub-call.
    // The run salt keeps a later run's prompts out of this run's server-side prefix cache.
    const std::uint64_t key = WordText::mix(m_setup.seed * 0x9e3779b97f4a7c15ULL + s * 100'003ULL +
                                            static_cast<std::uint64_t>(k) * 1'009ULL) ^
                              m_prompts->runSalt();
    for (int j = 0; j < st.fanOut; ++j) {
        WorkloadRequest r;
        r.session = s;
        r.step = k;
        r.sub = j;
        r.warmup = ss.warmup;
        r.notBeforeNs = notBeforeNs;
        std::mt19937_64 rng(key + static_cast<std::uint64_t>(j));
        const int isl = st.isl > 0 ? st.isl : drawLength(m_phase.islDist, m_phase.isl, rng);
        const int osl = st.osl > 0 ? st.osl : drawLength(m_phase.oslDist, m_phase.osl, rng);
        const std::string tag = std::to_string(m_setup.seed) + "-" + std::to_string(s);
        switch (m_workload.kind) {
        case Workload::Kind::Dataset: {
            const DatasetSample &d = m_dataset->samples()[m_sampler->index(m_drawn++)];
            r.prompt.text = d.prompt;
            // Intended lengths: the model tokenizer's count of what the server sees (chat: templated) when
            // it is available, else tokens when the filters counted tokens, else ≈ 4 characters per token.
            const bool tok = m_dataset->unit() == Workload::LengthUnit::Tokens;
            r.prompt.tokens = tok ? d.promptLen : std::max(1, (d.promptLen + 3) / 4);
            if (m_exact) {
                r.prompt.tokens = m_exact->count(d.prompt);
                r.prompt.exact = true;
            }
            r.isl = r.prompt.tokens;
            r.osl = m_workload.outputFromDataset && d.outputLen > 0
                        ? (tok ? d.outputLen : std::max(1, (d.outputLen + 3) / 4))
                        : osl;
            break;
        }
        case Workload::Kind::MultiTurn: {
            const std::string marker =
                (k == 0 ? "Session " : "\nUser turn ") + tag + "/" + std::to_string(k) + ":";
            if (m_chat) { // its own message: starts with a letter (trimming templates count it alike)
                r.prompt = chatTurn(ss, k == 0 ? marker : marker.substr(1), key, isl);
                r.isl = r.prompt.tokens;
                r.osl = osl;
                ss.lastPrompt = r.prompt;
                break;
            }
            // History (previous prompts and answers) first: the server can reuse its cached prefix.
            r.prompt = ss.history;
            if (m_exact) {
                // The turn adds exactly ISL tokens to what the server counts for the history alone (turn 0:
                // the whole prompt is ISL, chat template included).
                const int target = k == 0 ? isl : m_exact->count(ss.history.text) + isl;
                r.prompt.text += marker;
                m_exact->append(r.prompt, key, std::max(1, isl - 4));
                m_exact->fit(r.prompt, target, key ^ 0x5eedULL);
            } else {
                WordText::appendMarker(r.prompt, marker);
                WordText::append(r.prompt, key, std::max(1, isl - 4));
            }
            r.isl = r.prompt.tokens;
            r.osl = osl;
            ss.lastPrompt = r.prompt;
            break;
        }
        case Workload::Kind::Agentic:
        default: {
            const std::string marker =
                "Chain " + tag + " step " + std::to_string(k) + "." + std::to_string(j) + ":";
            if (m_exact) { // exactly the step's ISL as the server counts it
                r.prompt.text = marker;
                m_exact->append(r.prompt, key + static_cast<std::uint64_t>(j), std::max(1, isl - 8));
                m_exact->fit(r.prompt, isl, (key + static_cast<std::uint64_t>(j)) ^ 0x5eedULL);
            } else {
                WordText::appendMarker(r.prompt, marker);
                WordText::append(r.prompt, key + static_cast<std::uint64_t>(j), std::max(1, isl - 4));
            }
            r.isl = r.prompt.tokens;
            r.osl = osl;
            break;
        }
        }
        out.push_back(std::move(r));
    }
    ss.outstanding = st.fanOut;
    return out;
}

// Chat multi-turn: the conversation so far as its own messages, this turn as the last user message. Exact:
// turn 0 is ISL as the server counts it (template included); turn k is the server's count of turn k−1's
// request + the tokens it answered + ISL (the new exchange's template tokens count within the ISL). The
// formatter's count is corrected by the calibration (calibrateChat) for the conversation's exchanges.
// Approximate: the history's tokens plus the turn's.
Prompt SessionDriver::chatTurn(const Session &ss, const std::string &marker, std::uint64_t key, int isl) const
{
    Prompt p;
    p.earlier = ss.messages;
    if (m_exact) {
        const int exchanges = static_cast<int>(ss.messages.size() / 2);
        const int extra = m_serverExtra0 + exchanges * m_serverPerExchange;
        const int target = ss.messages.empty() ? isl : ss.history.tokens + isl;
        p.text = marker;
        m_exact->append(p, key, std::max(1, isl - 4));
        m_exact->fit(p, target - extra, key ^ 0x5eedULL);
        p.tokens += extra;
        return p;
    }
    WordText::appendMarker(p, marker);
    WordText::append(p, key, std::max(1, isl - 4));
    p.tokens += ss.history.tokens;
    p.tokenIds.clear();
    return p;
}

namespace {

std::string trimmed(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

} // namespace

nlohmann::json SessionDriver::calibrateChat(ServerChatCounter &server)
{
    if (m_workload.kind != Workload::Kind::MultiTurn || !m_chat || !m_exact || !m_exact->chat())
        return nullptr;
    // Texts shaped as the turns are: letters first and last (a template's trim changes nothing).
    auto text = [this](const char *head, std::uint64_t key, int n) {
        Prompt p;
        p.text = head;
        m_exact->append(p, key, n);
        return p.text;
    };
    std::vector<ChatMessage> conv;
    int extra[3] = {0, 0, 0};
    for (int k = 0; k < 3; ++k) {
        if (k > 0)
            conv.push_back(ChatMessage{"assistant", text("Reply", 0xca11b0 + k, 20 + 7 * k)});
        conv.push_back(ChatMessage{"user", text("User turn", 0xca11a0 + k, 30 + 11 * k)});
        auto served = server.count(conv);
        if (!served) {
            nlohmann::json j = {{"method", "none"}, {"applied", false}};
            j["note"] =
                "multi-turn prompt calibration: the server could not be asked how it counts prompts (" +
                served.error().message + "); later turns are counted with the client's formatter";
            return j;
        }
        Prompt last;
        last.earlier.assign(conv.begin(), conv.end() - 1);
        last.text = conv.back().content;
        extra[k] = *served - m_exact->count(last);
    }
    nlohmann::json j = {{"method", server.method()}};
    const int per = extra[1] - extra[0];
    if (extra[2] - extra[1] != per) {
        j["applied"] = false;
        j["note"] = "multi-turn prompt calibration (" + server.method() +
                    "): the server's tokens outside the texts are not a fixed part plus one per exchange (" +
                    std::to_string(extra[0]) + ", " + std::to_string(extra[1]) + ", " +
                    std::to_string(extra[2]) +
                    " more than the formatter's); turns are counted with the formatter";
        return j;
    }
    m_serverExtra0 = extra[0];
    m_serverPerExchange = per;
    j["applied"] = true;
    j["server_minus_client_fixed"] = extra[0];
    j["server_minus_client_per_exchange"] = per;
    if (extra[0] != 0 || per != 0)
        j["note"] = "multi-turn prompt calibration (" + server.method() + "): the server counts " +
                    std::to_string(extra[0]) + " tokens more than the formatter for one message and " +
                    std::to_string(per) + " more per earlier exchange; turns built to the server's count";
    return j;
}

// Chat multi-turn: the turn and the server's answer become messages of the conversation (the streamed text
// when the plan stores it, else a deterministic stand-in of the length the server produced).
void SessionDriver::answerJoinsHistory(Session &ss, const RequestRecord &rec)
{
    const int answered = rec.nOut > 0 ? rec.nOut : rec.intendedOsl;
    ss.messages = std::move(ss.lastPrompt.earlier);
    ss.messages.push_back(ChatMessage{"user", ss.lastPrompt.text});
    std::string answer = trimmed(rec.text); // as templates that trim it count it, whichever the server runs
    if (answer.empty()) {
        Prompt stand;
        stand.text = "Reply"; // starts with a letter, as calibrateChat's shapes
        const std::uint64_t key = WordText::mix(rec.seq ^ 0xa5a5a5a5ULL ^ m_prompts->runSalt());
        if (m_exact)
            m_exact->append(stand, key, answered);
        else
            WordText::append(stand, key, answered);
        answer = std::move(stand.text);
    }
    ss.messages.push_back(ChatMessage{"assistant", std::move(answer)});
    ss.history.tokens = ss.lastPrompt.tokens + answered;
}

std::vector<WorkloadRequest> SessionDriver::onComplete(const RequestRecord &rec, std::int64_t nowNs)
{
    std::vector<WorkloadRequest> out;
    const auto it = m_members.find(rec.seq);
    if (it == m_members.end())
        return out;
    const Member m = it->second;
    if (m.session >= m_sessions.size())
        return out;
    Session &ss = m_sessions[static_cast<std::size_t>(m.session)];
    if (m_workload.kind == Workload::Kind::MultiTurn && m_chat) {
        answerJoinsHistory(ss, rec);
    } else if (m_workload.kind == Workload::Kind::MultiTurn) {
        // The answer joins the history: the streamed text when the plan stores it, else a deterministic
        // stand-in of the length the server produced (so the next prompt grows by what it answered).
        ss.history = std::move(ss.lastPrompt);
        WordText::appendMarker(ss.history, "\nAssistant:");
        const int answered = rec.nOut > 0 ? rec.nOut : rec.intendedOsl;
        if (!rec.text.empty()) {
            ss.history.text += rec.text;
            Prompt stand; // ids stand-in of the same length (token-id prompts cannot hold the text)
            WordText::append(stand, WordText::mix(rec.seq), answered);
            ss.history.tokenIds.insert(ss.history.tokenIds.end(), stand.tokenIds.begin(),
                                       stand.tokenIds.end());
            ss.history.tokens += answered;
        } else if (m_exact) {
            m_exact->append(ss.history, WordText::mix(rec.seq ^ 0xa5a5a5a5ULL ^ m_prompts->runSalt()),
                            answered);
        } else {
            WordText::append(ss.history, WordText::mix(rec.seq ^ 0xa5a5a5a5ULL ^ m_prompts->runSalt()),
                             answered);
        }
    }
    if (--ss.outstanding > 0)
        return out;
    ++ss.step;
    if (ss.step < stepCount()) {
        const double thinkWallNs = m_workload.thinkTimeS * 1e9 / std::max(1e-9, m_setup.wallScale);
        return stepRequests(m.session, thinkWallNs > 0 ? nowNs + static_cast<std::int64_t>(thinkWallNs) : 0);
    }
    // Session done: its slot starts the next session at once (closed loop).
    if (m_setup.closedLoop && m_started < m_sessionCount)
        return stepRequests(static_cast<std::uint64_t>(m_started++), 0);
    return out;
}

} // namespace Throughline
