#include "core/engine/tokenizerpromptsource.h"

#include "core/campaign/scenario.h"
#include "core/tokenizer/tokenizerstore.h"

#include <algorithm>
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

void TokenizerPromptSource::setChatTemplate(ChatTemplate tpl)
{
    m_chatOverhead = tpl.count(*m_tok, {ChatMessage{"user", {}}});
    m_chat = std::move(tpl);
}

Result<SynthPrompt> TokenizerPromptSource::synthChat(std::uint64_t seq, int isl) const
{
    if (isl <= m_chatOverhead)
        return makeError(ErrorCode::InvalidInput, "ISL " + std::to_string(isl) + " is not above the " +
                                                      m_chat->name() + " chat template's " +
                                                      std::to_string(m_chatOverhead) + " tokens");
    int n = isl - m_chatOverhead;
    for (int attempt = 0; attempt < 24; ++attempt) {
        // Another attempt draws another prompt (still deterministic from seq): a length that was already
        // tried must not give the same text again.
        const std::uint64_t index =
            attempt == 0 ? seq : seq ^ (std::uint64_t(attempt) * 0x9E3779B97F4A7C15ULL);
        auto p = m_synth.make(index, n);
        if (!p)
            return p;
        // Estimate from the head: synthesised ids are whole words, each its own pre-token, so only how the
        // template joins the content's edges can change the count (Llama 3 trims it, and the first word
        // without its space may take more tokens); the tail adds one token per id.
        const std::size_t k = std::min<std::size_t>(p->ids.size(), 32);
        const int estimate =
            m_chat->count(*m_tok, {ChatMessage{"user", m_tok->decode(std::span(p->ids.data(), k))}}) +
            static_cast<int>(p->ids.size() - k);
        if (estimate > isl && estimate - isl < static_cast<int>(p->ids.size()) - static_cast<int>(k)) {
            // Drop that many ids from the end: a prefix of whole-word ids re-encodes to itself.
            p->ids.resize(p->ids.size() - static_cast<std::size_t>(estimate - isl));
            p->text = m_tok->decode(p->ids);
        }
        // The whole templated prompt decides (one encode).
        const int templated = m_chat->count(*m_tok, {ChatMessage{"user", p->text}});
        if (templated == isl)
            return p;
        n = std::max(1, n + isl - templated);
    }
    return makeError(ErrorCode::Internal, "could not fit a chat prompt of exactly " + std::to_string(isl) +
                                              " templated tokens (" + m_chat->name() + ")");
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
    {
        std::lock_guard lock(m_mu);
        salt = m_salt;
    }
    // The run salt varies the per-request unique ids only (PromptSynth streams; the shared prefix and the
    // body depend on the seed alone).
    const std::uint64_t key = seq ^ salt;
    auto p = m_chat ? synthChat(key, isl) : m_synth.make(key, std::max(isl, 1));
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

Prompt TokenizerPromptSource::toPrompt(Ready &&r, bool tokenIds)
{
    Prompt p;
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
        if (sc.endpoint.flavour == ApiFlavour::Chat) // ISL counts the templated prompt
            source->setChatTemplate(ChatTemplate::forTokenizer(**tok));
        choice.source = std::move(source);
        return choice;
    };
}

} // namespace Throughline
