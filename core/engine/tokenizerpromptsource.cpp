#include "core/engine/tokenizerpromptsource.h"

#include "core/campaign/scenario.h"
#include "core/tokenizer/tokenizerstore.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <span>

namespace Throughline {

TokenizerPromptSource::TokenizerPromptSource(std::shared_ptr<const BpeTokenizer> tokenizer,
                                             std::string tokenizerName, std::uint64_t seed,
                                             double sharedPrefixRatio)
    : m_tok(std::move(tokenizer))
    , m_name(std::move(tokenizerName))
    , m_ratio(std::clamp(sharedPrefixRatio, 0.0, 1.0))
    , m_synth(m_tok, PromptSynthOptions{128, m_ratio, seed})
{
}

TokenizerPromptSource::~TokenizerPromptSource()
{
    {
        std::lock_guard lock(m_mu);
        m_stop = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

namespace {

// The content starts with a letter: a template that trims its messages (Llama 3) and one that does not
// (ChatML, DeepSeek) then see the same text, and its tokens add to the template's.
std::string withoutLeadingSpace(const std::string &s)
{
    const std::size_t i = s.find_first_not_of(" \t\r\n");
    return i == std::string::npos ? std::string() : s.substr(i);
}

constexpr std::uint64_t kProbeIndex = 0xCA11B000ULL; // probe prompts' own streams (never a request's seq)

const char *methodText(const std::string &method)
{
    if (method == "tokenize")
        return "POST /tokenize";
    if (method == "apply-template")
        return "POST /apply-template + /tokenize";
    return "a probe request's usage.prompt_tokens";
}

} // namespace

void TokenizerPromptSource::setChatTemplate(ChatTemplate tpl)
{
    m_chat = std::move(tpl);
    m_chatOverhead = m_chat->count(*m_tok, messagesWith({}));
}

void TokenizerPromptSource::setEarlierMessages(std::vector<ChatMessage> messages)
{
    m_earlier.clear();
    for (ChatMessage &m : messages) {
        m.content = ChatTemplate::jsTrim(m.content);
        if (!m.content.empty())
            m_earlier.push_back(std::move(m));
    }
    if (m_chat)
        m_chatOverhead = m_chat->count(*m_tok, messagesWith({}));
}

std::vector<ChatMessage> TokenizerPromptSource::messagesWith(const std::string &content) const
{
    std::vector<ChatMessage> msgs = m_earlier;
    msgs.push_back(ChatMessage{"user", content});
    return msgs;
}

int TokenizerPromptSource::chatCount(const std::string &content, int serverFixed) const
{
    if (serverFixed >= 0)
        return serverFixed + static_cast<int>(m_tok->count(content));
    return m_chat->count(*m_tok, messagesWith(content));
}

Result<SynthPrompt> TokenizerPromptSource::synthChat(std::uint64_t seq, int isl, int serverFixed) const
{
    const int fixed = serverFixed >= 0 ? serverFixed : m_chatOverhead;
    if (isl <= fixed)
        return makeError(ErrorCode::InvalidInput, "ISL " + std::to_string(isl) + " is not above the " +
                                                      std::to_string(fixed) + " tokens of the " +
                                                      (serverFixed >= 0 ? "server's" : m_chat->name()) +
                                                      " chat template");
    int n = isl - fixed;
    for (int attempt = 0; attempt < 24; ++attempt) {
        // Another attempt draws another prompt (still deterministic from seq): a length that was already
        // tried must not give the same text again.
        const std::uint64_t index =
            attempt == 0 ? seq : seq ^ (std::uint64_t(attempt) * 0x9E3779B97F4A7C15ULL);
        auto p = m_synth.make(index, n);
        if (!p)
            return p;
        // Estimate from the head: synthesised ids are whole words, each its own pre-token, so only the
        // content's first word (sent without its space) can change the count; the tail adds one token per id.
        const std::size_t k = std::min<std::size_t>(p->ids.size(), 32);
        const int estimate =
            chatCount(withoutLeadingSpace(m_tok->decode(std::span(p->ids.data(), k))), serverFixed) +
            static_cast<int>(p->ids.size() - k);
        if (estimate > isl && estimate - isl < static_cast<int>(p->ids.size()) - static_cast<int>(k)) {
            // Drop that many ids from the end: a prefix of whole-word ids re-encodes to itself.
            p->ids.resize(p->ids.size() - static_cast<std::size_t>(estimate - isl));
            p->text = m_tok->decode(p->ids);
        }
        p->text = withoutLeadingSpace(p->text);
        // The whole prompt decides (one encode).
        const int counted = chatCount(p->text, serverFixed);
        if (counted == isl)
            return p;
        n = std::max(1, n + isl - counted);
    }
    return makeError(ErrorCode::Internal, "could not fit a chat prompt of exactly " + std::to_string(isl) +
                                              " templated tokens (" + m_chat->name() + ")");
}

nlohmann::json ChatCalibration::toJson() const
{
    nlohmann::json j = {{"method", method.empty() ? nlohmann::json(nullptr) : nlohmann::json(method)},
                        {"applied", applied},
                        {"client_fixed_tokens", clientFixed},
                        {"isl", isl}};
    const auto orNull = [](int v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr); };
    j["server_fixed_tokens"] = orNull(serverFixed);
    j["before_server_tokens"] = orNull(beforeServer);
    j["after_server_tokens"] = orNull(afterServer);
    j["note"] = note;
    return j;
}

ChatCalibration TokenizerPromptSource::calibrate(ServerChatCounter &server, int isl) const
{
    ChatCalibration c;
    c.isl = isl;
    c.clientFixed = m_chatOverhead;
    if (!m_chat)
        return c;
    const std::string formatter = std::string("the client's ") + m_chat->name() + " formatter";
    // Two probe messages of different lengths: a server that counts its tokenizer's tokens plus a fixed
    // template gives the same difference for both.
    int fixed[2] = {0, 0};
    int probeTokens[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        auto p = m_synth.make(kProbeIndex + std::uint64_t(i), i == 0 ? 24 : 96);
        if (!p)
            return c;
        const std::string content = withoutLeadingSpace(p->text);
        probeTokens[i] = static_cast<int>(m_tok->count(content));
        auto n = server.count(messagesWith(content));
        if (!n) {
            c.note = "prompt calibration: the server could not be asked how it counts prompts (" +
                     n.error().message + "); prompts are counted with " + formatter;
            return c;
        }
        fixed[i] = *n - probeTokens[i];
    }
    c.method = server.method();
    if (fixed[0] != fixed[1]) {
        c.note = "prompt calibration (" + std::string(methodText(c.method)) +
                 "): the server's counts are not the model tokenizer's plus a fixed template (" +
                 std::to_string(probeTokens[0]) + " and " + std::to_string(probeTokens[1]) +
                 " tokens of text counted " + std::to_string(fixed[0] + probeTokens[0]) + " and " +
                 std::to_string(fixed[1] + probeTokens[1]) + "); prompts are counted with " + formatter;
        return c;
    }
    c.serverFixed = fixed[0];
    // Before and after, for one prompt of the phase's ISL (a probe stream, not a request's).
    if (auto before = synthChat(kProbeIndex + 2, isl, -1)) {
        if (auto n = server.count(messagesWith(before->text)))
            c.beforeServer = *n;
    }
    if (auto after = synthChat(kProbeIndex + 2, isl, c.serverFixed)) {
        if (auto n = server.count(messagesWith(after->text)))
            c.afterServer = *n;
    }
    c.applied = c.afterServer == isl || (c.afterServer < 0 && isl <= c.serverFixed);
    if (c.applied) {
        std::lock_guard lock(m_mu);
        m_serverFixed = c.serverFixed;
        m_ready.clear(); // made to the formatter's count
        m_readyBytes = 0;
    }
    const bool agree = c.serverFixed == c.clientFixed && c.beforeServer == isl;
    if (agree)
        return c; // the formatter already counts as the server does: nothing to say
    const auto num = [](int v) { return v >= 0 ? std::to_string(v) : std::string("?"); };
    c.note = "prompt calibration (" + std::string(methodText(c.method)) + "): the server counts " +
             std::to_string(c.serverFixed) + " tokens outside the user's text, " + formatter + " " +
             std::to_string(c.clientFixed) + "; a prompt of ISL " + std::to_string(isl) +
             " built by the formatter counted " + num(c.beforeServer) +
             " on the server, built to the server's count " + num(c.afterServer) +
             (c.applied ? "; prompts are built to the server's count"
                        : "; not applied, prompts are counted with the formatter");
    return c;
}

void TokenizerPromptSource::setRunSalt(std::uint64_t salt) const
{
    std::lock_guard lock(m_mu);
    if (salt == m_salt)
        return;
    m_salt = salt;
    m_ready.clear();
    m_readyBytes = 0;
}

TokenizerPromptSource::Ready TokenizerPromptSource::synthesise(std::uint64_t seq, int isl) const
{
    Ready r;
    r.isl = isl;
    std::uint64_t salt = 0;
    int serverFixed = -1;
    {
        std::lock_guard lock(m_mu);
        salt = m_salt;
        serverFixed = m_serverFixed;
    }
    // The run salt varies the per-request unique ids only (PromptSynth streams; the shared prefix and the
    // body depend on the seed alone).
    const std::uint64_t key = seq ^ salt;
    auto p = m_chat ? synthChat(key, isl, serverFixed) : m_synth.make(key, std::max(isl, 1));
    if (p) {
        r.text = std::move(p->text);
        r.ids.assign(p->ids.begin(), p->ids.end());
        return r;
    }
    // Not expected (PromptSynth converges on every shipped tokenizer); keep sending with an approximate
    // prompt rather than stopping the point. Counted in stats().failed.
    {
        std::lock_guard lock(m_mu);
        ++m_stats.failed;
    }
    const Prompt fallback = SyntheticPromptSource(seq).make(seq, isl, false);
    r.text = fallback.text;
    r.ids.clear();
    r.isl = -1; // marks "not exact"
    return r;
}

Prompt TokenizerPromptSource::toPrompt(Ready &&r, bool tokenIds) const
{
    Prompt p;
    p.earlier = m_earlier;
    p.exact = r.isl >= 0;
    p.tokens = p.exact ? r.isl : 0;
    if (tokenIds && p.exact)
        p.tokenIds = std::move(r.ids);
    else
        p.text = std::move(r.text);
    return p;
}

Prompt TokenizerPromptSource::make(std::uint64_t seq, int isl, bool tokenIds) const
{
    {
        std::unique_lock lock(m_mu);
        for (;;) {
            if (auto it = m_ready.find(seq); it != m_ready.end() && it->second.isl != isl) {
                m_readyBytes -= it->second.text.size() + it->second.ids.size() * sizeof(int);
                m_ready.erase(it); // made for another ISL (the hint did not match): not usable
            } else if (it != m_ready.end()) {
                Ready r = std::move(it->second);
                m_readyBytes -= r.text.size() + r.ids.size() * sizeof(int);
                m_ready.erase(it);
                ++m_stats.prefetched;
                lock.unlock();
                m_cv.notify_all(); // room for the producer
                return toPrompt(std::move(r), tokenIds);
            }
            if (m_busy != seq || m_stop)
                break;
            ++m_stats.waited; // the producer is making exactly this one: a few ms at most
            m_cv.wait(lock, [&] { return m_busy != seq || m_stop; });
        }
        ++m_stats.late;
        // The producer is behind: let it continue after this request instead of making it twice.
        if (seq >= m_next && seq < m_end)
            m_next = seq + 1;
    }
    Ready r = synthesise(seq, isl);
    if (r.isl >= 0)
        r.isl = isl;
    return toPrompt(std::move(r), tokenIds);
}

void TokenizerPromptSource::prepare(std::uint64_t firstSeq, std::uint64_t count,
                                    std::function<int(std::uint64_t seq)> islOf,
                                    std::uint64_t readyBefore) const
{
    {
        std::unique_lock lock(m_mu);
        if (m_stop || !islOf)
            return;
        // Prompts of an earlier point that were never asked for are dropped.
        for (auto it = m_ready.begin(); it != m_ready.end();) {
            if (it->first < firstSeq || it->first >= firstSeq + count) {
                m_readyBytes -= it->second.text.size() + it->second.ids.size() * sizeof(int);
                it = m_ready.erase(it);
            } else {
                ++it;
            }
        }
        m_next = firstSeq;
        m_end = firstSeq + count;
        m_islOf = std::move(islOf);
        if (!m_thread.joinable())
            m_thread = std::thread([this] { produce(); });
        m_cv.notify_all();
        // The opening burst comes from the queue, so its requests are not late against their schedule.
        const std::uint64_t want = std::min({readyBefore, count, std::uint64_t(kMaxAhead)});
        m_cv.wait(lock, [&] {
            const bool full = m_ready.size() >= kMaxAhead || m_readyBytes >= kMaxAheadBytes;
            return m_stop || full || (m_next >= firstSeq + want && m_busy == ~std::uint64_t{0});
        });
    }
    m_cv.notify_all();
}

void TokenizerPromptSource::produce() const
{
    std::unique_lock lock(m_mu);
    for (;;) {
        m_cv.wait(lock, [&] {
            return m_stop || (m_next < m_end && m_ready.size() < kMaxAhead && m_readyBytes < kMaxAheadBytes);
        });
        if (m_stop)
            return;
        const std::uint64_t seq = m_next++;
        if (m_ready.contains(seq))
            continue;
        const std::function<int(std::uint64_t)> islOf = m_islOf;
        m_busy = seq;
        lock.unlock();
        const int isl = islOf(seq);
        Ready r = synthesise(seq, isl);
        lock.lock();
        m_busy = ~std::uint64_t{0};
        if (r.isl >= 0) {
            r.isl = isl;
            m_readyBytes += r.text.size() + r.ids.size() * sizeof(int);
            m_ready.emplace(seq, std::move(r));
        }
        m_cv.notify_all(); // a make() may wait for this seq
    }
}

TokenizerPromptSource::Stats TokenizerPromptSource::stats() const
{
    std::lock_guard lock(m_mu);
    return m_stats;
}

ScenarioChatTemplate chatTemplateFor(const Scenario &sc, const BpeTokenizer &tok)
{
    const ChatTemplateOverride &o = sc.endpoint.chatTemplate;
    const std::string date = ChatTemplate::validDate(o.date) && !o.date.empty()
                                 ? o.date
                                 : ChatTemplate::backendDate(sc.backend.id);
    ScenarioChatTemplate out{ChatTemplate::forModel(tok, sc.model.name, date), {}};
    if (o.file.empty())
        return out;
    std::ifstream in(o.file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string own = out.tpl.name();
    if (!in) {
        out.note =
            "chat template " + o.file + " could not be read; prompts counted with the model's own " + own;
        return out;
    }
    JinjaTemplateReading r = readJinjaTemplate(text.str(), date);
    if (!r.tpl) {
        out.note = "chat template " + o.file +
                   " is not a form the formatter knows (Llama 3.1/3.3, DeepSeek V3/R1, gpt-oss harmony, "
                   "ChatML); prompts counted with the model's own " +
                   own;
        return out;
    }
    out.tpl = *r.tpl;
    out.note = "chat template " + o.file + " counted as " + out.tpl.name();
    for (std::size_t i = 0; i < r.ignored.size(); ++i)
        out.note += (i == 0 ? "; the formatter ignores its " : ", ") + r.ignored[i];
    return out;
}

PromptSourceFactory exactPromptSourceFactory(std::string tokenizerCacheDir)
{
    return [dir = std::move(tokenizerCacheDir)](const Scenario &sc) -> PromptSourceChoice {
        PromptSourceChoice choice;
        auto store = TokenizerStore::open(dir);
        if (!store) {
            choice.note = "approximate ISL: tokenizer cache unusable (" + store.error().message + ")";
            return choice;
        }
        auto name = store->tokenizerName(sc.model.name);
        if (!name) {
            choice.note = "approximate ISL: no tokenizer is known for model " + sc.model.name +
                          " (resources/catalog/models_extra.csv)";
            return choice;
        }
        auto tok = store->load(*name);
        if (!tok) {
            if (tok.error().code == ErrorCode::NotFound)
                choice.note = "approximate ISL: tokenizer " + *name +
                              " not fetched; run `throughline-cli tokenizers fetch`";
            else
                choice.note =
                    "approximate ISL: tokenizer " + *name + " failed to load: " + tok.error().message;
            return choice;
        }
        auto source =
            std::make_shared<TokenizerPromptSource>(*tok, *name, sc.plan.seed, sc.plan.sharedPrefixRatio);
        // ISL counts the templated prompt, its date line filled as the backend fills it.
        if (sc.endpoint.flavour == ApiFlavour::Chat) {
            ScenarioChatTemplate chat = chatTemplateFor(sc, **tok);
            source->setChatTemplate(std::move(chat.tpl));
            choice.note = std::move(chat.note);
        }
        choice.source = std::move(source);
        return choice;
    };
}

nlohmann::json calibrateScenarioPrompts(const Scenario &sc,
                                        const std::shared_ptr<const PromptSource> &prompts,
                                        const std::string &apiKey)
{
    const auto exact = std::dynamic_pointer_cast<const TokenizerPromptSource>(prompts);
    if (sc.endpoint.flavour != ApiFlavour::Chat || !exact || !exact->chatTemplate())
        return nullptr;
    ServerChatCounter counter(ServerCountTarget::forScenario(sc, apiKey));
    return exact->calibrate(counter, std::max(1, sc.phase.isl)).toJson();
}

} // namespace Throughline
